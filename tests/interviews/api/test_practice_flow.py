"""The practice API end to end at the HTTP level: accounts, a loop from start to scorecard,
and what each response contains."""

import pytest
from rest_framework.test import APIClient

from interviews import models as m
from tests.interviews.world import HIDDEN_INPUT, HIDDEN_OUTPUT, HIDDEN_RESULT

API = "/api/v1"


@pytest.fixture(autouse=True)
def _no_judging(monkeypatch):
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)


@pytest.mark.django_db
def test_signup_login_me_logout():
    client = APIClient()
    response = client.post(
        f"{API}/auth/signup/",
        {"username": "ada", "password": "pw-Correct-Horse-9", "email": "ada@example.com"},
        format="json",
    )
    assert response.status_code == 201
    token = response.json()["token"]
    assert response.json()["role"] == "candidate"

    # The signup also signed the browser in (session cookie).
    assert client.get(f"{API}/me/").json()["username"] == "ada"

    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = scripted.get(f"{API}/me/").json()
    assert {k: me[k] for k in ("username", "role", "email")} == {
        "username": "ada",
        "role": "candidate",
        "email": "ada@example.com",
    }

    browser = APIClient(enforce_csrf_checks=True)
    response = browser.post(
        f"{API}/auth/login/", {"username": "ada", "password": "pw-Correct-Horse-9"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["token"] != token  # a token per login (each revoked on its own)
    assert browser.get(f"{API}/me/").status_code == 200
    # Unsafe requests on a session need the CSRF token.
    assert browser.post(f"{API}/auth/logout/").status_code == 403

    assert scripted.post(f"{API}/auth/logout/").status_code == 204
    assert scripted.get(f"{API}/me/").status_code == 401  # the token was revoked


@pytest.mark.django_db
def test_anonymous_gets_401_with_www_authenticate():
    response = APIClient().get(f"{API}/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert response.json() == {
        "detail": "Authentication credentials were not provided.",
        "errors": {},
        "code": "not_authenticated",
    }


def test_loop_start_response(world, as_user):
    response = as_user(world.owner).post(
        f"{API}/loops/", {"template": "ai-lab", "coached": True}, format="json"
    )
    assert response.status_code == 201
    loop = response.json()
    assert loop["template"] == "ai-lab" and loop["coached"] is True
    assert [(s["position"], s["kind"], s["status"]) for s in loop["stages"]] == [
        (1, "coding", "pending"),
        (2, "review", "pending"),
        (3, "values", "pending"),
        (4, "challenge", "pending"),
    ]
    assert loop["stages"][0]["time_remaining_ms"] == 60 * 60_000
    templates = as_user(world.owner).get(f"{API}/loop-templates/").json()
    assert templates[0]["slug"] == "ai-lab"
    assert templates[0]["stages"][0] == {
        "position": 1,
        "kind": "coding",
        "title": "Coding",
        "minutes": 60,
        "questions": 1,
        "language": "en",
        "fallback_fields": [],
    }


def test_a_coached_round_through_the_api(world, as_user):
    owner, coach = as_user(world.owner), as_user(world.coach)
    stage_url = f"{API}/stages/{world.values.pk}"
    owner.post(f"{API}/stages/{world.coding.pk}/finish/")

    # The values stage already sits in the queue (the world asked for a coach); claim it.
    assert [e["id"] for e in coach.get(f"{API}/coach/queue/").json()] == [world.values.pk]
    assert coach.get(f"{stage_url}/").status_code == 404  # not theirs yet
    assert coach.post(f"{stage_url}/claim/").json()["coach"] == "coach-free"
    assert coach.get(f"{API}/coach/queue/").json() == []

    started = owner.post(f"{stage_url}/start/").json()
    assert started["status"] == "live" and started["deadline"]
    assert 0 < started["time_remaining_ms"] <= 45 * 60_000 or started["minutes"]

    answer = owner.post(
        f"{stage_url}/answers/",
        {"question": world.discussion_q.pk, "text": "Because."},
        format="json",
    ).json()
    again = owner.post(
        f"{stage_url}/answers/",
        {"question": world.discussion_q.pk, "notes": {"risks": "misuse"}},
        format="json",
    ).json()
    assert again["id"] == answer["id"]
    assert (again["text"], again["notes"]) == ("Because.", {"risks": "misuse"})

    assert (
        coach.post(
            f"{stage_url}/follow-ups/", {"text": "Why not elsewhere?"}, format="json"
        ).status_code
        == 201
    )
    assert coach.post(f"{stage_url}/notes/", {"text": "hesitant"}, format="json").status_code == 201
    detail = owner.get(f"{stage_url}/").json()
    assert [f["text"] for f in detail["follow_ups"]] == ["Why not elsewhere?"]
    assert detail["answers"][0]["text"] == "Because."

    assert owner.post(f"{stage_url}/finish/").json()["status"] == "done"
    assert owner.post(f"{stage_url}/finish/").status_code == 409
    assert owner.post(f"{stage_url}/start/").status_code == 409
    assert owner.post(f"{stage_url}/answers/", {"text": "late"}, format="json").status_code == 409

    body = {
        "scores": [{"dimension": "Humility", "level": 3, "comment": "owned a mistake"}],
        "summary": "Thoughtful.",
        "recommendation": "yes",
        "private_notes": "ask about the incident next time",
        "submit": True,
    }
    assert coach.put(f"{stage_url}/scorecard/", body, format="json").status_code == 200
    card = owner.get(f"{stage_url}/scorecard/").json()
    assert card["recommendation"] == "yes" and "private_notes" not in card

    owner_events = [e["type"] for e in owner.get(f"{stage_url}/events/").json()]
    coach_events = [e["type"] for e in coach.get(f"{stage_url}/events/").json()]
    assert owner_events == [
        "stage.claimed",
        "stage.status",
        "answer.saved",
        "answer.saved",
        "follow_up",
        "stage.status",
    ]
    assert coach_events == [
        "stage.claimed",
        "stage.status",
        "answer.saved",
        "answer.saved",
        "follow_up",
        "note",
        "stage.status",
        "scorecard.saved",
    ]


def test_candidate_stage_detail_content(world, as_user):
    detail = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/").json()
    assert detail["status"] == "live" and detail["coach"] == "coach-assigned"
    assert detail["rubric"]["dimensions"][0]["name"] == "Problem solving"
    (question,) = detail["questions"]
    assert question["id"] == world.coding_q.pk
    assert question["languages"] == ["python", "javascript"]
    assert question["starter"] == {"python": "import sys\n"}
    assert [p["number"] for p in question["parts"]] == [1, 3]
    assert question["parts"][0]["samples"] == [{"input": "1 2\n", "output": "3\n"}]
    assert "reference" not in question and "follow_ups" not in question

    # Pushing the gating follow-up opens part 2 for the candidate.
    push = as_user(world.assigned).post(
        f"{API}/stages/{world.coding.pk}/follow-ups/",
        {"follow_up": world.unlock_follow_up.pk},
        format="json",
    )
    assert push.status_code == 201 and push.json()["unlocks_part"] == 2
    again = as_user(world.assigned).post(
        f"{API}/stages/{world.coding.pk}/follow-ups/",
        {"follow_up": world.unlock_follow_up.pk},
        format="json",
    )
    assert again.status_code == 409
    detail = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/").json()
    assert [p["number"] for p in detail["questions"][0]["parts"]] == [1, 2, 3]
    assert detail["follow_ups"][0]["text"] == "Now at most K requests may run at once."


def test_submission_detail_hides_hidden_tests(world, as_user):
    data = as_user(world.owner).get(f"{API}/submissions/{world.submission.pk}/").json()
    sample, hidden = data["tests"]
    assert sample == {
        "index": 0,
        "hidden": False,
        "verdict": "accepted",
        "time_ms": 0,
        "memory_kb": 0,
        "input": "1 2\n",
        "expected": "3\n",
        "output": "3\n",
        "stderr": "",
        "exit_signal": "",
        "message": "",
    }
    assert hidden == {
        "index": 1,
        "hidden": True,
        "verdict": "wrong_answer",
        "time_ms": None,  # no figure per hidden test: it could encode the input
        "memory_kb": None,
    }
    assert (data["status"], data["verdict"], data["passed"], data["total"]) == (
        "done",
        "wrong_answer",
        1,
        2,
    )

    # In submit mode even sample results show only the summary.
    m.Submission.objects.filter(pk=world.submission.pk).update(mode="submit")
    data = as_user(world.assigned).get(f"{API}/submissions/{world.submission.pk}/").json()
    assert all(
        set(t) == {"index", "hidden", "verdict", "time_ms", "memory_kb"} for t in data["tests"]
    )
    text = str(data)
    assert HIDDEN_INPUT not in text and HIDDEN_OUTPUT not in text and HIDDEN_RESULT not in text


def test_submission_create_and_part_rules(world, as_user):
    client = as_user(world.owner)
    body = {
        "stage": world.coding.pk,
        "question": world.coding_q.pk,
        "part": 2,
        "language": "javascript",
        "code": "console.log(3)",
        "mode": "submit",
    }
    locked = client.post(f"{API}/submissions/", body, format="json")
    assert locked.status_code == 409 and "Part 2" in locked.json()["detail"]
    as_user(world.assigned).post(
        f"{API}/stages/{world.coding.pk}/follow-ups/",
        {"follow_up": world.unlock_follow_up.pk},
        format="json",
    )
    created = client.post(f"{API}/submissions/", body, format="json")
    assert created.status_code == 202
    submission = m.Submission.objects.get(pk=created.json()["id"])
    assert (submission.part, submission.status, submission.author) == (2, "queued", world.owner)
    detail = client.get(f"{API}/submissions/{submission.pk}/").json()
    assert detail["status"] == "queued" and detail["tests"] == []


def test_conflict_bodies_are_clear(world, as_user):
    response = as_user(world.owner).post(f"{API}/stages/{world.review.pk}/start/")
    assert response.status_code == 409
    data = response.json()
    assert "Another stage of this loop is live" in data["detail"]
    assert data["errors"] == {"live_stage": world.coding.pk}
