"""Answers: the candidate's text, design notes and whiteboard scene, one per question."""

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate
from interviews.models import Answer, Question, Stage, StageQuestion
from interviews.realtime.events import emit

from .errors import InvalidInput, StateConflict
from .live import stage_on_answer_saved


def answer_save(
    *,
    stage: Stage,
    actor: AbstractBaseUser,
    question: Question | None = None,
    question_id: int | None = None,
    text: str | None = None,
    notes: dict[str, Any] | None = None,
    scene: dict[str, Any] | None = None,
) -> Answer:
    """Create or update the stage's answer for `question` (or `question_id`; neither: the
    stage-wide answer). Only the fields given change, so autosaving the whiteboard keeps
    the notes.

    Checks that need no lock come first: every autosave of a stage queues on its row lock
    (which numbers the stage's events), so the less done under it, the more saves a room
    takes per second. Only the fields given are written: a text autosave does not rewrite
    a large whiteboard scene. Autosaves of one answer that arrive while an earlier one is
    being written are merged into the next write (`AnswerWrites`)."""
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
    if question is not None:
        question_id = question.pk
    if (
        question_id is not None
        and not StageQuestion.objects.filter(stage_id=stage.pk, question_id=question_id).exists()
    ):
        raise InvalidInput(errors={"question": [_("Not a question of this stage.")]})
    if transaction.get_connection().in_atomic_block:
        # Inside a caller's transaction another thread may not see (nor wait for) our
        # write: no merging there.
        return _answer_write(stage=stage, actor=actor, question_id=question_id, changes=changes)
    return _writes.save(stage=stage, actor=actor, question_id=question_id, changes=changes)


@transaction.atomic
def _answer_write(
    *, stage: Stage, actor: AbstractBaseUser, question_id: int | None, changes: dict[str, Any]
) -> Answer:
    """One write of an answer under the stage's lock, and its `answer.saved` event."""
    status = Stage.objects.select_for_update().filter(pk=stage.pk).values_list("status", flat=True)
    if next(iter(status), None) != Stage.Status.LIVE:
        raise StateConflict(
            _("Answers can be saved only while the stage is live."), code="stage_not_live"
        )
    answer = Answer.objects.filter(stage_id=stage.pk, question_id=question_id).first()
    if answer is None:
        answer = Answer(stage=stage, question_id=question_id, **changes)
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


@dataclass
class _Round:
    """The changes of the autosaves that one write takes, and how it ended."""

    changes: dict[str, Any] = field(default_factory=dict)
    done: bool = False
    answer: Answer | None = None
    error: BaseException | None = None


@dataclass
class _Slot:
    """The autosaves of one answer in this process: the round collecting changes, and
    whether a write is under way."""

    cond: threading.Condition = field(default_factory=threading.Condition)
    collecting: _Round | None = None
    writing: bool = False


class AnswerWrites:
    """Merges autosaves of one answer that arrive faster than they can be written.

    A save adds its fields to the round collecting changes (a later save's field wins: last
    write wins, in arrival order) and waits for that round's write: the first save to find
    no write under way takes the round and writes it, everyone in it gets its outcome. So
    a save never returns before its fields are committed, and a burst of N saves costs
    about two writes, not N queued on the stage's lock. Per web process (its request
    threads); saves through other processes queue on the lock as before.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._slots: weakref.WeakValueDictionary[tuple[int, int | None], _Slot] = (
            weakref.WeakValueDictionary()
        )

    def save(
        self,
        *,
        stage: Stage,
        actor: AbstractBaseUser,
        question_id: int | None,
        changes: dict[str, Any],
    ) -> Answer:
        with self._lock:
            slot = self._slots.get((stage.pk, question_id))
            if slot is None:
                slot = self._slots[(stage.pk, question_id)] = _Slot()
        with slot.cond:
            if slot.collecting is None:
                slot.collecting = _Round()
            mine = slot.collecting
            mine.changes.update(changes)
            while not mine.done and slot.writing:
                slot.cond.wait()
            if not mine.done:  # no write under way: ours is the round collecting; take it
                slot.writing, slot.collecting = True, None
        if not mine.done:
            try:
                mine.answer = _answer_write(
                    stage=stage, actor=actor, question_id=question_id, changes=mine.changes
                )
            except BaseException as exc:
                mine.error = exc
            with slot.cond:
                mine.done, slot.writing = True, False
                slot.cond.notify_all()
        if mine.error is not None:
            raise mine.error
        return mine.answer


_writes = AnswerWrites()
