"""Relay first, log in batches (interviews/realtime/roomlog.py): an edit reaches the room at
once, lands in the event log only when the room's batch is written, in arrival order, and
on the sender's leave; a backlog is merged, never queued without bound."""

import asyncio
import base64

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pycrdt import Doc, Text

from interviews.models import StageEvent, StageQuestion
from interviews.realtime import roomlog
from interviews.realtime.roomdb import room_connections_close
from interviews.realtime.roomlog import COALESCE_AT, PendingEdit, RoomLog
from interviews.services.documents import document_edit_parse
from tests.factories import CoachFactory, PartFactory, StageFactory, UserFactory

from .test_consumer import connect, drain, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def live_room():
    owner, coach = UserFactory(), CoachFactory()
    stage = StageFactory(
        loop__candidate=owner, coach=coach, status="live", started_at=timezone.now()
    )
    stage.deadline = stage.started_at + timezone.timedelta(minutes=60)
    stage.save()
    part = PartFactory()
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    return {"stage": stage, "owner": owner, "coach": coach, "doc": f"code:{part.question.pk}"}


@database_sync_to_async
def logged_updates(stage) -> list[tuple[int, str]]:
    events = StageEvent.objects.filter(stage=stage, type="doc.update").order_by("seq")
    return [(event.seq, event.payload["update"]) for event in events]


def typed(doc: Doc, text: str) -> str:
    before = doc.get_state()
    code = doc.get("code", type=Text)
    code.insert(len(code), text)
    return base64.b64encode(doc.get_update(before)).decode()


def code_of(updates: list[str]) -> str:
    doc = Doc()
    for update in updates:
        doc.apply_update(base64.b64decode(update))
    return str(doc.get("code", type=Text))


async def test_edits_are_relayed_at_once_and_logged_after_the_window_in_order(settings):
    settings.ROOM_LOG_FLUSH_MS = 400
    room = await live_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)
    doc = Doc()
    sent = [typed(doc, ch) for ch in "abc"]
    for n, update in enumerate(sent):
        await candidate.send_json_to(
            {"type": "doc.update", "doc": room["doc"], "update": update, "ref": f"d{n}"}
        )
    relayed = [(await receive_until(coach, "doc.relay"))["update"] for _ in sent]
    assert relayed == sent
    assert await logged_updates(room["stage"]) == []  # the window has not passed yet

    saved = [await receive_until(candidate, "doc.saved") for _ in sent]
    assert [s["refs"] for s in saved] == [["d0"], ["d1"], ["d2"]]
    logged = await logged_updates(room["stage"])
    assert [update for _, update in logged] == sent
    seqs = [seq for seq, _ in logged]
    assert seqs == list(range(seqs[0], seqs[0] + 3))  # one batch, consecutive numbers
    assert [s["saved_seq"] for s in saved] == seqs
    echoed = [(await receive_until(coach, "doc.update"))["seq"] for _ in sent]
    assert echoed == seqs
    await candidate.disconnect()
    await coach.disconnect()


async def test_a_leaving_socket_writes_its_edits_before_its_leave(settings):
    settings.ROOM_LOG_FLUSH_MS = 60_000  # only the leave can write them
    room = await live_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    doc = Doc()
    sent = [typed(doc, ch) for ch in "xy"]
    for update in sent:
        await candidate.send_json_to({"type": "doc.update", "doc": room["doc"], "update": update})
    await candidate.receive_nothing(timeout=0.2)
    assert await logged_updates(room["stage"]) == []
    await candidate.disconnect()

    logged = await logged_updates(room["stage"])
    assert [update for _, update in logged] == sent

    @database_sync_to_async
    def last_event():
        return StageEvent.objects.filter(stage=room["stage"]).order_by("seq").last()

    last = await last_event()
    assert (last.type, last.payload["state"]) == ("presence", "left")
    assert last.seq > logged[-1][0]


async def test_a_backlog_is_merged_per_author_and_document_and_loses_nothing(monkeypatch):
    """Writes slower than edits: the waiting list stays bounded, and the log still holds
    every keystroke and acknowledges every ref."""
    room = await live_room()
    log = RoomLog()
    gate = asyncio.Event()
    persist = roomlog._persist

    async def slow_persist(batches):
        await gate.wait()  # the database is busy until the backlog has piled up
        return await persist(batches)

    monkeypatch.setattr(roomlog, "_persist", slow_persist)

    class Sender:
        saved: list = []

        async def edits_saved(self, refs, seq):
            self.saved.extend(refs)

        async def edits_refused(self, refs, error):
            raise AssertionError(error)

    sender = Sender()
    import weakref

    doc, texts = Doc(), []
    stage_id = room["stage"].pk
    first = document_edit_parse(name=room["doc"], update_b64=typed(doc, "0"))
    log.add(stage_id, PendingEdit(actor=room["owner"], edit=first, sender=weakref.ref(sender)))
    flushing = asyncio.create_task(log.flush())  # takes the first edit, then waits
    await asyncio.sleep(0.05)
    for n in range(1, 3 * COALESCE_AT):
        texts.append(str(n % 10))
        edit = document_edit_parse(name=room["doc"], update_b64=typed(doc, texts[-1]))
        log.add(
            stage_id,
            PendingEdit(actor=room["owner"], edit=edit, sender=weakref.ref(sender), refs=[n]),
        )
        assert log.waiting_edits(stage_id) <= COALESCE_AT
    gate.set()
    await flushing
    await log.flush()
    if log.task is not None:
        log.task.cancel()

    logged = await logged_updates(room["stage"])
    assert code_of([update for _, update in logged]) == "0" + "".join(texts)
    assert len(logged) < 3 * COALESCE_AT
    assert sorted(sender.saved) == list(range(1, 3 * COALESCE_AT))


