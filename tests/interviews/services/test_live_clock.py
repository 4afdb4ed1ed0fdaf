"""The server-side clock and the scripted interviewer: deadline expiry auto-submits and
closes the stage; timed and on-part-passed follow-ups fire only when no coach is there."""

import base64
from datetime import timedelta

import pytest
from django.utils import timezone
from pycrdt import Doc, Map, Text

from interviews.models import StageEvent, StageQuestion, Submission
from interviews.services import documents, live, stages, submissions
from interviews.services.errors import InvalidInput, StateConflict
from tests.factories import CoachFactory, FollowUpFactory, PartFactory, StageFactory, UserFactory

pytestmark = pytest.mark.django_db


def _live_stage(**kwargs):
    now = timezone.now()
    stage = StageFactory(
        status="live",
        started_at=now - timedelta(minutes=30),
        deadline=now + timedelta(minutes=30),
        **kwargs,
    )
    part = PartFactory()
    PartFactory(question=part.question, position=2)
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    return stage, part.question


def _type(stage, name: str, code: str, language: str = "python"):
    doc = Doc()
    doc.get("code", type=Text).insert(0, code)
    doc.get("meta", type=Map)["language"] = language
    update = base64.b64encode(doc.get_update()).decode()
    return documents.document_update_apply(
        stage=stage, actor=stage.loop.candidate, name=name, update_b64=update
    )


def test_deadline_expiry_closes_the_stage_and_auto_submits_the_latest_code():
    stage, question = _live_stage()
    _type(stage, f"code:{question.pk}", "print(42)\n")
    stage.deadline = timezone.now() - timedelta(seconds=1)
    stage.save()

    assert live.stages_tick() == {"expired": 1, "fired": 0}

    stage.refresh_from_db()
    assert stage.status == "done"
    auto = Submission.objects.get(stage=stage)
    assert auto.auto and auto.mode == "submit" and auto.code == "print(42)\n"
    assert auto.language == "python" and auto.part == 2  # the highest open part
    types = list(StageEvent.objects.filter(stage=stage).values_list("type", flat=True))
    assert types[-3:] == ["timer", "stage.status", "submission.status"]
    # A second tick (or a redelivered one) changes nothing.
    assert live.stages_tick() == {"expired": 0, "fired": 0}
    assert Submission.objects.filter(stage=stage).count() == 1


def test_paused_stage_does_not_expire_and_extend_moves_the_deadline():
    stage, _ = _live_stage(coach=CoachFactory())
    live.stage_timer_control(stage=stage, actor=stage.coach, action="pause")
    stage.refresh_from_db()
    assert stage.deadline is None and stage.paused_remaining_ms > 0
    assert live.stages_tick(now=timezone.now() + timedelta(hours=5))["expired"] == 0
    with pytest.raises(StateConflict):
        live.stage_timer_control(stage=stage, actor=stage.coach, action="pause")
    live.stage_timer_control(stage=stage, actor=stage.coach, action="resume")
    stage.refresh_from_db()
    before = stage.deadline
    live.stage_timer_control(stage=stage, actor=stage.coach, action="extend", minutes=10)
    stage.refresh_from_db()
    assert stage.deadline - before == timedelta(minutes=10)
    with pytest.raises(InvalidInput):
        live.stage_timer_control(stage=stage, actor=stage.coach, action="extend", minutes=0)


def test_after_minutes_follow_up_fires_once_without_a_coach():
    stage, question = _live_stage()
    FollowUpFactory(question=question, trigger="after_minutes", after_minutes=20, unlocks_part=2)
    FollowUpFactory(question=question, position=2, trigger="after_minutes", after_minutes=45)
    assert live.stages_tick()["fired"] == 1
    assert live.stages_tick()["fired"] == 0
    assert stage.pushed_follow_ups.get().unlocks_part == 2


def test_after_minutes_follow_up_waits_for_the_coach_when_one_is_assigned():
    stage, question = _live_stage(coach=CoachFactory())
    FollowUpFactory(question=question, trigger="after_minutes", after_minutes=1)
    assert live.stages_tick()["fired"] == 0


