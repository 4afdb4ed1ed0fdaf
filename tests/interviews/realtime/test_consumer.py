"""The live-room consumer: who may connect, what each role receives, resync."""

import asyncio
import base64
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from pycrdt import Doc, Text

from interviews.models import StageQuestion
from interviews.realtime.consumers import CLIENT_HANDLERS, RELAY_STALE_S
from interviews.realtime.event_types import CLIENT_MESSAGES, SERVER_MESSAGES
from interviews.realtime.events import stage_group
from interviews.services import live
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.notes import coach_note_create
from mockloop.asgi import application
from tests.factories import (
    AdminFactory,
    CoachFactory,
    FollowUpFactory,
    PartFactory,
    StageFactory,
    UserFactory,
    api_token_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

COACH_ONLY = "SENTINEL-coach-notes-7731"


@database_sync_to_async
def make_room():
    owner = UserFactory()
    coach = CoachFactory()
    stage = StageFactory(
        loop__candidate=owner, coach=coach, status="live", started_at=timezone.now()
    )
    stage.deadline = stage.started_at + timezone.timedelta(minutes=60)
    stage.save()
    part = PartFactory()
    PartFactory(question=part.question, position=2)
    follow_up = FollowUpFactory(question=part.question, unlocks_part=2, coach_notes=COACH_ONLY)
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    return {
        "stage": stage,
        "question": part.question,
        "follow_up": follow_up,
        "owner": owner,
        "coach": coach,
        "other": UserFactory(),
        "other_coach": CoachFactory(),
        "admin": AdminFactory(),
    }


@database_sync_to_async
def token_for(user) -> str:
    return api_token_for(user)


async def connect(stage, user=None, token=None):
    query = ""
    if user is not None:
        query = f"?token={await token_for(user)}"
    elif token:
        query = f"?token={token}"
    communicator = WebsocketCommunicator(
        application, f"/ws/stages/{stage.pk}/{query}", headers=[(b"origin", b"http://testserver")]
    )
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def receive_until(communicator, type_, limit=20):
    for _ in range(limit):
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == type_:
            return message
    raise AssertionError(f"no {type_} message")


async def drain(communicator) -> list[dict]:
    messages = []
    while not await communicator.receive_nothing(timeout=0.3):
        messages.append(await communicator.receive_json_from())
    return messages


@pytest.mark.parametrize("who", ["anonymous", "bad_token", "other", "other_coach"])
async def test_refused_roles_are_closed_with_4403(who):
    room = await make_room()
    if who == "anonymous":
        communicator, connected, code = await connect(room["stage"])
    elif who == "bad_token":
        communicator, connected, code = await connect(room["stage"], token="nope")
    else:
        communicator, connected, code = await connect(room["stage"], room[who])
    # Accepted, then closed: a browser sees the 4403 (a refused handshake is only a 1006).
    assert connected
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403}
    assert await communicator.receive_nothing(timeout=0.2)


@pytest.mark.parametrize("who", ["owner", "coach", "admin"])
async def test_allowed_roles_get_hello(who):
    room = await make_room()
    communicator, connected, _ = await connect(room["stage"], room[who])
    assert connected
    hello = await communicator.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    assert hello["timer"]["status"] == "live"
    await communicator.disconnect()


async def test_follow_up_reaches_candidate_without_coach_notes_and_notes_stay_private():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)

    await database_sync_to_async(stage_push_follow_up)(
        stage=room["stage"], actor=room["coach"], follow_up=room["follow_up"]
    )
    await database_sync_to_async(coach_note_create)(
        stage=room["stage"], author=room["coach"], text="strong start"
    )
    await database_sync_to_async(live.chat_post)(
        stage=room["stage"], author=room["coach"], text="hi"
    )

    got_candidate = await drain(candidate)
    got_coach = await drain(coach)
    assert [m["type"] for m in got_candidate] == ["follow_up", "chat"]
    assert got_candidate[0]["unlocks_part"] == 2
    assert COACH_ONLY not in str(got_candidate)
    assert [m["type"] for m in got_coach] == ["follow_up", "note", "chat"]
    assert got_coach[1]["text"] == "strong start"
    await candidate.disconnect()
    await coach.disconnect()


