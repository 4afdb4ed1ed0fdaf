"""Coach notes: private to the stage's coach and admins, never shown to the candidate."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_coach
from interviews.models import CoachNote, Stage
from interviews.realtime.events import emit

from .errors import InvalidInput


@transaction.atomic
def coach_note_create(*, stage: Stage, author: AbstractBaseUser, text: str) -> CoachNote:
    access_stage_as_coach(
        author, stage, refusal=_("Only the stage's coach or an admin writes coach notes.")
    )
    if not text.strip():
        raise InvalidInput(errors={"text": [_("This field may not be blank.")]})
    note = CoachNote.objects.create(stage=stage, author=author, text=text)
    emit(stage, "note", {"id": note.pk, "text": note.text}, actor=author, private=True)
    return note
