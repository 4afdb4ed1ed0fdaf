"""The "who may see what" rules that the API and the websockets share."""

import pytest
from django.contrib.auth.models import AnonymousUser

from interviews.selectors.access import (
    can_act_as_coach,
    can_drive_stage,
    can_see_private,
    can_see_review_score,
    can_use_coach_queue,
    is_stage_owner,
    stages_visible_to,
)
from interviews.selectors.stages import (
    open_part_numbers,
    stage_claim_target_for,
    stage_detail_for,
    stage_events_for,
    stage_for,
    stage_rubric,
)
from interviews.services.errors import NotFound


def stage_ids(user):
    return set(stages_visible_to(user).values_list("pk", flat=True))


def test_stages_visible_to_each_role(world):
    owner_stages = {world.coding.pk, world.review.pk, world.values.pk, world.challenge.pk}
    other_stages = set(world.other_loop.stages.values_list("pk", flat=True))
    assert stage_ids(world.owner) == owner_stages
    assert stage_ids(world.other) == other_stages
    assert stage_ids(world.coach) == set()  # the queue entry is not "visible"
    assert stage_ids(world.assigned) == {world.coding.pk, world.review.pk}
    assert stage_ids(world.admin) == owner_stages | other_stages
    assert stage_ids(AnonymousUser()) == set()


def test_stage_for_raises_not_found_when_not_visible(world):
    assert stage_for(world.assigned, world.coding.pk) == world.coding
    with pytest.raises(NotFound):
        stage_for(world.coach, world.coding.pk)
    with pytest.raises(NotFound):
        stage_for(world.other, world.coding.pk)


def test_predicates(world):
    coding = stage_for(world.admin, world.coding.pk)
    assert is_stage_owner(world.owner, coding)
    assert not is_stage_owner(world.assigned, coding)
    assert can_act_as_coach(world.assigned, coding)
    assert can_act_as_coach(world.admin, coding)
    assert not can_act_as_coach(world.coach, coding)
    assert not can_act_as_coach(world.owner, coding)
    assert can_drive_stage(world.owner, coding)
    assert can_see_private(world.assigned, coding)
    assert not can_see_private(world.owner, coding)
    assert not can_see_review_score(world.owner, coding)
    assert can_use_coach_queue(world.coach)
    assert not can_use_coach_queue(world.owner)


def test_claim_target(world):
    # A coach can reach a queue entry, and a claimed stage (to be told "taken").
    assert stage_claim_target_for(world.coach, world.values.pk) == world.values
    assert stage_claim_target_for(world.coach, world.coding.pk) == world.coding
    with pytest.raises(NotFound):
        stage_claim_target_for(world.coach, world.challenge.pk)
    with pytest.raises(NotFound):
        stage_claim_target_for(world.other, world.values.pk)


def test_candidate_never_gets_locked_parts_or_coach_data(world):
    stage = stage_detail_for(world.owner, world.coding.pk)
    assert stage.viewer_is_coach is False
    (question,) = stage.question_list
    assert [p.position for p in question.part_list] == [1, 3]
    assert not hasattr(question, "follow_up_list")
    assert not hasattr(question, "flaw_list")
    coach_stage = stage_detail_for(world.assigned, world.coding.pk)
    (question,) = coach_stage.question_list
    assert [(p.position, p.locked) for p in question.part_list] == [
        (1, False),
        (2, True),
        (3, False),
    ]
    assert [f.pushed for f in question.follow_up_list] == [False, False]


def test_events_for_the_candidate_skip_private_ones(world):
    owner = [e.type for e in stage_events_for(world.owner, world.coding)]
    coach = [e.type for e in stage_events_for(world.assigned, world.coding)]
    assert owner == ["stage.claimed", "stage.status"]
    assert coach == ["stage.claimed", "stage.status", "note"]
    assert [e.seq for e in stage_events_for(world.assigned, world.coding, after=1)] == [
        2,
        3,
    ]


def test_stage_rubric_falls_back_to_the_first_question(world):
    assert stage_rubric(world.coding) == world.rubric  # its own
    assert world.challenge.rubric is None
    assert stage_rubric(world.challenge) == world.rubric  # scheduler's
    assert stage_rubric(world.values) is None


def test_open_part_numbers():
    assert open_part_numbers([1, 2, 3], [2, None], []) == {1, 3}
    assert open_part_numbers([1, 2, 3], [2, 3], [3]) == {1, 3}
    assert open_part_numbers([1, 2], [1], []) == {1, 2}  # part 1 is always open
