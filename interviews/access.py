"""Who may do what to a loop or stage: every authorisation check, in one module.

The chain is zulip's check → access → do (`zerver/actions/reactions.py`): a service that
takes an actor (`stage_start(stage=..., actor=...)`) first calls an `access_*` function
here, then does the work. A check about seeing (`access_stage`, the read checks) raises
`NotFound`, as hidden and absent look alike; a check about doing raises `NotAllowed`
(`access_stage_as_coach`: only the stage's coach or an admin), whoever the actor is. The
API looks the stage up as the caller may see it first (`selectors.stage_for`), so a
stranger still gets 404 there, and a coach or candidate who may see it a 403.

API views, the websocket consumer, beat tasks and the admin call the same services, so
they get the same rule; views only parse, call and serialise. Reads that a view serves
straight from a selector (the scorecard, the review score) call the `access_*` read
checks here before they read.

The rules are the visibility selectors' (`stages_visible_to` and the `can_*` predicates
in `interviews.selectors.access`): the querysets there decide what lists show, the checks here
decide one object already loaded. `stage_is_visible_to` (kept beside the selector, so the
stage detail's selector uses it too) is the row form of `stages_visible_to`; a test pins
that the two agree.

An actor of None is the system (the scripted interviewer, the deadline): services that
allow it say so and skip the check.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.models import Booking, CoachSlot, Stage
from interviews.roles import CANDIDATE, COACH, role_of
from interviews.selectors.access import (
    can_act_as_coach,
    can_drive_stage,
    can_see_private,
    can_see_review_score,
    can_shadow,
    can_use_coach_queue,
    is_admin,
    is_stage_owner,
    stage_is_visible_to,
    stage_waits_for_coach,
    stage_went_solo,
)
from interviews.selectors.scheduling import booking_coach_missed, stage_active_booking
from interviews.services.errors import NotAllowed, NotFound, StateConflict
from interviews.stage_kinds import stage_kind_get

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser


def access_stage(user: AnyUser | None, stage: Stage) -> Stage:
    """The stage, if the user may see it; else NotFound (as if it did not exist)."""
    if not stage_is_visible_to(user, stage):
        raise NotFound(_("Stage not found."))
    return stage


def access_stage_as_candidate(user: AnyUser | None, stage: Stage, *, refusal: str) -> Stage:
    """Only the stage's own candidate (answers, review comments, documents, integrity
    signals): a coach watches, never types. `refusal` is the whole translated sentence
    ("Only the stage's candidate submits code."): translators see sentences, not pieces."""
    if user is None or not is_stage_owner(user, stage):
        raise NotAllowed(refusal)
    return stage


def access_stage_document_edit(user: AnyUser | None, stage: Stage, *, name: str) -> Stage:
    """The candidate edits every shared document of their stage; the stage's coach (or an
    admin) draws on its whiteboards (`scene:` documents) too, and types in none of the
    others: the code and the design notes are the candidate's answer."""
    if isinstance(name, str) and name.startswith("scene:") and can_act_as_coach(user, stage):
        return stage
    return access_stage_as_candidate(
        user, stage, refusal=_("Only the stage's candidate edits the stage's documents.")
    )


def access_stage_as_coach(user: AnyUser | None, stage: Stage, *, refusal: str) -> Stage:
    """Only the stage's assigned coach or an admin (follow-ups, notes, scorecards, the
    clock controls, review-match rulings)."""
    if not can_act_as_coach(user, stage):
        raise NotAllowed(refusal)
    return stage


def access_stage_clock(user: AnyUser | None, stage: Stage, *, refusal: str) -> Stage:
    """Starting and finishing: the candidate, the stage's coach or an admin."""
    if user is None or not can_drive_stage(user, stage):
        raise NotAllowed(refusal)
    return stage


