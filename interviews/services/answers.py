"""Answers: the candidate's text, design notes and whiteboard scene, one per question."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate
from interviews.models import Answer, Question, Stage, StageQuestion
from interviews.realtime.events import emit

from .errors import InvalidInput, StateConflict
from .live import stage_on_answer_saved


@transaction.atomic
def answer_save(
    *,
    stage: Stage,
    actor: AbstractBaseUser,
    question: Question | None = None,
    text: str | None = None,
    notes: dict[str, Any] | None = None,
    scene: dict[str, Any] | None = None,
) -> Answer:
    """Create or update the stage's answer for `question` (None: the stage-wide answer).
    Only the fields given change, so autosaving the whiteboard keeps the notes.

    Checks that need no lock come first: every autosave of a stage queues on its row lock
    (which numbers the stage's events), so the less done under it, the more saves a room
    takes per second. Only the fields given are written: a text autosave does not rewrite
    a large whiteboard scene."""
    access_stage_as_candidate(actor, stage, refusal=_("Only the stage's candidate saves answers."))
    changes = {
        name: value
        for name, value in (("text", text), ("notes", notes), ("scene", scene))
        if value is not None
    }
    if not changes:
        raise InvalidInput(
            errors={"non_field_errors": [_("Give at least one of text, notes, scene.")]}
        )
    if (
        question is not None
        and not StageQuestion.objects.filter(stage_id=stage.pk, question=question).exists()
    ):
        raise InvalidInput(errors={"question": [_("Not a question of this stage.")]})
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(
            _("Answers can be saved only while the stage is live."), code="stage_not_live"
        )
    answer = Answer.objects.filter(stage=stage, question=question).first()
    if answer is None:
        answer = Answer(stage=stage, question=question, **changes)
        answer.save()
    else:
        for name, value in changes.items():
            setattr(answer, name, value)
        answer.save(update_fields=[*changes, "updated_at"])
    emit(
        stage,
        "answer.saved",
        {"id": answer.pk, "question": answer.question_id, "fields": sorted(changes)},
        actor=actor,
    )
    stage_on_answer_saved(stage=stage, question_id=answer.question_id)
    return answer