def test_on_part_passed_fires_the_follow_up_that_unlocks_the_next_part():
    stage, question = _live_stage()
    FollowUpFactory(question=question, trigger="on_part_passed", unlocks_part=2)
    submission = Submission.objects.create(
        stage=stage,
        question=question,
        part=1,
        author=stage.loop.candidate,
        language="python",
        code="x",
        mode="submit",
        status="done",
        verdict="accepted",
    )
    fired = live.stage_on_part_passed(submission=submission)
    assert [f.unlocks_part for f in fired] == [2]
    assert live.stage_on_part_passed(submission=submission) == []


def test_document_state_merges_edits_and_compacts():
    stage, question = _live_stage()
    name = f"code:{question.pk}"
    for i in range(documents.COMPACT_AFTER + 3):
        _type(stage, name, f"{i};")
    state = documents.document_state(stage=stage, name=name)
    assert state.seq == stage.__class__.objects.get(pk=stage.pk).last_seq
    assert len(state.text) > 0
    assert stage.documents.get(name=name).seq == state.seq


def test_only_the_candidate_types_and_only_while_live():
    stage, question = _live_stage()
    from interviews.services.errors import NotAllowed

    with pytest.raises(NotAllowed):
        documents.document_update_apply(
            stage=stage, actor=UserFactory(), name=f"code:{question.pk}", update_b64="AAA="
        )
    stage.status = "done"
    stage.save()
    with pytest.raises(StateConflict):
        _type(stage, f"code:{question.pk}", "late")


def _submit(stage, question, code: str, part: int = 2) -> Submission:
    return Submission.objects.create(
        stage=stage,
        question=question,
        part=part,
        author=stage.loop.candidate,
        language="python",
        code=code,
        mode="submit",
        status="done",
        verdict="wrong_answer",
    )


def test_finishing_early_submits_the_latest_code_as_the_deadline_does():
    stage, question = _live_stage()
    _type(stage, f"code:{question.pk}", "print(7)\n")
    assert [
        q.pk for q in submissions.stage_unsubmitted_code(stage=stage, actor=stage.loop.candidate)
    ] == [question.pk]

    stages.stage_finish(stage=stage, actor=stage.loop.candidate)

    auto = Submission.objects.get(stage=stage)
    assert auto.auto and auto.mode == "submit" and auto.code == "print(7)\n" and auto.part == 2
    types = list(StageEvent.objects.filter(stage=stage).values_list("type", flat=True))
    assert types[-2:] == ["stage.status", "submission.status"]
    assert submissions.stage_unsubmitted_code(stage=stage, actor=stage.loop.candidate) == []


def test_code_already_submitted_as_it_is_is_not_judged_again_at_the_end():
    stage, question = _live_stage()
    _type(stage, f"code:{question.pk}", "print(7)\n")
    _submit(stage, question, "print(7)\n")
    assert submissions.stage_unsubmitted_code(stage=stage, actor=stage.loop.candidate) == []
    stages.stage_finish(stage=stage, actor=stage.loop.candidate)
    assert Submission.objects.filter(stage=stage, auto=True).count() == 0


def test_code_changed_since_its_last_submit_is_judged_at_the_end():
    stage, question = _live_stage()
    _submit(stage, question, "print(1)\n")
    _type(stage, f"code:{question.pk}", "print(2)\n")
    stages.stage_finish(stage=stage, actor=stage.loop.candidate)
    assert Submission.objects.get(stage=stage, auto=True).code == "print(2)\n"


def test_only_who_may_finish_sees_what_finishing_would_submit():
    from interviews.services.errors import NotAllowed

    stage, question = _live_stage()
    _type(stage, f"code:{question.pk}", "print(7)\n")
    with pytest.raises(NotAllowed):
        submissions.stage_unsubmitted_code(stage=stage, actor=UserFactory())


def test_untouched_starter_code_is_not_submitted_at_the_end():
    stage, question = _live_stage()
    question.starter = {"python": "def solve():\n    pass\n"}
    question.save()
    _type(stage, f"code:{question.pk}", "def solve():\n    pass\n")
    assert submissions.stage_unsubmitted_code(stage=stage, actor=stage.loop.candidate) == []
    stages.stage_finish(stage=stage, actor=stage.loop.candidate)
    assert not Submission.objects.filter(stage=stage).exists()
