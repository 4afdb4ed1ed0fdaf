"""Frames the protocol does not allow close the socket with a code and a reason, and the
room records the leave however a socket ends (the red team saw 14 joins and 10 leaves)."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from interviews.models import StageEvent
from interviews.realtime import consumers
from tests.interviews.realtime.test_consumer import connect, drain, make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def presence_states(stage) -> list[str]:
    rows = StageEvent.objects.filter(stage=stage, type="presence").order_by("seq")
    return [row.payload["state"] for row in rows]


async def closed_with(communicator) -> dict:
    while True:
        output = await communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output


@pytest.mark.parametrize(
    "frame, code, reason",
    [
        ({"text_data": "this is not json"}, 1007, "Messages are JSON."),
        ({"text_data": '{"type": "chat", "text": '}, 1007, "Messages are JSON."),
        ({"text_data": "[" * 200_000}, 1007, "The JSON is nested too deeply."),
        ({"text_data": '{"type": "ping", "ref": ' + "[" * 100 + "]" * 100 + "}"}, 1007, None),
        ({"bytes_data": b"\x00\x01binary"}, 1003, "Messages are JSON text, not binary."),
    ],
    ids=["text", "truncated", "recursion", "deep", "binary"],
)
async def test_malformed_frames_close_with_a_code_and_a_reason_and_the_leave_is_recorded(
    frame, code, reason
):
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    if "text_data" in frame:
        await candidate.send_to(text_data=frame["text_data"])
    else:
        await candidate.send_to(bytes_data=frame["bytes_data"])
    closed = await closed_with(candidate)
    assert closed["code"] == code
    assert closed.get("reason") == (reason or "The JSON is nested too deeply.")
    await candidate.disconnect()
    assert await presence_states(room["stage"]) == ["joined", "left"]


async def test_a_handler_that_crashes_still_records_the_leave(monkeypatch):
    async def broken(consumer, content):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setitem(consumers.CLIENT_HANDLERS, "ping", broken)
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    await candidate.send_json_to({"type": "ping"})
    with pytest.raises(RuntimeError):
        await candidate.receive_output(timeout=5)
    assert await presence_states(room["stage"]) == ["joined", "left"]


async def test_a_cancelled_socket_still_records_the_leave():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    candidate.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await candidate.future
    await asyncio.sleep(0.2)
    assert await presence_states(room["stage"]) == ["joined", "left"]


async def test_many_sockets_closed_every_way_leave_as_often_as_they_joined():
    room = await make_room()
    ways = ["disconnect", "text", "binary", "deep"] * 3 + ["disconnect", "text"]
    for way in ways:
        communicator, _, _ = await connect(room["stage"], room["owner"])
        await drain(communicator)
        if way == "text":
            await communicator.send_to(text_data="nope")
        elif way == "binary":
            await communicator.send_to(bytes_data=b"\xff")
        elif way == "deep":
            await communicator.send_to(text_data="[" * 100_000)
        if way != "disconnect":
            await closed_with(communicator)
        await communicator.disconnect()
    states = await presence_states(room["stage"])
    assert states.count("joined") == states.count("left") == len(ways)
