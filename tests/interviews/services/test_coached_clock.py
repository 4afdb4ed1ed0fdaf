"""The clock waits for the interviewer (DESIGN.md "Live stages"): a coached loop's live
rounds are in the queue from the loop's start, claimable while pending; the clock starts
when the coach (or an admin) starts it, or the candidate once a coach has claimed it, or
the candidate continues solo; scripted follow-ups never fire while the coach is absent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from interviews.models import Stage, StageQuestion, Submission
from interviews.selectors.stages import coach_queue, stage_coach_present, time_remaining_ms
from interviews.services import live
from interviews.services.errors import NotAllowed, StateConflict
from interviews.services.stages import stage_claim, stage_finish, stage_start
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(world):
    """The world's values stage: coached, pending, in the queue, nobody has claimed it
    (and no other stage of its loop is live)."""
    stage_finish(stage=world.coding, actor=world.owner)
    world.values.refresh_from_db()
    assert world.values.coach_requested and world.values.coach_id is None
    return world.values


def _refused(call, error, code: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert caught.value.code == code


def test_a_pending_coached_stage_is_in_the_queue_and_its_clock_does_not_run(world, waiting):
    assert waiting in coach_queue()
    later = timezone.now() + timedelta(hours=3)
    assert time_remaining_ms(waiting, later) == waiting.minutes * 60_000
    assert waiting.deadline is None and waiting.started_at is None


def test_the_candidate_cannot_start_an_unclaimed_coached_stage(world, waiting):
    _refused(
        lambda: stage_start(stage=waiting, actor=world.owner),
        StateConflict,
        "coach_not_claimed",
    )
    waiting.refresh_from_db()
    assert waiting.status == "pending" and waiting.deadline is None
    assert waiting in coach_queue()


def test_a_coach_claims_while_pending_then_either_side_starts(world, waiting):
    claimed = stage_claim(stage=waiting, coach=world.coach)
    assert claimed.status == "pending" and claimed not in coach_queue()
    started = stage_start(stage=claimed, actor=world.coach)
    assert started.status == "live" and started.deadline is not None
    assert started.coach_requested is True  # still a coached stage


def test_the_candidate_starts_once_a_coach_has_claimed(world, waiting):
    stage_claim(stage=waiting, coach=world.coach)
    assert stage_start(stage=waiting, actor=world.owner).status == "live"


def test_who_may_not_start_a_coached_stage(world, waiting):
    # A coach before claiming it, the candidate of another loop: not theirs to start.
    _refused(lambda: stage_start(stage=waiting, actor=world.coach), NotAllowed, "not_allowed")
    _refused(lambda: stage_start(stage=waiting, actor=world.other), NotAllowed, "not_allowed")
    stage_claim(stage=waiting, coach=world.coach)
    # Another coach, once it is claimed.
    _refused(lambda: stage_start(stage=waiting, actor=world.assigned), NotAllowed, "not_allowed")


def test_an_admin_may_start_an_unclaimed_stage_which_stays_in_the_queue(world, waiting):
    started = stage_start(stage=waiting, actor=world.admin)
    assert started.status == "live" and started in coach_queue()
    assert stage_claim(stage=started, coach=world.coach).coach == world.coach


def test_continuing_solo_takes_the_stage_out_of_the_queue_for_good(world, waiting):
    _refused(
        lambda: stage_start(stage=waiting, actor=world.admin, solo=True),
        NotAllowed,
        "not_allowed",
    )
    solo = stage_start(stage=waiting, actor=world.owner, solo=True)
    assert solo.status == "live" and solo.coach_requested is False
    assert solo not in coach_queue()
    _refused(lambda: stage_claim(stage=solo, coach=world.coach), StateConflict, "stage_solo")


def test_solo_is_refused_once_a_coach_has_claimed(world, waiting):
    stage_claim(stage=waiting, coach=world.coach)
    _refused(
        lambda: stage_start(stage=waiting, actor=world.owner, solo=True),
        StateConflict,
        "coach_claimed",
    )


# --- the scripted interviewer and the coach's presence ----------------------------------


def _coached_live_stage(*, coach=None, coach_requested=True):
    now = timezone.now()
    stage = f.StageFactory(
        status="live",
        started_at=now - timedelta(minutes=30),
        deadline=now + timedelta(minutes=30),
        coach_requested=coach_requested,
        coach=coach,
    )
    part = f.PartFactory()
    f.PartFactory(question=part.question, position=2)
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    return stage, part.question


def _accepted(stage: Stage, question) -> Submission:
    return Submission.objects.create(
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


def test_presence_decides_whether_the_coach_is_absent():
    coach = f.CoachFactory()
    stage, _ = _coached_live_stage(coach=coach)
    assert not stage_coach_present(stage)
    live.presence_change(stage=stage, user=coach, role="coach", joined=True)
    live.presence_change(stage=stage, user=coach, role="coach", joined=True)  # two tabs
    live.presence_change(stage=stage, user=coach, role="coach", joined=False)
    assert stage_coach_present(stage)
    live.presence_change(stage=stage, user=coach, role="coach", joined=False)
    assert not stage_coach_present(stage)
    # Someone else in the room (the candidate, an admin) is not the coach.
    live.presence_change(stage=stage, user=stage.loop.candidate, role="candidate", joined=True)
    assert not stage_coach_present(stage)


def test_timed_follow_ups_wait_while_the_coach_is_absent():
    coach = f.CoachFactory()
    stage, question = _coached_live_stage(coach=coach)
    f.FollowUpFactory(question=question, trigger="after_minutes", after_minutes=10)
    assert live.stages_tick()["fired"] == 0
    live.presence_change(stage=stage, user=coach, role="coach", joined=True)
    assert live.stages_tick()["fired"] == 1


def test_timed_follow_ups_never_fire_in_a_stage_waiting_for_a_coach():
    stage, question = _coached_live_stage()  # an admin started it; nobody claimed it
    f.FollowUpFactory(question=question, trigger="after_minutes", after_minutes=10)
    admin = f.UserFactory(is_staff=True)
    live.presence_change(stage=stage, user=admin, role="admin", joined=True)
    assert live.stages_tick()["fired"] == 0
    assert live.stage_fire_timed_follow_ups(stage=stage) == []


def test_on_part_passed_waits_while_the_coach_is_absent():
    coach = f.CoachFactory()
    stage, question = _coached_live_stage(coach=coach)
    f.FollowUpFactory(question=question, trigger="on_part_passed", unlocks_part=2)
    submission = _accepted(stage, question)
    assert live.stage_on_part_passed(submission=submission) == []
    live.presence_change(stage=stage, user=coach, role="coach", joined=True)
    assert [p.unlocks_part for p in live.stage_on_part_passed(submission=submission)] == [2]


def test_the_scripted_interviewer_runs_a_stage_continued_solo(world, waiting):
    solo = stage_start(stage=waiting, actor=world.owner, solo=True)
    f.FollowUpFactory(question=world.discussion_q, trigger="after_minutes", after_minutes=0)
    assert [p.follow_up.trigger for p in live.stage_fire_timed_follow_ups(stage=solo)] == [
        "after_minutes"
    ]


# --- a coach gives a stage back, or hands it on -----------------------------------------


def test_the_coach_releases_a_stage_back_to_the_queue(world, waiting):
    from interviews.services.stages import stage_release

    stage_claim(stage=waiting, coach=world.coach)
    _refused(lambda: stage_release(stage=waiting, actor=world.assigned), NotAllowed, "not_allowed")
    _refused(lambda: stage_release(stage=waiting, actor=world.owner), NotAllowed, "not_allowed")
    released = stage_release(stage=waiting, actor=world.coach)
    assert released.coach_id is None and released in coach_queue()
    _refused(
        lambda: stage_release(stage=released, actor=world.admin),
        StateConflict,
        "stage_not_claimed",
    )
    assert stage_claim(stage=released, coach=world.assigned).coach == world.assigned


def test_the_coach_hands_a_stage_to_another_coach(world, as_user):
    url = f"/api/v1/stages/{world.review.pk}/hand-over/"
    refused = as_user(world.assigned).post(url, {"coach": world.owner.username}, format="json")
    assert refused.status_code == 400 and "coach" in refused.json()["errors"]
    assert as_user(world.coach).post(url, {"coach": "coach-free"}, format="json").status_code == 404
    handed = as_user(world.assigned).post(url, {"coach": "coach-free"}, format="json")
    assert handed.status_code == 200 and handed.json()["coach"] == "coach-free"
    # The old coach no longer sees it; the new one does and may release it.
    assert as_user(world.assigned).get(f"/api/v1/stages/{world.review.pk}/").status_code == 404
    release = as_user(world.coach).post(f"/api/v1/stages/{world.review.pk}/release/")
    assert release.status_code == 200 and release.json()["coach"] is None
