"""The one way to emit a stage event: append a `StageEvent` with the next gap-free `seq`
and, once the transaction commits, send it to the stage's channel group.

Each type's payload is declared in `event_types.py` and checked here before it is logged;
`docs/events.md` describes the protocol.
"""

import asyncio
import atexit
import collections
import logging
import os
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import connection, transaction

from interviews.models import Stage, StageEvent

from .event_types import check_event

logger = logging.getLogger(__name__)


def stage_group(stage_id: int) -> str:
    return f"stage.{stage_id}"


def emit(
    stage: Stage | int,
    type: str,
    payload: dict[str, Any] | None = None,
    *,
    actor=None,
    private: bool = False,
) -> StageEvent:
    """Append an event to the stage's log and broadcast it after commit.

    The payload must be exactly what `event_types` declares for `type` (EventSchemaError
    otherwise: a bug, refused before anything is logged or sent). Concurrent emitters
    serialise on the stage row's lock, so numbers never collide and never leave gaps.
    Inside a caller's transaction no savepoint is made (two queries fewer per event on the
    hot paths): a failed numbering or insert fails the caller's transaction, as it should.
    """
    payload = payload or {}
    check_event(type, payload, private=private)
    stage_id = stage if isinstance(stage, int) else stage.pk
    with transaction.atomic(savepoint=False):
        seq = _next_seq(stage_id)
        event = StageEvent.objects.create(
            stage_id=stage_id,
            seq=seq,
            type=type,
            payload=payload,
            actor=actor
            if actor is not None and getattr(actor, "is_authenticated", False)
            else None,
            private=private,
        )
        transaction.on_commit(lambda: _broadcast(event))
    return event


def emit_many(
    stage: Stage | int, events: list[tuple[str, dict[str, Any], Any]]
) -> list[StageEvent]:
    """Append several `(type, payload, actor)` events to one stage's log in one statement
    each for numbering and inserting, and broadcast them in order after commit.

    For the live rooms' batched edit log (realtime/roomlog.py): one numbering round and
    one INSERT per batch instead of one per keystroke. Same checks and numbering rules as
    `emit`; the numbers are consecutive, in the order given.
    """
    if not events:
        return []
    for type, payload, _actor in events:
        check_event(type, payload, private=False)
    stage_id = stage if isinstance(stage, int) else stage.pk
    with transaction.atomic(savepoint=False):
        last = _next_seq(stage_id, count=len(events))
        rows = StageEvent.objects.bulk_create(_event_rows(stage_id, last - len(events) + 1, events))
        transaction.on_commit(lambda: [_broadcast(row) for row in rows])
    return rows


def emit_many_stages(
    batches: dict[int, list[tuple[str, dict[str, Any], Any]]],
) -> dict[int, list[StageEvent]]:
    """`emit_many` for several stages at once (by stage id): one statement locks their rows,
    one numbers them all and one INSERT writes every event, so the rows stay locked for
    three statements whatever the number of stages — the room log writes every room of a
    flush this way, and a follow-up pushed meanwhile waits that long, not for a write per
    room. Raises Stage.DoesNotExist if a stage is gone (nothing is then written)."""
    batches = {stage_id: events for stage_id, events in batches.items() if events}
    if not batches:
        return {}
    for events in batches.values():
        for type, payload, _actor in events:
            check_event(type, payload, private=False)
    with transaction.atomic(savepoint=False):
        lasts = _next_seqs({stage_id: len(events) for stage_id, events in batches.items()})
        rows: list[StageEvent] = []
        out: dict[int, list[StageEvent]] = {}
        for stage_id, events in batches.items():
            first = lasts[stage_id] - len(events) + 1
            out[stage_id] = _event_rows(stage_id, first, events)
            rows += out[stage_id]
        StageEvent.objects.bulk_create(rows)
        transaction.on_commit(lambda: [_broadcast(row) for row in rows])
    return out


def _event_rows(
    stage_id: int, first: int, events: list[tuple[str, dict[str, Any], Any]]
) -> list[StageEvent]:
    """Unsaved log rows for `events`, numbered from `first` in the order given."""
    return [
        StageEvent(
            stage_id=stage_id,
            seq=first + index,
            type=type,
            payload=payload,
            actor=actor
            if actor is not None and getattr(actor, "is_authenticated", False)
            else None,
        )
        for index, (type, payload, actor) in enumerate(events)
    ]


