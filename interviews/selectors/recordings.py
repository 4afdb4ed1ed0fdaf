"""Recordings as a viewer may see them: those of the stages the viewer may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from interviews.models import Recording, Stage
from interviews.selectors.access import stages_visible_to
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


def recordings_of(stage: Stage) -> QuerySet[Recording]:
    """The stage's recordings, oldest first (declined proposals left out: no audio)."""
    return Recording.objects.filter(stage=stage).exclude(status=Recording.Status.DECLINED)


def recording_for(user: AnyUser, recording_id: int) -> Recording:
    """A recording of a stage the user may see (with its stage and loop), else NotFound."""
    recording = (
        Recording.objects.select_related("stage", "stage__loop", "stage__coach")
        .filter(pk=recording_id, stage__in=stages_visible_to(user))
        .first()
    )
    if recording is None:
        raise NotFound(_("Recording not found."))
    return recording
