"""`GET /api/v1/stage-kinds/` serves the registry to the frontend, and the fixture the
frontend's tests use is the same thing the server serves."""

import json
from pathlib import Path

import pytest

from interviews.stage_kinds import stage_kind_list

API = "/api/v1"
FRONTEND_FIXTURE = (
    Path(__file__).resolve().parents[3] / "frontend" / "src" / "lib" / "stageKinds.fixture.json"
)


@pytest.mark.django_db
def test_signed_in_users_read_every_kind_with_its_room_and_question_kinds(world, as_user):
    response = as_user(world.owner).get(f"{API}/stage-kinds/")
    assert response.status_code == 200
    kinds = response.json()
    assert [k["kind"] for k in kinds] == [spec.kind for spec in stage_kind_list()]
    by_kind = {k["kind"]: k for k in kinds}
    assert by_kind["challenge"] == {
        "kind": "challenge",
        "label": "Coding challenge",
        "live": False,
        "question_kinds": ["coding"],
        "room": "coding",
    }
    assert by_kind["deep_dive"]["room"] == "discussion"
    assert by_kind["values"]["question_kinds"] == ["coding", "design", "review", "discussion"]
    assert {k["room"] for k in kinds} == {"coding", "design", "review", "discussion"}


@pytest.mark.django_db
def test_anonymous_callers_are_refused(client):
    assert client.get(f"{API}/stage-kinds/").status_code == 401


@pytest.mark.django_db
def test_the_frontend_fixture_is_what_the_server_serves(world, as_user):
    """The vitest fixture must not drift from the registry (regenerate it from the API)."""
    served = as_user(world.owner).get(f"{API}/stage-kinds/").json()
    assert json.loads(FRONTEND_FIXTURE.read_text()) == served


@pytest.mark.parametrize(("lang", "coding"), [("zh-Hans", "现场编程"), ("zh-Hant", "現場程式設計")])
def test_labels_come_in_the_requests_language(world, as_user, lang, coding):
    english = {
        row["kind"]: row["label"] for row in as_user(world.owner).get(f"{API}/stage-kinds/").json()
    }
    body = as_user(world.owner).get(f"{API}/stage-kinds/?lang={lang}").json()
    labels = {row["kind"]: row["label"] for row in body}
    assert all(labels[kind] != english[kind] for kind in english), labels
    assert labels["coding"] == coding