def _next_seqs(counts: dict[int, int]) -> dict[int, int]:
    """`_next_seq` for several stages in two statements: lock their rows in id order (so
    two callers never deadlock), then number them all; the last number of each, by id."""
    quote = connection.ops.quote_name
    stage_table, event_table = quote(Stage._meta.db_table), quote(StageEvent._meta.db_table)
    last_seq, pk = quote(Stage._meta.get_field("last_seq").column), quote(Stage._meta.pk.column)
    seq, stage_fk = (quote(StageEvent._meta.get_field(name).column) for name in ("seq", "stage"))
    ids = sorted(counts)
    among = ", ".join(["%s"] * len(ids))
    cases = " ".join(["WHEN %s THEN %s"] * len(ids))
    with connection.cursor() as cursor:
        if connection.features.has_select_for_update:
            cursor.execute(
                f"SELECT {pk} FROM {stage_table} WHERE {pk} IN ({among}) ORDER BY {pk} FOR UPDATE",
                ids,
            )
        cursor.execute(
            f"UPDATE {stage_table} SET {last_seq} = (SELECT COALESCE(MAX(e.{seq}), 0)"
            f" FROM {event_table} e WHERE e.{stage_fk} = {stage_table}.{pk})"
            f" + CASE {pk} {cases} END WHERE {pk} IN ({among}) RETURNING {pk}, {last_seq}",
            [value for stage_id in ids for value in (stage_id, counts[stage_id])] + ids,
        )
        lasts = dict(cursor.fetchall())
    missing = set(ids) - set(lasts)
    if missing:
        raise Stage.DoesNotExist(f"stages {sorted(missing)}")
    return lasts