def access_stage_start(
    user: AnyUser | None, stage: Stage, *, solo: bool = False, now: datetime | None = None
) -> Stage:
    """Starting the clock (DESIGN.md "Live stages"): a coached stage's clock waits for its
    coach. Its coach or an admin may start it at any time; its candidate once a coach has
    claimed it, or without one by choosing `solo` (only the candidate chooses that, and
    only while no coach has claimed it). A booked stage: its candidate not before the booked
    time, and solo despite the claim once the coach has missed it (`booking_coach_missed`)."""
    access_stage_clock(
        user, stage, refusal=_("Only the candidate, the stage's coach or an admin start the clock.")
    )
    if solo and not is_stage_owner(user, stage):
        raise NotAllowed(_("Only the stage's candidate chooses to continue solo."))
    booking = stage_active_booking(stage) if stage.coach_id is not None else None
    if booking is not None and not can_act_as_coach(user, stage):
        now = now or timezone.now()
        if now < booking.starts_at:
            raise StateConflict(
                _(
                    "This stage is booked: its clock starts at the booked time, or when your "
                    "coach starts it."
                ),
                errors={"starts_at": booking.starts_at.isoformat()},
                code="booking_not_started",
            )
        if solo and booking_coach_missed(booking, stage, now):
            return stage
    if solo and stage.coach_id is not None:
        raise StateConflict(
            _("A coach has claimed this stage; start it together with your coach."),
            code="coach_claimed",
        )
    if stage_waits_for_coach(stage) and not solo and not is_admin(user):
        raise StateConflict(
            _(
                "No coach has claimed this stage yet: wait for your coach, or continue solo "
                "(the scripted interviewer takes over)."
            ),
            code="coach_not_claimed",
        )
    return stage


def access_loop_start(user: AnyUser | None) -> None:
    """Loops are the candidates' own: coaches and admins do not start them."""
    if role_of(user) != CANDIDATE:
        raise NotAllowed(_("Only candidates start loops."))


def access_plan_follow(user: AnyUser | None) -> None:
    """Study plans lead to practice loops, which are the candidates' own."""
    if role_of(user) != CANDIDATE:
        raise NotAllowed(_("Only candidates follow study plans."), code="plan_candidates_only")


def access_coach_queue(user: AnyUser | None) -> None:
    if not can_use_coach_queue(user):
        raise NotAllowed(_("Only coaches and admins see the coach queue."))


def access_stage_claim(user: AnyUser | None, stage: Stage) -> Stage:
    """Who may claim (coaches and admins), and which stages: one in the queue, or one the
    caller has already (a no-op). Taken, finished, solo or never put up → 409."""
    if not can_use_coach_queue(user):
        raise NotAllowed(_("Only coaches claim stages."))
    if stage.coach_id == user.pk:
        return stage
    if stage.coach_id is not None:
        raise StateConflict(_("Another coach has already claimed this stage."), code="stage_taken")
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    if stage_went_solo(stage):
        raise StateConflict(
            _("The candidate continued this stage solo, with the scripted interviewer."),
            code="stage_solo",
        )
    if not stage.coach_requested:
        raise StateConflict(_("This stage did not ask for a coach."), code="coach_not_requested")
    return stage


def access_stage_shadow(user: AnyUser | None, stage: Stage) -> Stage:
    """Joining a stage's live room as a shadow: coaches and admins (`can_shadow`), on a
    coached stage (one with a coach, or waiting for one) that is not finished. Anyone else
    — a candidate of another loop included — is told it does not exist (404); the stage's
    own coach and candidate are in the room already."""
    if user is None or not user.is_authenticated:
        raise NotFound(_("Stage not found."))
    if stage.coach_id == user.pk or stage.loop.candidate_id == user.pk:
        raise StateConflict(_("You are in this interview already."), code="shadow_own_stage")
    if not can_shadow(user):
        raise NotFound(_("Stage not found."))
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    if stage.coach_id is None and not stage.coach_requested:
        raise StateConflict(
            _("This stage has no coach: there is no interview to shadow."), code="stage_not_coached"
        )
    return stage


def access_call_relay(user: AnyUser | None) -> None:
    """The call relay (TURN) is for signed-in, active users: its credentials name them."""
    if user is None or not user.is_authenticated or not user.is_active:
        raise NotAllowed(_("Sign in to join a call."))


