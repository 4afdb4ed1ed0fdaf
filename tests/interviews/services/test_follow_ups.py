"""Pushing follow-ups: a bank follow-up unlocks its part (for the stage detail and for
submissions), once per stage; free text any number of times."""

import pytest

from interviews import models as m
from interviews.selectors.stages import part_is_open, stage_detail_for
from interviews.services.errors import InvalidInput, StateConflict
from interviews.services.follow_ups import stage_push_follow_up
from tests import factories as f


def candidate_parts(world):
    stage = stage_detail_for(world.owner, world.coding.pk)
    return [p.position for p in stage.question_list[0].part_list]


def test_follow_up_unlocks_its_part(world):
    assert candidate_parts(world) == [1, 3]  # 2 is gated by a follow-up, 3 is not
    assert not part_is_open(world.coding, world.coding_q, 2)
    assert part_is_open(world.coding, world.coding_q, 3)

    pushed = stage_push_follow_up(
        stage=world.coding, actor=world.assigned, follow_up=world.unlock_follow_up
    )
    assert (pushed.text, pushed.unlocks_part, pushed.question) == (
        world.unlock_follow_up.prompt,
        2,
        world.coding_q,
    )
    assert candidate_parts(world) == [1, 2, 3]
    assert part_is_open(world.coding, world.coding_q, 2)
    assert not part_is_open(world.coding, world.coding_q, 4)  # absent


def test_unlocking_is_per_stage(world):
    stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=world.unlock_follow_up)
    assert not part_is_open(world.challenge, world.coding_q, 2)


def test_the_same_bank_follow_up_is_pushed_once(world):
    stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=world.plain_follow_up)
    with pytest.raises(StateConflict):
        stage_push_follow_up(stage=world.coding, actor=world.admin, follow_up=world.plain_follow_up)
    assert m.StageFollowUp.objects.filter(stage=world.coding).count() == 1


def test_free_text_follow_ups(world):
    for _ in range(2):
        pushed = stage_push_follow_up(
            stage=world.coding, actor=world.assigned, text=" Now cache it. "
        )
        assert (pushed.text, pushed.follow_up, pushed.unlocks_part) == ("Now cache it.", None, None)
    assert candidate_parts(world) == [1, 3]


def test_scripted_interviewer_pushes_without_actor(world):
    pushed = stage_push_follow_up(stage=world.coding, actor=None, follow_up=world.unlock_follow_up)
    assert pushed.pushed_by is None
    event = m.StageEvent.objects.filter(stage=world.coding).latest("seq")
    assert event.type == "follow_up" and event.actor is None


def test_follow_up_must_belong_to_the_stage(world):
    stray = f.FollowUpFactory(question=f.CodingQuestionFactory(), position=1)
    with pytest.raises(InvalidInput):
        stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=stray)
    with pytest.raises(InvalidInput):
        stage_push_follow_up(stage=world.coding, actor=world.assigned)
    with pytest.raises(InvalidInput):
        stage_push_follow_up(
            stage=world.coding, actor=world.assigned, follow_up=world.plain_follow_up, text="x"
        )


def test_no_follow_ups_into_a_finished_stage(world):
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    with pytest.raises(StateConflict):
        stage_push_follow_up(stage=world.coding, actor=world.assigned, text="late")


@pytest.mark.django_db(transaction=True)
def test_a_push_is_one_transaction_nothing_stays_when_its_event_fails(world, monkeypatch):
    """The stage row is locked and the follow-up and its event are written together: a
    failure after the row is written leaves no follow-up the room never heard of (and
    PostgreSQL refuses the row lock outside a transaction)."""

    def broken_emit(*args, **kwargs):
        raise RuntimeError("the event log is down")

    monkeypatch.setattr("interviews.services.follow_ups.emit", broken_emit)
    with pytest.raises(RuntimeError):
        stage_push_follow_up(stage=world.coding, actor=world.assigned, text="Now cache it.")
    assert not m.StageFollowUp.objects.filter(stage=world.coding, text="Now cache it.").exists()