def _next_seq(stage_id: int, count: int = 1) -> int:
    """Number the next `count` events of a stage, under the stage row's lock; returns the
    last of them.

    The number comes from the log itself — the truth: a stale `Stage.save()` that rewrote
    `last_seq` cannot make numbers collide — and is recorded as `last_seq`. On PostgreSQL
    the row is locked first, so the UPDATE's subquery reads the log with a snapshot taken
    after the lock (READ COMMITTED: one per statement); on SQLite the UPDATE itself holds
    the database's write lock while it reads.

    Plain SQL: this runs for every keystroke in every room, and building the equivalent
    ORM queries was a fifth of a web process's CPU under load (bench/live.py).
    """
    quote = connection.ops.quote_name
    stage_table, event_table = quote(Stage._meta.db_table), quote(StageEvent._meta.db_table)
    last_seq, pk = quote(Stage._meta.get_field("last_seq").column), quote(Stage._meta.pk.column)
    seq, stage_fk = (quote(StageEvent._meta.get_field(name).column) for name in ("seq", "stage"))
    with connection.cursor() as cursor:
        if connection.features.has_select_for_update:
            cursor.execute(f"SELECT {pk} FROM {stage_table} WHERE {pk} = %s FOR UPDATE", [stage_id])
        cursor.execute(
            f"UPDATE {stage_table} SET {last_seq} = (SELECT COALESCE(MAX({seq}), 0) + %s"
            f" FROM {event_table} WHERE {stage_fk} = %s) WHERE {pk} = %s RETURNING {last_seq}",
            [count, stage_id, stage_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise Stage.DoesNotExist(f"stage {stage_id}")
    return row[0]


def event_message(event: StageEvent) -> dict[str, Any]:
    """The wire form of an event, as sent over websockets and returned by replay."""
    return {
        "type": event.type,
        "seq": event.seq,
        "at": event.created_at.isoformat(),
        "actor": event.actor.username if event.actor_id and event.actor else None,
        "private": event.private,
        **event.payload,
    }


MAX_PENDING_SENDS = 10_000
EXIT_FLUSH_S = 2.0
LOG_EVERY_S = 5.0
#: Most group sends written to Redis in one round trip (one pipeline of PUBLISHes).
SEND_BATCH_MAX = 500


class _Sender:
    """A private event-loop thread per process that group-sends for synchronous code,
    without making it wait.

    `async_to_sync` from a thread of the ASGI server would run the send on the server's
    own loop and block until it ran: the thread (the one all sockets' database work shares)
    would wait on Redis for every keystroke, and once that loop stops at shutdown it would
    wait forever and keep the process alive. Here sends are queued to our own loop, which
    keeps its Redis connections, and written in order by one drain: everything queued while
    the previous write was on its way goes out together, one pipeline of PUBLISHes (one
    round trip, `layers.RedisChannelLayer.group_send_many`) per SEND_BATCH_MAX. The room
    log's flush broadcasts a burst of `doc.update` events at once; sent one round trip each,
    a follow-up committed just after it waited for all of them (bench/live.py: up to 39 ms
    of a 90 ms follow-up, docs/decisions.md). A failed or dropped send is logged and costs
    nothing else — the log is the truth and consumers catch up from it. At exit, queued
    sends get EXIT_FLUSH_S to finish. The in-memory layer (unit tests) is tied to its own
    loop, so it keeps `async_to_sync`.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0
        self._pending = 0
        self._queue: collections.deque[tuple[Any, str, dict]] = collections.deque()
        self._draining = False
        self._idle = threading.Condition(self._lock)
        self._last_logged = 0.0

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        if self._pid != os.getpid():  # first use, or a forked worker child
            with self._lock:
                if self._pid != os.getpid():
                    loop = asyncio.new_event_loop()
                    thread = threading.Thread(
                        target=loop.run_forever, name="stage-events", daemon=True
                    )
                    thread.start()
                    self._loop, self._pid, self._pending = loop, os.getpid(), 0
                    self._queue, self._draining = collections.deque(), False
                    atexit.register(self.flush, EXIT_FLUSH_S)
        return self._loop

    def group_send(self, layer, group: str, message: dict) -> None:
        if isinstance(layer, InMemoryChannelLayer):
            async_to_sync(layer.group_send)(group, message)
            return
        loop = self._running_loop()
        with self._lock:
            if self._pending >= MAX_PENDING_SENDS:
                self._log(f"{self._pending} broadcasts queued; dropping one to {group}")
                return
            self._pending += 1
            self._queue.append((layer, group, message))
            if self._draining:
                return  # the running drain takes it with the next batch
            self._draining = True
        loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        asyncio.ensure_future(self._drain())

    def _next_batch(self) -> list[tuple[Any, str, dict]]:
        """The oldest queued sends of one layer, at most SEND_BATCH_MAX; [] ends the drain."""
        with self._lock:
            if not self._queue:
                self._draining = False
                return []
            layer = self._queue[0][0]
            batch = []
            while self._queue and len(batch) < SEND_BATCH_MAX and self._queue[0][0] is layer:
                batch.append(self._queue.popleft())
            return batch

    async def _drain(self) -> None:
        while batch := self._next_batch():
            layer = batch[0][0]
            try:
                many = getattr(layer, "group_send_many", None)
                if many is not None:
                    await many([(group, message) for _layer, group, message in batch])
                else:
                    for _layer, group, message in batch:
                        await layer.group_send(group, message)
            except Exception as exc:
                self._log(f"broadcast of {len(batch)} failed: {exc!r}")
            finally:
                with self._lock:
                    self._pending -= len(batch)
                    if not self._pending:
                        self._idle.notify_all()

    def _log(self, text: str) -> None:
        now = time.monotonic()
        if now - self._last_logged >= LOG_EVERY_S:  # an outage fails every send: say it once
            self._last_logged = now
            logger.warning("%s (consumers catch up from the log)", text)

    def flush(self, timeout: float) -> bool:
        """Wait until every queued send is done (at most `timeout` s); True if they are."""
        with self._lock:
            return self._idle.wait_for(lambda: not self._pending, timeout)


_sender = _Sender()


def group_send_soon(group: str, message: dict[str, Any]) -> None:
    """Queue a message to a channel group without waiting (see `_Sender`); a failure is
    logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _sender.group_send(layer, group, message)
    except Exception:
        logger.warning("send to %s failed", group, exc_info=True)


def _broadcast(event: StageEvent) -> None:
    # The log is the source of truth: a failed send is caught up from it by consumers.
    group_send_soon(
        stage_group(event.stage_id), {"type": "stage.event", "event": event_message(event)}
    )
