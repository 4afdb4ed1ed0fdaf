"""Stages: the clock (start, finish) and a coach claiming a stage from the queue.

A coached loop's live rounds are in the coach queue from the loop's start
(`loop_start`); their clock waits for the coach (`access_stage_start`), unless the
candidate continues solo, which takes the stage out of the queue."""

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.access import (
    access_stage_as_coach,
    access_stage_claim,
    access_stage_clock,
    access_stage_shadow,
    access_stage_start,
)
from interviews.models import Booking, Loop, Stage, StageShadow
from interviews.realtime.events import emit
from interviews.roles import COACH, role_of

from .booking_mail import booking_mail_send
from .errors import InvalidInput, StateConflict
from .recording_state import recordings_end_with_stage
from .submissions import stage_submit_latest_code


def _locked(stage: Stage) -> Stage:
    return Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)


def isoformat_or_none(value) -> str | None:
    """A datetime as event payloads carry it (ISO 8601), or None."""
    return value.isoformat() if value else None


def stage_status_payload(stage: Stage, reason: str) -> dict:
    """The `stage.status` event payload: the same keys whatever changed the status
    (`reason`: start, finish or deadline)."""
    return {
        "status": stage.status,
        "reason": reason,
        "started_at": isoformat_or_none(stage.started_at),
        "deadline": isoformat_or_none(stage.deadline),
        "finished_at": isoformat_or_none(stage.finished_at),
        "coach_requested": stage.coach_requested,
    }


@transaction.atomic
def stage_start(
    *, stage: Stage, actor: AbstractBaseUser, solo: bool = False, now: datetime | None = None
) -> Stage:
    """Start the stage's clock: live, deadline = now + minutes. Stages may be started in
    any order, but at most one stage of a loop is live at a time. A coached stage waits
    for its coach; `solo` (the candidate's choice while none has claimed it, or once the
    booked coach has not come) takes it out of the queue and runs it with the scripted
    interviewer.
    """
    # Lock the loop first: concurrent starts of two stages of one loop serialise here.
    Loop.objects.select_for_update().filter(pk=stage.loop_id).first()
    stage = _locked(stage)
    access_stage_start(actor, stage, solo=solo, now=now)
    if stage.status == Stage.Status.LIVE:
        raise StateConflict(_("This stage is already live."), code="stage_already_live")
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    other_live = (
        Stage.objects.filter(loop_id=stage.loop_id, status=Stage.Status.LIVE)
        .exclude(pk=stage.pk)
        .first()
    )
    if other_live is not None:
        raise StateConflict(
            _("Another stage of this loop is live (%(stage)s); finish it first.")
            % {"stage": other_live.title},
            errors={"live_stage": other_live.pk},
            code="other_stage_live",
        )
    now = now or timezone.now()
    stage.status = Stage.Status.LIVE
    stage.started_at = now
    stage.deadline = now + timedelta(minutes=stage.minutes)
    stage.paused_remaining_ms = None
    missed_coach = stage.coach if solo and stage.coach_id is not None else None
    if solo:
        stage.coach_requested = False
        stage.coach = None
    stage.save(
        update_fields=[
            "status",
            "started_at",
            "deadline",
            "paused_remaining_ms",
            "coach_requested",
            "coach",
        ]
    )
    if missed_coach is not None:
        # The booked coach did not come (access_stage_start allowed solo): the session is
        # missed and the coach's sockets lose the room, as after a release.
        Booking.objects.filter(stage=stage, status=Booking.Status.BOOKED).update(
            status=Booking.Status.MISSED
        )
        emit(stage, "stage.released", {"coach": missed_coach.get_username()}, actor=actor)
    emit(stage, "stage.status", stage_status_payload(stage, "start"), actor=actor)
    return stage


