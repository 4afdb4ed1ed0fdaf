"""Relay first, log in batches: the live rooms' edit log.

A room's edits (`doc.update`) are relayed to its other sockets the moment they arrive
(`doc.relay`, consumers.py) and written to the stage's event log here, per web process:
every room's pending edits are written together ROOM_LOG_FLUSH_MS after the first one
came (sooner when a room has BATCH_EDITS waiting) — one transaction whose few statements
number every room's edits consecutively and insert them (`events.emit_many_stages`; a room
at a time in savepoints if that fails) — and broadcast as ordinary `doc.update` events
with their `seq`. A socket's edits are also written when it leaves and when its stage's
status changes. One write per window instead of one per keystroke, and none of it on the
path between the typist and the viewers.

Nothing is lost: an edit's sender gets `doc.saved` with its `ref` once it is logged, and
its client keeps every edit not yet acknowledged and sends it again after a reconnect
(sharedDocs.ts); a crash loses at most one window of the log, never an edit the client
believes saved. Viewers that applied a relayed edit get it again from the log (Yjs ignores
the repeat), so replay and resync converge on what the room saw.

Beyond capacity (writes slower than edits arrive) the window's batches only grow, and a
room with more than COALESCE_AT edits waiting has them merged per author and document
(Yjs updates merge without loss): memory stays bounded by the rooms' documents, never by
the backlog. Flushes run one at a time per process, so the log's order is the arrival order.
"""

import asyncio
import base64
import contextlib
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy
from pycrdt import merge_updates

from interviews.models import Stage, StageEvent
from interviews.selectors.stages import stages_for_edit_log
from interviews.services import documents, live
from interviews.services.documents import CheckedEdit
from interviews.services.errors import DomainError, NotFound

from .roomdb import room_db

logger = logging.getLogger(__name__)

#: A room's batch is written at once when this many edits wait.
BATCH_EDITS = 50
#: A room's waiting edits are merged per (author, document) past this many.
COALESCE_AT = 200


class EditSender(Protocol):
    """The socket an edit came from (StageConsumer), told how its edits ended."""

    async def edits_saved(self, refs: list[Any], seq: int) -> None: ...

    async def edits_refused(self, refs: list[Any], error: DomainError) -> None: ...


@dataclass
class PendingEdit:
    actor: Any
    edit: CheckedEdit
    sender: "weakref.ref[EditSender] | None" = None
    refs: list[Any] = field(default_factory=list)


def flush_seconds() -> float:
    return max(0, int(getattr(settings, "ROOM_LOG_FLUSH_MS", 150))) / 1000


def coalesce(edits: list[PendingEdit]) -> list[PendingEdit]:
    """One edit per (author, document, socket), merged in arrival order, with every ref."""
    merged: dict[tuple[Any, str, int], list[PendingEdit]] = {}
    for pending in edits:
        key = (pending.actor.pk, pending.edit.name, id(pending.sender))
        merged.setdefault(key, []).append(pending)
    out = []
    for group in merged.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        update = merge_updates(*(base64.b64decode(p.edit.update_b64) for p in group))
        edit = CheckedEdit(name=first.edit.name, update_b64=base64.b64encode(update).decode())
        refs = [ref for p in group for ref in p.refs]
        out.append(PendingEdit(actor=first.actor, edit=edit, sender=first.sender, refs=refs))
    return out


#: Lazy: the message is put in the language of whoever reads it, not of the import.
GONE = NotFound(gettext_lazy("The stage no longer exists."))


@dataclass
class RoomOutcome:
    events: list[StageEvent]
    refused: dict[int, DomainError]
    failed: bool = False


class RoomLog:
    """One per event loop (web process): the rooms' edits waiting to be logged."""

    def __init__(self) -> None:
        self.rooms: dict[int, list[PendingEdit]] = {}
        self.task: asyncio.Task | None = None
        self.waiting = asyncio.Event()  # some edit waits
        self.full = asyncio.Event()  # some room's batch is full: no need to wait the window
        self.writing = asyncio.Lock()  # one flush at a time: the log keeps arrival order

    def add(self, stage_id: int, pending: PendingEdit) -> None:
        room = self.rooms.setdefault(stage_id, [])
        room.append(pending)
        if len(room) > COALESCE_AT:
            self.rooms[stage_id] = room = coalesce(room)
            logger.info("stage %s: %d edits waiting after merging", stage_id, len(room))
        if len(room) >= BATCH_EDITS:
            self.full.set()
        self.waiting.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def waiting_edits(self, stage_id: int) -> int:
        return len(self.rooms.get(stage_id, ()))

    async def _run(self) -> None:
        while True:
            await self.waiting.wait()
            with contextlib.suppress(TimeoutError):  # the window, or sooner when a room is full
                await asyncio.wait_for(self.full.wait(), flush_seconds())
            try:
                await self.flush()
            except Exception:
                logger.warning("room log flush failed", exc_info=True)

    async def flush(self, stage_id: int | None = None) -> None:
        """Write the waiting edits (of one room, or of all) and tell their senders."""
        async with self.writing:
            if stage_id is None:
                batches, self.rooms = self.rooms, {}
            else:
                room = self.rooms.pop(stage_id, None)
                batches = {stage_id: room} if room else {}
            if not self.rooms:
                self.waiting.clear()
            if not any(len(room) >= BATCH_EDITS for room in self.rooms.values()):
                self.full.clear()
            if not batches:
                return
            outcomes = await _persist(batches)
            for room_id, room in batches.items():
                if outcomes[room_id].failed:  # the database is away: try again next window
                    self._requeue(room_id, room)
        for room_id, room in batches.items():
            if not outcomes[room_id].failed:
                await _tell_senders(room, outcomes[room_id])

    def _requeue(self, stage_id: int, room: list[PendingEdit]) -> None:
        """Put a batch that could not be written back before the edits that came since."""
        waiting = [*room, *self.rooms.pop(stage_id, [])]
        self.rooms[stage_id] = coalesce(waiting) if len(waiting) > COALESCE_AT else waiting
        self.waiting.set()


