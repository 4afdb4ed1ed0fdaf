"""stage_start / stage_finish / stage_claim: the clock, one live stage per loop, the
coach queue."""

from datetime import timedelta

import pytest
from django.utils import timezone

from interviews import models as m
from interviews.selectors.stages import coach_queue, time_remaining_ms
from interviews.services.errors import NotAllowed, StateConflict
from interviews.services.loops import loop_start
from interviews.services.stages import stage_claim, stage_finish, stage_start
from tests import factories as f


def test_start_sets_the_server_side_deadline(world):
    before = timezone.now()
    stage_finish(stage=world.coding, actor=world.owner)
    stage_claim(stage=world.values, coach=world.coach)
    stage = stage_start(stage=world.values, actor=world.owner)
    assert stage.status == "live"
    assert before <= stage.started_at <= timezone.now()
    assert stage.deadline - stage.started_at == timedelta(minutes=stage.minutes)
    assert 0 < time_remaining_ms(stage) <= stage.minutes * 60_000


def test_at_most_one_live_stage_per_loop(world):
    assert world.coding.status == "live"
    with pytest.raises(StateConflict, match="Another stage"):
        stage_start(stage=world.review, actor=world.owner)
    world.review.refresh_from_db()
    assert world.review.status == "pending" and world.review.deadline is None


def test_stages_start_in_any_order(world):
    stage_finish(stage=world.coding, actor=world.owner)
    stage_start(stage=world.challenge, actor=world.owner)
    stage_finish(stage=world.challenge, actor=world.owner)
    assert stage_start(stage=world.review, actor=world.owner).status == "live"


def test_live_and_done_stages_cannot_start(world):
    with pytest.raises(StateConflict, match="already live"):
        stage_start(stage=world.coding, actor=world.owner)
    stage_finish(stage=world.coding, actor=world.owner)
    with pytest.raises(StateConflict, match="finished"):
        stage_start(stage=world.coding, actor=world.owner)


def test_finish_needs_a_live_stage(world):
    with pytest.raises(StateConflict, match="not started"):
        stage_finish(stage=world.review, actor=world.owner)
    stage = stage_finish(stage=world.coding, actor=world.owner)
    assert stage.status == "done" and stage.finished_at is not None
    assert time_remaining_ms(stage) == 0
    with pytest.raises(StateConflict, match="already finished"):
        stage_finish(stage=world.coding, actor=world.owner)


def test_coached_live_rounds_enter_the_coach_queue_at_loop_start_but_challenges_do_not(world):
    loop = loop_start(candidate=world.owner, template=world.template, coached=True)
    stages = {s.kind: s for s in loop.stages.all()}
    assert {s.kind for s in coach_queue() if s.loop_id == loop.pk} == {"coding", "review", "values"}
    assert all(s.status == "pending" for s in stages.values())
    assert stages["challenge"].coach_requested is False
    challenge = stage_start(stage=stages["challenge"], actor=world.owner)  # no coach needed
    assert challenge.status == "live" and challenge not in coach_queue()


def test_uncoached_loops_never_enter_the_queue(world):
    stage = world.other_loop.stages.get(position=1)
    assert stage_start(stage=stage, actor=world.other).coach_requested is False


def test_claim(world):
    values = stage_claim(stage=world.values, coach=world.coach)
    assert values.coach == world.coach
    assert values not in coach_queue()
    assert stage_claim(stage=values, coach=world.coach).coach == world.coach  # idempotent
    with pytest.raises(StateConflict, match="already claimed"):
        stage_claim(stage=values, coach=world.assigned)
    with pytest.raises(NotAllowed):
        stage_claim(stage=world.challenge, coach=world.owner)
    with pytest.raises(StateConflict, match="did not ask"):
        stage_claim(stage=world.challenge, coach=f.CoachFactory())


def test_finished_stage_cannot_be_claimed(world):
    m.Stage.objects.filter(pk=world.values.pk).update(status="done")
    with pytest.raises(StateConflict):
        stage_claim(stage=world.values, coach=world.coach)