def _yjs_update(text: str) -> str:
    doc = Doc()
    doc.get("code", type=Text).insert(0, text)
    return base64.b64encode(doc.get_update()).decode()


async def test_code_updates_flow_from_candidate_to_coach_and_coach_cannot_type():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)
    name = f"code:{room['question'].pk}"

    await candidate.send_json_to({"type": "doc.update", "doc": name, "update": _yjs_update("x=1")})
    update = await receive_until(coach, "doc.update")
    doc = Doc()
    doc.apply_update(base64.b64decode(update["update"]))
    assert str(doc.get("code", type=Text)) == "x=1"

    await coach.send_json_to(
        {"type": "doc.update", "doc": name, "update": _yjs_update("y"), "ref": 7}
    )
    error = await receive_until(coach, "error")
    assert error["ref"] == 7
    assert error["code"] == "not_allowed"  # the service's own check, as over HTTP

    await candidate.send_json_to({"type": "doc.update", "doc": "code:999999", "update": "AAA="})
    error = await receive_until(candidate, "error")
    assert "doc" in error["errors"]
    assert error["code"] == "invalid"
    await candidate.send_json_to({"type": "doc.update", "doc": name, "update": "not base64!"})
    error = await receive_until(candidate, "error")
    assert "update" in error["errors"]
    await candidate.disconnect()
    await coach.disconnect()


async def test_integrity_signals_reach_only_the_coach():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)
    await candidate.send_json_to({"type": "integrity", "kind": "paste", "amount": 1800})
    await candidate.send_json_to({"type": "chat", "text": "done pasting"})
    signal = await receive_until(coach, "integrity")
    assert signal["chars"] == 1800 and signal["private"] is True
    got = await drain(candidate)
    assert "integrity" not in [m["type"] for m in got]
    assert "chat" in [m["type"] for m in got]
    await candidate.disconnect()
    await coach.disconnect()


async def test_resync_returns_exactly_the_missed_events_in_order_without_private_ones():
    room = await make_room()
    stage, coach_user = room["stage"], room["coach"]
    await database_sync_to_async(live.chat_post)(stage=stage, author=coach_user, text="one")
    mark = (await database_sync_to_async(lambda: type(stage).objects.get(pk=stage.pk))()).last_seq
    await database_sync_to_async(live.chat_post)(stage=stage, author=coach_user, text="two")
    await database_sync_to_async(coach_note_create)(stage=stage, author=coach_user, text="private")
    await database_sync_to_async(live.chat_post)(stage=stage, author=coach_user, text="three")

    candidate, _, _ = await connect(stage, room["owner"])
    await drain(candidate)
    await candidate.send_json_to({"type": "resync", "after": mark})
    got = []
    while True:
        message = await candidate.receive_json_from(timeout=5)
        if message["type"] == "resync.done":
            break
        got.append(message)
    chats = [m["text"] for m in got if m["type"] == "chat"]
    assert chats == ["two", "three"]
    assert all(m["type"] != "note" for m in got)
    seqs = [m["seq"] for m in got]
    assert seqs == sorted(seqs) and seqs[0] > mark

    coach, _, _ = await connect(stage, coach_user)
    await drain(coach)
    await coach.send_json_to({"type": "resync", "after": mark})
    coach_got = []
    while True:
        message = await coach.receive_json_from(timeout=5)
        if message["type"] == "resync.done":
            break
        coach_got.append(message)
    assert [m["type"] for m in coach_got][:3] == ["chat", "note", "chat"]
    await candidate.disconnect()
    await coach.disconnect()