async def _tell_senders(room: list[PendingEdit], outcome: RoomOutcome) -> None:
    accepted = iter(outcome.events)
    for index, pending in enumerate(room):
        sender = pending.sender() if pending.sender is not None else None
        error = outcome.refused.get(index)
        event = None if error is not None or outcome.failed else next(accepted, None)
        if sender is None:
            continue
        try:
            if event is not None:
                if pending.refs:
                    await sender.edits_saved(pending.refs, event.seq)
            elif error is not None:
                await sender.edits_refused(pending.refs, error)
        except Exception:  # the socket went away meanwhile
            logger.info("could not tell a socket how its edits ended", exc_info=True)


async def _persist(batches: dict[int, list[PendingEdit]]) -> dict[int, RoomOutcome]:
    """Write the rooms' batches in one call on one room thread: its statements do not grow
    with the rooms (`_persist_rooms`), so splitting a flush over threads (as it once was on
    PostgreSQL) would only multiply them and their commits — and SQLite has one writer
    anyway. The other room threads stay free for the sockets' reads."""
    return await _persist_rooms(list(batches.items()))


@room_db
def _persist_rooms(rooms: list[tuple[int, list[PendingEdit]]]) -> dict[int, RoomOutcome]:
    """Rooms' batches in one transaction (one commit), their stages read together
    (`stages_for_edit_log`: two queries, not two per room) and written together
    (`_persist_together`); if that fails, each room in its own savepoint
    (documents.document_edits_record): a room whose batch fails costs only its own, which
    is tried again (`failed`)."""
    out: dict[int, RoomOutcome] = {}
    try:
        with transaction.atomic():
            stages = stages_for_edit_log(stage_id for stage_id, _ in rooms)
            present = [(stages[stage_id], room) for stage_id, room in rooms if stage_id in stages]
            for stage_id, room in rooms:
                if stage_id not in stages:
                    out[stage_id] = RoomOutcome(events=[], refused=_all_refused(room, GONE))
            together = _persist_together(present)
            for stage, room in present:
                if together is not None:
                    events, refused = together[stage.pk]
                    out[stage.pk] = RoomOutcome(events=events, refused=refused)
                else:
                    out[stage.pk] = _persist_one(stage, room)
    except Exception:  # the commit itself failed: nothing of it was written
        logger.warning("could not log the edits of %d rooms", len(rooms), exc_info=True)
        return {stage_id: RoomOutcome(events=[], refused={}, failed=True) for stage_id, _ in rooms}
    for stage, _room in present:
        # Design notes are the design stage's answer: the scripted interviewer reads them.
        for name in sorted({event.payload["doc"] for event in out[stage.pk].events}):
            try:
                live.stage_on_notes_edited(stage=stage, name=name)
            except Exception:
                logger.warning("stage %s: after-notes follow-up failed", stage.pk, exc_info=True)
    return out


def _all_refused(room: list[PendingEdit], error: DomainError) -> dict[int, DomainError]:
    return dict.fromkeys(range(len(room)), error)


def _persist_together(
    rooms: list[tuple[Stage, list[PendingEdit]]],
) -> dict[int, tuple[list[StageEvent], dict[int, DomainError]]] | None:
    """The rooms' batches written together in a savepoint (documents.
    document_edits_record_rooms: the stages' rows stay locked for three statements, not
    for a write per room); None if that failed (the savepoint undid it)."""
    if not rooms:
        return {}
    try:
        with transaction.atomic():
            return documents.document_edits_record_rooms(
                rooms=[
                    (stage, [(pending.actor, pending.edit) for pending in room])
                    for stage, room in rooms
                ]
            )
    except Exception:
        logger.info("could not log %d rooms together; one by one", len(rooms), exc_info=True)
        return None


def _persist_one(stage: Stage, room: list[PendingEdit]) -> RoomOutcome:
    """One room's batch in its own savepoint."""
    try:
        with transaction.atomic():
            events, refused = documents.document_edits_record(
                stage=stage, edits=[(pending.actor, pending.edit) for pending in room]
            )
    except Stage.DoesNotExist:  # deleted since it was read
        return RoomOutcome(events=[], refused=_all_refused(room, GONE))
    except Exception:
        logger.warning("stage %s: could not log %d edits", stage.pk, len(room), exc_info=True)
        return RoomOutcome(events=[], refused={}, failed=True)
    return RoomOutcome(events=events, refused=refused)


_logs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RoomLog]" = weakref.WeakKeyDictionary()


def room_log() -> RoomLog:
    loop = asyncio.get_running_loop()
    if loop not in _logs:
        _logs[loop] = RoomLog()
    return _logs[loop]
