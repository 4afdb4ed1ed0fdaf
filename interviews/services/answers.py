"""Answers: the candidate's text, design notes and whiteboard scene, one per question."""

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate
from interviews.models import Answer, Question, Stage, StageQuestion
from interviews.realtime.events import emit
from interviews.selectors.compiled import instance_from_columns

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

    A typing candidate autosaves about once a second, so this is one of the two requests
    the web serves most (issue #15). Every autosave of a stage queues on its row lock
    (which numbers the stage's events; on SQLite, the database's write lock), so only the
    write itself is done under it: the status check, one UPDATE of the given fields that
    returns the answer, and the event. The scripted interviewer's look at the answer comes
    after the commit. Autosaves of one answer that arrive while an earlier one is being
    written are merged into the next write (`AnswerWrites`)."""
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
    if transaction.get_connection().in_atomic_block:
        # Inside a caller's transaction another thread may not see (nor wait for) our
        # write: no merging there.
        return _answer_write(stage=stage, actor=actor, question_id=question_id, changes=changes)
    return _writes.save(stage=stage, actor=actor, question_id=question_id, changes=changes)


def _answer_write(
    *, stage: Stage, actor: AbstractBaseUser, question_id: int | None, changes: dict[str, Any]
) -> Answer:
    """One write of an answer under the stage's lock and its `answer.saved` event; then,
    committed, the scripted interviewer's turn."""
    with transaction.atomic():
        _stage_lock_live(stage.pk)
        answer = _answer_update(stage_id=stage.pk, question_id=question_id, changes=changes)
        if answer is None:  # the first save: an answer row exists only for a stage question
            if (
                question_id is not None
                and not StageQuestion.objects.filter(
                    stage_id=stage.pk, question_id=question_id
                ).exists()
            ):
                raise InvalidInput(errors={"question": [_("Not a question of this stage.")]})
            answer = Answer.objects.create(stage_id=stage.pk, question_id=question_id, **changes)
        emit(
            stage,
            "answer.saved",
            {"id": answer.pk, "question": question_id, "fields": sorted(changes)},
            actor=actor,
        )
    stage_on_answer_saved(stage=stage, question_id=question_id, answer=answer)
    return answer


def _stage_lock_live(stage_id: int) -> None:
    """Lock the stage's row (PostgreSQL; SQLite's transaction holds the write lock
    already) and refuse unless it is live: a stage that finished, by Finish or at its
    deadline (which locks the row too), takes no more answers."""
    sql = f"SELECT {_q('status')} FROM {_q(Stage._meta.db_table)} WHERE {_q('id')} = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, [stage_id])
        row = cursor.fetchone()
    if row is None or row[0] != Stage.Status.LIVE:
        raise StateConflict(
            _("Answers can be saved only while the stage is live."), code="stage_not_live"
        )


def _answer_update(
    *, stage_id: int, question_id: int | None, changes: dict[str, Any]
) -> Answer | None:
    """Write the given fields of the answer in one UPDATE that returns the row, without
    reading it first (None: there is no answer yet). Plain SQL, as the hot path of
    autosaving: the ORM's read, then write, cost more CPU than the rest of the save."""
    now = timezone.now()
    fields = {name: Answer._meta.get_field(name) for name in (*changes, "updated_at")}
    values = {**changes, "updated_at": now}
    assignments = ", ".join(f"{_q(field.column)} = %s" for field in fields.values())
    params = [field.get_db_prep_save(values[name], connection) for name, field in fields.items()]
    where = f"{_q('stage_id')} = %s AND {_q('question_id')} "
    params.append(stage_id)
    if question_id is None:
        where += "IS NULL"
    else:
        where += "= %s"
        params.append(question_id)
    returned = ", ".join(_q(name) for name in ("id", "text", "notes", "scene"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_q(Answer._meta.db_table)} SET {assignments} WHERE {where}"
            f" RETURNING {returned}",
            params,
        )
        row = cursor.fetchone()
    if row is None:
        return None
    pk, text, notes, scene = row
    decode = Answer._meta.get_field("notes").from_db_value
    return instance_from_columns(
        Answer,
        {
            "id": pk,
            "stage_id": stage_id,
            "question_id": question_id,
            "text": text,
            "notes": decode(notes, None, connection),
            "scene": decode(scene, None, connection),
            "updated_at": now,
        },
    )


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


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
    about two writes, not N queued on the stage's lock. Per web process (Django's ASGI
    handler runs each request in a thread of its own); saves through other processes queue
    on the lock. Idle, it costs a dictionary lookup and an uncontended lock.
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
            waits = slot.writing
        if waits:
            # A save waiting for another's write holds no database connection: on
            # PostgreSQL a web process has a pool of only DB_POOL_MAX_SIZE, and waiting
            # saves holding them all would stall every other request of the process.
            connection.close()
        with slot.cond:
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