async def test_timer_pause_by_coach_is_pushed_and_candidate_cannot_pause():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    await database_sync_to_async(live.stage_timer_control)(
        stage=room["stage"], actor=room["coach"], action="pause"
    )
    timer = await receive_until(candidate, "timer")
    assert timer["paused"] is True and timer["reason"] == "pause"
    from interviews.services.errors import NotAllowed

    with pytest.raises(NotAllowed):
        await database_sync_to_async(live.stage_timer_control)(
            stage=room["stage"], actor=room["owner"], action="resume"
        )
    await candidate.disconnect()


async def test_presence_and_bad_messages():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    coach, _, _ = await connect(room["stage"], room["coach"])
    joined = await receive_until(candidate, "presence")
    assert joined["user"] == room["coach"].username and joined["state"] == "joined"
    await coach.disconnect()
    left = await receive_until(candidate, "presence")
    assert left["state"] == "left"
    await candidate.send_json_to({"type": "teleport"})
    assert (await receive_until(candidate, "error"))["detail"].startswith("Unknown message type")
    await candidate.send_json_to({"type": "resync", "after": "zero"})
    assert (await receive_until(candidate, "error"))["type"] == "error"
    await candidate.send_json_to({"type": "ping", "ref": 1})
    assert (await receive_until(candidate, "pong"))["ref"] == 1
    await asyncio.sleep(0)
    await candidate.disconnect()


async def test_every_unlogged_message_matches_its_declaration():
    """hello, resync.done, cursor, doc.relay, doc.saved, rtc.signal, pong and error, each
    read through the schema check."""
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    seen = {message["type"] for message in await drain(candidate)}
    await drain(coach)
    await candidate.send_json_to({"type": "resync", "after": 0})
    await receive_until(candidate, "resync.done")
    await candidate.send_json_to({"type": "cursor", "doc": "code:1", "anchor": 3, "head": 5})
    cursor = await receive_until(coach, "cursor")
    assert (cursor["anchor"], cursor["head"]) == (3, 5)  # malformed ones: test_message_limits
    await candidate.send_json_to({"type": "rtc.signal", "data": {"sdp": "v=0"}})
    assert (await receive_until(coach, "rtc.signal"))["data"] == {"sdp": "v=0"}
    await candidate.send_json_to({"type": "ping", "ref": {"any": "json"}})
    assert (await receive_until(candidate, "pong"))["ref"] == {"any": "json"}
    await candidate.send_json_to({"type": ["not", "a", "name"], "ref": "r1"})
    error = await receive_until(candidate, "error")
    assert error == {
        "type": "error",
        "detail": "Unknown message type ['not', 'a', 'name'].",
        "errors": {},
        "code": "invalid",
        "ref": "r1",
    }
    name = f"code:{room['question'].pk}"
    await candidate.send_json_to(
        {"type": "doc.update", "doc": name, "update": _yjs_update("a"), "ref": "d1"}
    )
    relayed = await receive_until(coach, "doc.relay")
    assert (relayed["doc"], relayed["user"]) == (name, room["owner"].username)
    saved = await receive_until(candidate, "doc.saved")
    assert saved["refs"] == ["d1"]
    seen |= {"resync.done", "cursor", "doc.relay", "doc.saved", "rtc.signal", "pong", "error"}
    assert seen >= set(SERVER_MESSAGES)
    await candidate.disconnect()
    await coach.disconnect()


async def test_the_consumer_handles_exactly_the_declared_client_messages():
    assert set(CLIENT_HANDLERS) == set(CLIENT_MESSAGES)


# --- access changes while a socket is open ------------------------------------------------


async def _closed_with(communicator) -> int | None:
    """The close code the server sent, skipping any events before it (None: still open)."""
    for _ in range(20):
        if await communicator.receive_nothing(timeout=1):
            return None
        output = await communicator.receive_output()
        if output["type"] == "websocket.close":
            return output["code"]
    raise AssertionError("neither closed nor quiet")


