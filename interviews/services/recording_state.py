"""A recording's end, below the recording services so the stage's own services can end its
recordings when the stage ends (services/recordings.py imports services/live.py, which
imports services/stages.py: they cannot import the recording services back)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from interviews.models import Recording, Stage
from interviews.realtime.events import emit

ACTIVE = (Recording.Status.PROPOSED, Recording.Status.RECORDING)


def recording_stopped_emit(
    recording: Recording, *, reason: str, actor: AbstractBaseUser | None
) -> None:
    emit(
        recording.stage,
        "recording.stopped",
        {"id": recording.pk, "kind": recording.kind, "reason": reason},
        actor=actor,
    )


def recordings_end_with_stage(stage: Stage, *, actor: AbstractBaseUser | None = None) -> int:
    """A finished stage records nothing more: its running recordings stop and its open
    proposals are withdrawn, even if the browser that recorded is gone (it would otherwise
    stay `recording` for good). Chunks still in flight are accepted for a short while after
    a stop (services/recordings.py). Returns how many ended."""
    ended = 0
    for recording in Recording.objects.select_for_update().filter(stage=stage, status__in=ACTIVE):
        recording.status = Recording.Status.STOPPED
        recording.stopped_at = timezone.now()
        recording.save(update_fields=["status", "stopped_at"])
        recording_stopped_emit(recording, reason="stage_finished", actor=actor)
        ended += 1
    return ended
