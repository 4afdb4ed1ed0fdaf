"""Who may see what (the `*_visible_to` querysets, → 404) and do what (the `can_*`
predicates, → 403): the one place the practice side's visibility rules live."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from interviews.models import Loop, Scorecard, Stage, StageShadow, Submission
from interviews.roles import ADMIN, COACH, role_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser


# --- roles and predicates -------------------------------------------------------------


def is_admin(user: AnyUser) -> bool:
    return role_of(user) == ADMIN


def is_coach_or_admin(user: AnyUser) -> bool:
    return role_of(user) in (COACH, ADMIN)


def is_stage_owner(user: AnyUser, stage: Stage) -> bool:
    return bool(user.is_authenticated) and stage.loop.candidate_id == user.pk


def can_act_as_coach(user: AnyUser, stage: Stage) -> bool:
    """The stage's assigned coach, or an admin: may push follow-ups, note, score, see
    private events and coach-only data."""
    role = role_of(user)
    if role == ADMIN:
        return True
    return role == COACH and stage.coach_id == user.pk


def is_stage_shadow(user: AnyUser, stage: Stage) -> bool:
    """Joined the stage's room to shadow it (`stage_shadow_join`): sees, never acts."""
    return (
        bool(user.is_authenticated) and StageShadow.objects.filter(stage=stage, user=user).exists()
    )


def stage_is_visible_to(user: AnyUser | None, stage: Stage) -> bool:
    """Whether `stages_visible_to(user)` holds this stage: admins see every stage, the
    candidate their own, a coach the stages assigned to them (and those they shadow).
    The row form of the queryset, for a stage already loaded; a test pins that the two
    agree."""
    if user is None or not user.is_authenticated:
        return False
    if is_admin(user):
        return True
    if stage.loop.candidate_id == user.pk or stage.coach_id == user.pk:
        return True
    return is_stage_shadow(user, stage)


def can_shadow(user: AnyUser) -> bool:
    """Who may shadow a live interview: coaches (learning from, or calibrating with, a
    colleague) and admins; never a candidate."""
    return is_coach_or_admin(user)


def can_drive_stage(user: AnyUser, stage: Stage) -> bool:
    """May start and finish the stage's clock."""
    return is_stage_owner(user, stage) or can_act_as_coach(user, stage)


def can_see_private(user: AnyUser, stage: Stage) -> bool:
    """Private events, coach notes and scorecard private notes."""
    return can_act_as_coach(user, stage)


def can_see_review_score(user: AnyUser, stage: Stage) -> bool:
    """The owner only once the stage is done (the score reveals the planted flaws)."""
    return can_act_as_coach(user, stage) or stage.status == Stage.Status.DONE


def can_use_coach_queue(user: AnyUser) -> bool:
    return is_coach_or_admin(user)


# --- a coached stage's state ----------------------------------------------------------


def stage_waits_for_coach(stage: Stage) -> bool:
    """In the coach queue: a coached live round nobody has claimed. Its clock waits for a
    coach (DESIGN.md "Live stages")."""
    return stage.coach_requested and stage.coach_id is None


def stage_went_solo(stage: Stage) -> bool:
    """A live round of a coached loop that its candidate took out of the queue to run with
    the scripted interviewer (`start` with `solo`): no coach may claim it any more."""
    return (
        stage.loop.coached
        and stage.is_live_kind
        and not stage.coach_requested
        and stage.coach_id is None
    )


# --- visible rows ---------------------------------------------------------------------


def stages_visible_to(user: AnyUser) -> QuerySet[Stage]:
    if not user.is_authenticated:
        return Stage.objects.none()
    if is_admin(user):
        return Stage.objects.all()
    shadowing = StageShadow.objects.filter(stage=OuterRef("pk"), user=user)
    return Stage.objects.filter(Q(loop__candidate=user) | Q(coach=user) | Exists(shadowing))


def loops_visible_to(user: AnyUser) -> QuerySet[Loop]:
    """Loops with the stages the user may see prefetched (a coach sees only the stages
    assigned to them, even inside a loop they can open)."""
    if not user.is_authenticated:
        return Loop.objects.none()
    if is_admin(user):
        loops = Loop.objects.all()
    else:
        visible_loop_ids = stages_visible_to(user).values("loop_id")
        loops = Loop.objects.filter(Q(candidate=user) | Q(pk__in=visible_loop_ids))
    submitted = Scorecard.objects.filter(stage=OuterRef("pk"), draft=False)
    return loops.select_related("template", "candidate").prefetch_related(
        Prefetch(
            "stages",
            queryset=stages_visible_to(user)
            .select_related("coach")
            .annotate(scorecard_submitted=Exists(submitted))
            .order_by("position"),
            to_attr="visible_stages",
        )
    )


def submissions_visible_to(user: AnyUser) -> QuerySet[Submission]:
    return Submission.objects.filter(stage__in=stages_visible_to(user))
