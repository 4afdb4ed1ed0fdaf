"""The answer autosave's hot path (issue #15: 100 req/s on one 2-core box): one light look
at the stage, one UPDATE that returns the answer, the event, and the scripted
interviewer's turn after the commit — with the same answers, refusals and response as
before."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from interviews import models as m
from interviews.api.practice_serializers import AnswerOutSerializer
from interviews.selectors.stages import stage_state_for
from interviews.services import answers
from interviews.services.errors import NotFound
from interviews.services.live import stage_expire
from interviews.services.stages import stage_shadow_join
from tests.interviews.world import build_world

API = "/api/v1"


def _url(stage: m.Stage) -> str:
    return f"{API}/stages/{stage.pk}/answers/"


def test_the_response_is_the_answer_as_its_serializer_shows_it(world, as_user):
    client = as_user(world.owner)
    body = {"question": world.coding_q.pk, "notes": {"api": "POST /v1/generate"}}
    assert client.post(_url(world.coding), body, format="json").status_code == 200
    body = {
        "question": world.coding_q.pk,
        "text": "KV cache（键值缓存） first",
        "scene": {"e": [1]},
    }
    response = client.post(_url(world.coding), body, format="json")
    assert response.status_code == 200
    stored = m.Answer.objects.get(stage=world.coding, question=world.coding_q)
    expected = json.loads(json.dumps(AnswerOutSerializer(stored).data))
    assert response.json() == expected
    assert expected["notes"] == {"api": "POST /v1/generate"}  # kept: not given this time


def test_a_later_autosave_writes_without_reading_the_answer_or_the_stage_tree(world, as_user):
    client = as_user(world.owner)
    body = {"question": world.coding_q.pk, "text": "first"}
    assert client.post(_url(world.coding), body, format="json").status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        body["text"] = "second"
        assert client.post(_url(world.coding), body, format="json").status_code == 200
    sql = [query["sql"] for query in ctx.captured_queries]
    on_answers = [s for s in sql if '"interviews_answer"' in s]
    assert len(on_answers) == 1 and on_answers[0].startswith("UPDATE")
    assert not [s for s in sql if "interviews_looptemplate" in s or "scorecard" in s]


@pytest.mark.django_db(transaction=True)
def test_the_scripted_interviewer_looks_at_the_answer_after_the_commit(monkeypatch):
    """The stage's lock (SQLite: the database's write lock) is held only for the write."""
    world = build_world()
    seen: list[bool] = []
    look = answers.stage_on_answer_saved

    def stage_on_answer_saved(**kwargs):
        seen.append(connection.in_atomic_block)
        return look(**kwargs)

    monkeypatch.setattr(answers, "stage_on_answer_saved", stage_on_answer_saved)
    answers.answer_save(stage=world.coding, actor=world.owner, question=world.coding_q, text="a")
    assert seen == [False]
    assert m.Answer.objects.get(stage=world.coding, question=world.coding_q).text == "a"


def test_an_autosave_after_the_deadline_is_refused_and_changes_nothing(world, as_user):
    client = as_user(world.owner)
    body = {"question": world.coding_q.pk, "text": "in time"}
    assert client.post(_url(world.coding), body, format="json").status_code == 200
    m.Stage.objects.filter(pk=world.coding.pk).update(deadline=timezone.now())
    assert stage_expire(stage_id=world.coding.pk)
    last_seq = m.Stage.objects.get(pk=world.coding.pk).last_seq
    response = client.post(_url(world.coding), {**body, "text": "late"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "stage_not_live"
    assert m.Answer.objects.get(stage=world.coding, question=world.coding_q).text == "in time"
    assert m.Stage.objects.get(pk=world.coding.pk).last_seq == last_seq


def test_a_first_autosave_for_a_question_of_another_stage_is_refused(world, as_user):
    body = {"question": world.review_q.pk, "text": "x"}  # a question of the loop's review
    response = as_user(world.owner).post(_url(world.coding), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"question": ["Not a question of this stage."]}
    assert not m.Answer.objects.filter(stage=world.coding, question=world.review_q).exists()


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 401), ("other", 404), ("coach", 404), ("assigned", 403), ("admin", 403)],
)
def test_only_the_candidate_autosaves_and_strangers_do_not_learn_the_stage_exists(
    world, as_user, role, status
):
    response = as_user(world.user(role)).post(_url(world.coding), {"text": "x"}, format="json")
    assert response.status_code == status


def test_the_stage_state_is_the_stage_s_own_row_for_whoever_may_see_it(world):
    m.Stage.objects.filter(pk=world.coding.pk).update(coach_requested=True)
    stored = m.Stage.objects.select_related("loop").get(pk=world.coding.pk)
    for role in ("owner", "assigned", "admin"):
        state = stage_state_for(world.user(role), world.coding.pk)
        assert (state.pk, state.status, state.coach_id, state.coach_requested) == (
            stored.pk,
            stored.status,
            stored.coach_id,
            True,
        )
        assert state.loop.candidate_id == world.owner.pk
        assert state.title == stored.title and state.loop.coached == stored.loop.coached
    for role in ("other", "coach"):
        with pytest.raises(NotFound):
            stage_state_for(world.user(role), world.coding.pk)
    stage_shadow_join(stage=world.coding, actor=world.coach)
    assert stage_state_for(world.coach, world.coding.pk).pk == world.coding.pk
    with pytest.raises(NotFound):
        stage_state_for(world.owner, 999_999)