@transaction.atomic
def stage_finish(*, stage: Stage, actor: AbstractBaseUser) -> Stage:
    """End the stage now; the latest unsubmitted code of each coding question is
    submitted for judging, as at the deadline."""
    stage = _locked(stage)
    access_stage_clock(
        actor, stage, refusal=_("Only the candidate, the stage's coach or an admin finish a stage.")
    )
    if stage.status == Stage.Status.PENDING:
        raise StateConflict(_("This stage has not started."), code="stage_not_started")
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is already finished."), code="stage_finished")
    stage.status = Stage.Status.DONE
    stage.finished_at = timezone.now()
    stage.paused_remaining_ms = None
    stage.save(update_fields=["status", "finished_at", "paused_remaining_ms"])
    emit(stage, "stage.status", stage_status_payload(stage, "finish"), actor=actor)
    stage_submit_latest_code(stage)  # as the deadline does: finishing early loses nothing
    recordings_end_with_stage(stage, actor=actor)
    return stage


@transaction.atomic
def stage_release(*, stage: Stage, actor: AbstractBaseUser) -> Stage:
    """Its coach (or an admin) gives a stage that has not finished back to the coach
    queue; another coach may claim it. The old coach's room sockets lose access."""
    stage = _locked(stage)
    access_stage_as_coach(
        actor, stage, refusal=_("Only the stage's coach or an admin releases the stage.")
    )
    if stage.coach_id is None:
        raise StateConflict(_("Nobody has claimed this stage."), code="stage_not_claimed")
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    previous = stage.coach.get_username()
    stage.coach = None
    stage.coach_requested = True
    stage.save(update_fields=["coach", "coach_requested"])
    _booking_follows_coach(stage, to=None)
    emit(stage, "stage.released", {"coach": previous}, actor=actor)
    return stage


@transaction.atomic
def stage_hand_over(*, stage: Stage, actor: AbstractBaseUser, to: AbstractBaseUser) -> Stage:
    """Its coach (or an admin) hands a stage to another coach, who has it as if claimed."""
    stage = _locked(stage)
    access_stage_as_coach(
        actor, stage, refusal=_("Only the stage's coach or an admin hands the stage over.")
    )
    if role_of(to) != COACH:
        raise InvalidInput(errors={"coach": [_("Hand the stage to a coach.")]})
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    if stage.coach_id == to.pk:
        return stage
    stage.coach = to
    stage.coach_requested = True
    stage.save(update_fields=["coach", "coach_requested"])
    _booking_follows_coach(stage, to=to)
    emit(stage, "stage.claimed", {"coach": to.get_username()}, actor=actor)
    return stage


def _booking_follows_coach(stage: Stage, *, to: AbstractBaseUser | None) -> None:
    """A booked session goes where its stage's coach goes: released, it is cancelled (the
    slot stays the old coach's; both sides get a METHOD:CANCEL); handed over, the new
    coach has it at the same time (same calendar UID, SEQUENCE + 1, both mailed). Without
    this the booking kept the old coach, who no longer had the stage."""
    booking = (
        Booking.objects.select_for_update()
        .select_related("stage", "candidate", "coach", "slot")
        .filter(stage=stage, status=Booking.Status.BOOKED)
        .first()
    )
    if booking is None:
        return
    booking.sequence += 1
    if to is None:
        booking.status = Booking.Status.CANCELLED
        kind = "cancelled"
    else:
        booking.coach = to
        booking.reminded_at = None
        kind = "rescheduled"
    booking.save(update_fields=["status", "coach", "sequence", "reminded_at", "updated_at"])
    transaction.on_commit(lambda: booking_mail_send(booking, kind))


@transaction.atomic
def stage_claim(*, stage: Stage, coach: AbstractBaseUser) -> Stage:
    """Assign the stage to the calling coach, pending or live. Claiming one's own stage
    again is a no-op."""
    stage = _locked(stage)
    access_stage_claim(coach, stage)
    if stage.coach_id == coach.pk:
        return stage
    stage.coach = coach
    stage.save(update_fields=["coach"])
    emit(stage, "stage.claimed", {"coach": coach.get_username()}, actor=coach)
    return stage


def stage_shadow_join(*, stage: Stage, actor: AbstractBaseUser) -> StageShadow:
    """Let a coach or admin into the stage's room as a shadow (again: a no-op). The room
    sees them in its presence as they connect; they receive the call and send nothing."""
    access_stage_shadow(actor, stage)
    shadow, _ = StageShadow.objects.get_or_create(stage=stage, user=actor)
    return shadow
