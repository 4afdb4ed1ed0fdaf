"""Shadowing a live interview (`stage_shadow_join`, access.access_stage_shadow): a coach
not assigned to the stage, or an admin, may join its room to watch and listen; a shadow
sees the stage and its code, never its private events, and can push no follow-up, write no
scorecard and type in no document. Candidates — of another loop, or the stage's own — and
the stage's coach are refused; so are finished and coachless stages."""

import pytest

from interviews.access import stage_is_visible_to
from interviews.models import Stage, StageShadow
from interviews.selectors.access import stages_visible_to
from interviews.selectors.stages import stage_events_for, stage_for
from interviews.services import documents
from interviews.services.errors import NotAllowed, NotFound, StateConflict
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import stage_shadow_join
from tests.interviews.test_access import _yjs_update

pytestmark = pytest.mark.django_db


def test_a_free_coach_shadows_and_then_sees_the_stage_but_nothing_private(world) -> None:
    stage, coach = world.coding, world.coach
    with pytest.raises(NotFound):
        stage_for(coach, stage.pk)
    shadow = stage_shadow_join(stage=stage, actor=coach)
    assert stage_shadow_join(stage=stage, actor=coach) == shadow  # again: a no-op
    assert StageShadow.objects.filter(stage=stage).count() == 1

    assert stage_for(coach, stage.pk) == stage
    assert stage_is_visible_to(coach, stage)
    assert stages_visible_to(coach).filter(pk=stage.pk).exists()
    assert stages_visible_to(coach).count() == 1  # no other stage, and no duplicate row
    events = stage_events_for(coach, stage)
    assert events.exists()
    assert not events.filter(private=True).exists()


def test_a_shadow_acts_on_nothing(world) -> None:
    stage, coach = world.coding, world.coach
    stage_shadow_join(stage=stage, actor=coach)
    with pytest.raises(NotAllowed):
        stage_push_follow_up(stage=stage, actor=coach, text="Now add a cache.")
    with pytest.raises(NotAllowed):
        scorecard_save(stage=stage, coach=coach, scores=[], summary="", recommendation="yes")
    for name in (f"code:{world.coding_q.pk}", f"scene:{world.coding_q.pk}"):
        with pytest.raises(NotAllowed):
            documents.document_update_apply(
                stage=stage, actor=coach, name=name, update_b64=_yjs_update("x")
            )


def test_admins_shadow_too(world) -> None:
    assert stage_shadow_join(stage=world.coding, actor=world.admin).user == world.admin


@pytest.mark.parametrize(
    ("role", "error", "code"),
    [
        ("other", NotFound, None),  # a candidate of another loop: as if absent
        ("owner", StateConflict, "shadow_own_stage"),
        ("assigned", StateConflict, "shadow_own_stage"),
    ],
)
def test_who_may_not_shadow(world, role, error, code) -> None:
    with pytest.raises(error) as raised:
        stage_shadow_join(stage=world.coding, actor=world.user(role))
    if code:
        assert raised.value.code == code
    assert not StageShadow.objects.exists()


def test_finished_and_coachless_stages_have_no_interview_to_shadow(world) -> None:
    Stage.objects.filter(pk=world.coding.pk).update(status=Stage.Status.DONE)
    world.coding.refresh_from_db()
    with pytest.raises(StateConflict) as finished:
        stage_shadow_join(stage=world.coding, actor=world.coach)
    assert finished.value.code == "stage_finished"
    Stage.objects.filter(pk=world.values.pk).update(coach=None, coach_requested=False)
    world.values.refresh_from_db()
    with pytest.raises(StateConflict) as coachless:
        stage_shadow_join(stage=world.values, actor=world.coach)
    assert coachless.value.code == "stage_not_coached"