def access_review_score(user: AnyUser | None, stage: Stage) -> Stage:
    """The score reveals the planted flaws: the candidate sees it once the stage is done."""
    access_stage(user, stage)
    if not can_see_review_score(user, stage):
        raise StateConflict(
            _("The review score is shown once the stage is finished."), code="stage_not_finished"
        )
    return stage


def access_deep_dive_feedback(user: AnyUser | None, stage: Stage) -> Stage:
    access_stage(user, stage)
    spec = stage_kind_get(stage.kind)
    if spec is None or not spec.deep_dive_feedback:
        raise NotFound(_("This stage is not a project deep dive."))
    if not (can_act_as_coach(user, stage) or stage.status == Stage.Status.DONE):
        raise StateConflict(
            _("Deep-dive feedback is shown once the stage is finished."), code="stage_not_finished"
        )
    return stage


def access_scorecard(user: AnyUser | None, stage: Stage) -> Literal["coach", "candidate"]:
    """Which view of the stage's scorecard the user gets: the coach's (private notes
    included) for its coach and admins, the candidate's once the stage is finished."""
    access_stage(user, stage)
    if can_see_private(user, stage):
        return "coach"
    if stage.status != Stage.Status.DONE:
        raise StateConflict(
            _("The scorecard is shown once the stage is finished."), code="stage_not_finished"
        )
    return "candidate"


def access_model_answers(user: AnyUser | None, stage: Stage) -> Stage:
    """What a strong answer covers, the reference solution and the flaw key: the coach
    and admins at any time; the candidate only once the stage is done, never before."""
    access_stage(user, stage)
    if not (can_act_as_coach(user, stage) or stage.status == Stage.Status.DONE):
        raise StateConflict(
            _("Model answers are shown once the stage is finished."), code="stage_not_finished"
        )
    return stage


# --- scheduling -----------------------------------------------------------------------


def access_slot_publish(user: AnyUser | None) -> None:
    """Availability is a coach's own: admins and candidates do not publish slots."""
    if role_of(user) != COACH:
        raise NotAllowed(_("Only coaches publish availability."))


def access_slot_edit(user: AnyUser | None, slot: CoachSlot) -> CoachSlot:
    """A slot is changed or withdrawn by its coach (or an admin)."""
    if user is None or not (slot.coach_id == user.pk or is_admin(user)):
        raise NotAllowed(_("Only the slot's coach or an admin changes it."))
    return slot


def access_booking_create(user: AnyUser | None, stage: Stage) -> Stage:
    """Only the loop's candidate books a session for one of its stages."""
    if user is None or not is_stage_owner(user, stage):
        raise NotAllowed(_("Only the loop's candidate books a session for its stages."))
    return stage


def access_booking_change(user: AnyUser | None, booking: Booking, *, refusal: str) -> Booking:
    """Cancel and reschedule: the booking's candidate, its coach, or an admin."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(refusal)
    if user.pk in (booking.candidate_id, booking.coach_id) or is_admin(user):
        return booking
    raise NotAllowed(refusal)


def access_recording_consent(user: AnyUser | None, stage: Stage, *, refusal: str) -> Stage:
    """Recording a round's call: only its participants who speak in it — the candidate, the
    stage's coach or an admin — propose, agree, decline or stop (a stranger gets 404)."""
    access_stage(user, stage)
    if user is None or not can_drive_stage(user, stage):
        raise NotAllowed(refusal)
    return stage


def access_recording_audio(user: AnyUser | None, stage: Stage) -> Stage:
    """A recording plays for whoever may see its stage: the loop's candidate, the stage's
    coach and admins; never another candidate (404, as if it did not exist)."""
    return access_stage(user, stage)


def access_own_account(user: AnyUser | None, account: AnyUser, *, refusal: str) -> None:
    """Settings, password, export and deletion: a person's own account only (an admin acts
    on others in the Django admin). `refusal`: e.g. "You may export only your own account."."""
    if user is None or not user.is_authenticated or user.pk != account.pk:
        raise NotAllowed(refusal, code="not_own_account")