async def test_edits_refused_at_write_time_come_back_as_errors(settings):
    """The stage ended between the relay and the write: the sender hears it, with its ref."""
    settings.ROOM_LOG_FLUSH_MS = 1500
    room = await live_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    doc = Doc()
    await candidate.send_json_to(
        {"type": "doc.update", "doc": room["doc"], "update": typed(doc, "a"), "ref": "d1"}
    )
    assert await candidate.receive_nothing(timeout=0.3)  # checked, relayed, waiting

    @database_sync_to_async
    def end_stage():
        type(room["stage"]).objects.filter(pk=room["stage"].pk).update(status="done")

    await end_stage()
    error = await receive_until(candidate, "error")
    assert (error["code"], error["ref"]) == ("stage_not_live", "d1")
    assert await logged_updates(room["stage"]) == []
    await candidate.disconnect()


@database_sync_to_async
def persist_counting_queries(batches: dict) -> tuple[dict, list[str]]:
    """Write the batches as one room thread does, recording its queries."""
    with CaptureQueriesContext(connection) as queries:
        outcomes = roomlog._persist_rooms.func(list(batches.items()))
    return outcomes, [query["sql"] for query in queries.captured_queries]


async def test_a_flush_reads_the_stages_of_all_its_rooms_at_once():
    """The rooms' stages and their questions (what an edit is checked against) are read
    with two queries per flush whatever the number of rooms, not two per room: at 200 rooms
    those reads were most of the log's work, on the threads every socket shares."""
    rooms = [await live_room() for _ in range(3)]
    batches = {
        room["stage"].pk: [
            PendingEdit(
                actor=room["owner"],
                edit=document_edit_parse(name=room["doc"], update_b64=typed(Doc(), "a")),
            )
        ]
        for room in rooms
    }
    outcomes, queries = await persist_counting_queries(batches)
    assert all(len(o.events) == 1 and not o.refused and not o.failed for o in outcomes.values())
    reads = [sql for sql in queries if sql.startswith("SELECT") and "FOR UPDATE" not in sql]
    assert len(reads) == 2, reads
    for room in rooms:
        assert len(await logged_updates(room["stage"])) == 1


def one_edit_each(rooms: list[dict]) -> dict:
    return {
        room["stage"].pk: [
            PendingEdit(
                actor=room["owner"],
                edit=document_edit_parse(name=room["doc"], update_b64=typed(Doc(), "a")),
            )
        ]
        for room in rooms
    }


async def test_a_flush_writes_all_its_rooms_with_as_many_statements_as_one_room():
    """Numbering and inserting every room's edits takes the same few statements for four
    rooms as for one, so the stages' rows are locked only that long (a follow-up pushed
    into one of them meanwhile waits for those, not for a write per room)."""
    _, one = await persist_counting_queries(one_edit_each([await live_room()]))
    rooms = [await live_room() for _ in range(4)]
    outcomes, four = await persist_counting_queries(one_edit_each(rooms))
    assert len(four) == len(one), four
    for room in rooms:
        [(seq, _)] = await logged_updates(room["stage"])
        assert outcomes[room["stage"].pk].events[0].seq == seq


async def test_rooms_are_written_one_by_one_when_writing_them_together_fails(monkeypatch):
    """A failure of the shared write (here: any) undoes it and falls back to a savepoint
    per room, so one bad room still costs only its own batch."""
    rooms = [await live_room() for _ in range(3)]

    def broken(**kwargs):
        raise RuntimeError("together failed")

    monkeypatch.setattr(roomlog.documents, "document_edits_record_rooms", broken)
    outcomes = await roomlog._persist_rooms(list(one_edit_each(rooms).items()))
    await room_connections_close()  # the room threads' connections, as the last socket's leave
    assert all(len(o.events) == 1 and not o.failed for o in outcomes.values())
    for room in rooms:
        assert len(await logged_updates(room["stage"])) == 1