@database_sync_to_async
def _hand_stage_to(stage, coach) -> None:
    stage.coach = coach
    stage.save()  # as the Django admin does


async def test_a_coach_taken_off_the_stage_is_closed_at_once_and_sees_no_more_notes():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)

    await _hand_stage_to(room["stage"], room["other_coach"])
    await database_sync_to_async(coach_note_create)(
        stage=room["stage"], author=room["other_coach"], text=COACH_ONLY
    )
    assert await _closed_with(coach) == 4403
    # The candidate keeps the room (and, as ever, gets no coach note).
    assert COACH_ONLY not in str(await drain(candidate))
    await candidate.send_json_to({"type": "ping", "ref": 7})
    assert (await receive_until(candidate, "pong"))["ref"] == 7
    # The new coach may join.
    new_coach, connected, _ = await connect(room["stage"], room["other_coach"])
    assert (await new_coach.receive_json_from(timeout=5))["type"] == "hello"
    await candidate.disconnect()
    await new_coach.disconnect()


async def test_a_deactivated_user_is_closed():
    room = await make_room()
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(coach)

    @database_sync_to_async
    def deactivate() -> None:
        room["coach"].is_active = False
        room["coach"].save()

    await deactivate()
    assert await _closed_with(coach) == 4403


async def test_a_user_no_longer_a_coach_stops_getting_private_events():
    """Still assigned to the stage, so still in the room (as the API would let them read
    it), but without the coach's view."""
    room = await make_room()
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(coach)
    await database_sync_to_async(room["coach"].groups.clear)()
    await database_sync_to_async(coach_note_create)(
        stage=room["stage"], author=room["admin"], text=COACH_ONLY
    )
    await database_sync_to_async(live.chat_post)(
        stage=room["stage"], author=room["admin"], text="public"
    )
    got = await drain(coach)
    assert [m["type"] for m in got] == ["chat"]
    await coach.disconnect()


async def test_an_admin_made_an_ordinary_user_loses_private_events_and_the_room():
    room = await make_room()
    admin, _, _ = await connect(room["stage"], room["admin"])
    await drain(admin)

    @database_sync_to_async
    def demote() -> None:
        room["admin"].is_staff = room["admin"].is_superuser = False
        room["admin"].save()

    await demote()
    assert await _closed_with(admin) == 4403


async def test_changes_that_keep_access_leave_sockets_open():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)

    @database_sync_to_async
    def harmless() -> None:
        room["stage"].save()  # e.g. the admin saves the stage unchanged
        room["coach"].first_name = "Ada"
        room["coach"].save()

    await harmless()
    assert await _closed_with(candidate) is None
    assert await _closed_with(coach) is None
    await database_sync_to_async(coach_note_create)(
        stage=room["stage"], author=room["coach"], text="still here"
    )
    assert (await receive_until(coach, "note"))["text"] == "still here"
    await candidate.disconnect()
    await coach.disconnect()


async def test_a_stale_relay_is_dropped_and_a_fresh_one_sent():
    """Past capacity a room sheds relays rather than queueing them without bound: one
    older than RELAY_STALE_S when the viewer's turn comes is dropped (the logged
    `doc.update` brings the same edit); a fresh one is sent as it came."""
    room = await make_room()
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(coach)
    layer = get_channel_layer()
    relay = {"type": "doc.relay", "user": "someone", "doc": "code:1", "update": "AAA="}
    group = stage_group(room["stage"].pk)

    def relayed(message: dict, sent_at: float) -> dict:
        return {
            "type": "stage.ephemeral",
            "sender": "elsewhere",
            "message": message,
            "sent_at": sent_at,
        }

    await layer.group_send(group, relayed(relay, time.time() - RELAY_STALE_S - 1))
    assert await coach.receive_nothing(timeout=0.3)
    fresh = {**relay, "update": "AQA="}
    await layer.group_send(group, relayed(fresh, time.time()))
    assert await coach.receive_json_from(timeout=5) == fresh
    await coach.disconnect()
