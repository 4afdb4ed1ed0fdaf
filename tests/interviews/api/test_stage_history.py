"""What a room loads instead of replaying its whole log: the stage's submissions list
(newest first, hidden tests as bare verdicts) and the event log filtered by type."""

import pytest

from interviews import models as m
from interviews.services.live import chat_post
from tests.interviews.world import HIDDEN_INPUT, HIDDEN_OUTPUT, HIDDEN_RESULT, World

API = "/api/v1"


def _more_submissions(w: World, n: int) -> list[m.Submission]:
    made = []
    for i in range(n):
        submission = m.Submission.objects.create(
            stage=w.coding,
            question=w.coding_q,
            part=1,
            author=w.owner,
            language="python",
            code=f"print({i})\n",
            mode="submit",
            status="done",
            verdict="accepted",
            passed=1,
            total=1,
        )
        m.TestResult.objects.create(
            submission=submission,
            index=0,
            hidden=True,
            verdict="accepted",
            input=HIDDEN_INPUT,
            expected=HIDDEN_OUTPUT,
            output=HIDDEN_RESULT,
        )
        made.append(submission)
    return made


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["owner", "assigned", "admin"])
def test_stage_submissions_newest_first_without_hidden_data(
    world: World, as_user, django_assert_max_num_queries, who
):
    made = _more_submissions(world, 4)
    client = as_user(getattr(world, who))
    with django_assert_max_num_queries(6):
        response = client.get(f"{API}/stages/{world.coding.pk}/submissions/")
    assert response.status_code == 200
    rows = response.json()
    assert [r["id"] for r in rows] == [s.pk for s in reversed(made)] + [world.submission.pk]
    text = response.content.decode()
    for secret in (HIDDEN_INPUT.strip(), HIDDEN_OUTPUT, HIDDEN_RESULT):
        assert secret not in text
    oldest = rows[-1]
    sample, hidden = oldest["tests"]
    assert sample["input"] == "1 2\n" and sample["expected"] == "3\n"
    assert set(hidden) == {"index", "hidden", "verdict", "time_ms", "memory_kb"}


@pytest.mark.django_db
def test_stage_submissions_limit_and_visibility(world: World, as_user):
    _more_submissions(world, 3)
    url = f"{API}/stages/{world.coding.pk}/submissions/"
    assert len(as_user(world.owner).get(url, {"limit": 2}).json()) == 2
    assert as_user(world.owner).get(url, {"limit": 0}).status_code == 400
    assert as_user(world.other).get(url).status_code == 404
    assert as_user(world.coach).get(url).status_code == 404
    assert as_user(None).get(url).status_code == 401
    empty = as_user(world.owner).get(f"{API}/stages/{world.review.pk}/submissions/")
    assert empty.json() == []


@pytest.mark.django_db
def test_events_filtered_by_type(world: World, as_user):
    chat_post(stage=world.coding, author=world.owner, text="hello")
    url = f"{API}/stages/{world.coding.pk}/events/"
    coach = as_user(world.assigned)
    everything = [e["type"] for e in coach.get(url).json()]
    assert everything == ["stage.claimed", "stage.status", "note", "chat"]
    assert [e["type"] for e in coach.get(url, {"types": "chat,note"}).json()] == ["note", "chat"]
    assert [e["type"] for e in coach.get(url, {"exclude": "stage.status,note"}).json()] == [
        "stage.claimed",
        "chat",
    ]
    # The candidate's filter never brings private events back.
    owner = as_user(world.owner)
    assert [e["type"] for e in owner.get(url, {"types": "note,chat"}).json()] == ["chat"]
    for bad in ({"types": "chat;drop"}, {"exclude": ","}, {"types": "CHAT"}):
        response = owner.get(url, bad)
        assert response.status_code == 400, bad
