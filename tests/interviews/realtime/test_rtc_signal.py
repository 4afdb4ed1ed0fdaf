"""Call signalling over the room's socket: relayed only to the other connected participants
(or the one named), never echoed, size-capped, rate-limited, never logged."""

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from interviews.models import StageEvent
from interviews.realtime import consumers, signalling
from interviews.realtime.limits import MessageGate
from interviews.realtime.signalling import RTC_SIGNAL_BURST, RTC_SIGNAL_MAX_BYTES

from .test_consumer import _closed_with, _hand_stage_to, connect, drain, make_room, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

OFFER = {"kind": "description", "description": {"type": "offer", "sdp": "v=0\r\n..."}}


async def _room_with(*who: str):
    room = await make_room()
    sockets = {}
    for name in who:
        sockets[name], connected, _ = await connect(room["stage"], room[name])
        assert connected
    for socket in sockets.values():
        await drain(socket)
    return room, sockets


async def _close(sockets: dict) -> None:
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_signal_reaches_the_other_participants_and_not_its_sender():
    room, sockets = await _room_with("owner", "coach", "admin")
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": OFFER})
    for name in ("coach", "admin"):
        got = await receive_until(sockets[name], "rtc.signal")
        assert got == {"type": "rtc.signal", "from": room["owner"].username, "data": OFFER}
        assert "seq" not in got
    assert await drain(sockets["owner"]) == []
    await _close(sockets)


async def test_a_signal_to_one_user_reaches_only_them():
    room, sockets = await _room_with("owner", "coach", "admin")
    await sockets["coach"].send_json_to(
        {"type": "rtc.signal", "to": room["owner"].username, "data": {"kind": "hello"}}
    )
    got = await receive_until(sockets["owner"], "rtc.signal")
    assert got["from"] == room["coach"].username
    assert await drain(sockets["admin"]) == []
    assert await drain(sockets["coach"]) == []
    await _close(sockets)


@pytest.mark.parametrize("who", ["other", "other_coach"])
async def test_an_unassigned_user_cannot_signal(who):
    room, sockets = await _room_with("owner", "coach")
    stranger, connected, _ = await connect(room["stage"], room[who])
    assert connected
    assert await _closed_with(stranger) == 4403
    assert await drain(sockets["owner"]) == [] and await drain(sockets["coach"]) == []
    await _close(sockets)


async def test_a_coach_taken_off_the_stage_receives_no_more_signals():
    room, sockets = await _room_with("owner", "coach")
    await _hand_stage_to(room["stage"], room["other_coach"])
    assert await _closed_with(sockets.pop("coach")) == 4403
    new_coach, _, _ = await connect(room["stage"], room["other_coach"])
    await drain(new_coach)
    await sockets["owner"].send_json_to(
        {"type": "rtc.signal", "to": room["coach"].username, "data": {"kind": "hello"}}
    )
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": {"kind": "hello"}})
    assert [m["from"] for m in await drain(new_coach)] == [room["owner"].username]
    await new_coach.disconnect()
    await _close(sockets)


async def test_signals_over_64_kib_are_refused_and_not_relayed():
    room, sockets = await _room_with("owner", "coach")
    # {"sdp":"xxx…"} as compact JSON: 10 bytes of framing around the string.
    fits = {"sdp": "x" * (RTC_SIGNAL_MAX_BYTES - 10)}
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": fits})
    assert (await receive_until(sockets["coach"], "rtc.signal"))["data"] == fits

    too_big = {"sdp": "x" * (RTC_SIGNAL_MAX_BYTES - 9)}
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": too_big, "ref": 3})
    error = await receive_until(sockets["owner"], "error")
    assert (error["code"], error["ref"]) == ("rtc_signal_too_large", 3)
    assert await drain(sockets["coach"]) == []
    await _close(sockets)


@pytest.mark.parametrize(
    "message, field",
    [
        ({"type": "rtc.signal", "data": "offer"}, "data"),
        ({"type": "rtc.signal"}, "data"),
        ({"type": "rtc.signal", "to": 7, "data": {}}, "to"),
        ({"type": "rtc.signal", "to": "", "data": {}}, "to"),
    ],
)
async def test_malformed_signals_are_refused(message, field):
    room, sockets = await _room_with("owner", "coach")
    await sockets["owner"].send_json_to(message)
    error = await receive_until(sockets["owner"], "error")
    assert error["code"] == "invalid" and field in error["errors"]
    assert await drain(sockets["coach"]) == []
    await _close(sockets)


async def test_signals_past_the_burst_are_refused_until_the_budget_refills(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(consumers, "MessageGate", lambda: MessageGate(clock=lambda: now[0]))
    room, sockets = await _room_with("owner", "coach")
    for index in range(RTC_SIGNAL_BURST + 10):
        await sockets["owner"].send_json_to({"type": "rtc.signal", "data": {"n": index}})
    errors = [m for m in await drain(sockets["owner"]) if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["rtc_signal_rate_limited"] * 10
    relayed = [m["data"]["n"] for m in await drain(sockets["coach"])]
    assert relayed == list(range(RTC_SIGNAL_BURST))

    now[0] += 1 / signalling.RTC_SIGNAL_PER_S  # one token back
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": {"n": "again"}})
    assert (await receive_until(sockets["coach"], "rtc.signal"))["data"] == {"n": "again"}
    await _close(sockets)


async def test_signals_are_never_logged_nor_in_the_events_api_or_replay():
    room, sockets = await _room_with("owner", "coach")
    before = await database_sync_to_async(StageEvent.objects.filter(stage=room["stage"]).count)()
    await sockets["owner"].send_json_to({"type": "rtc.signal", "data": OFFER})
    await receive_until(sockets["coach"], "rtc.signal")
    await sockets["coach"].send_json_to({"type": "rtc.signal", "data": {"kind": "answer"}})
    await receive_until(sockets["owner"], "rtc.signal")
    after = await database_sync_to_async(StageEvent.objects.filter(stage=room["stage"]).count)()
    assert after == before

    @database_sync_to_async
    def logged_types(user) -> list[str]:
        client = APIClient()
        client.force_authenticate(user=user)
        response = client.get(f"/api/v1/stages/{room['stage'].pk}/events/?after=0")
        assert response.status_code == 200
        return [event["type"] for event in response.json()]

    for user in (room["owner"], room["coach"], room["admin"]):
        types = await logged_types(user)
        assert types and "rtc.signal" not in types
    # A reconnect's resync replays the log: no signal in it either.
    await sockets["owner"].send_json_to({"type": "resync", "after": 0})
    replayed = [(await sockets["owner"].receive_json_from(timeout=5))["type"]]
    while replayed[-1] != "resync.done":
        replayed.append((await sockets["owner"].receive_json_from(timeout=5))["type"])
    assert "presence" in replayed and "rtc.signal" not in replayed
    await _close(sockets)


SENDING = (
    "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=sendrecv\r\n"
)
RECEIVING = SENDING.replace("a=sendrecv", "a=recvonly")


async def test_sends_media_reads_each_sections_direction():
    assert signalling.sends_media(SENDING)
    assert not signalling.sends_media(RECEIVING)
    assert signalling.sends_media(SENDING.replace("a=sendrecv\r\n", ""))  # none: sendrecv
    assert not signalling.sends_media(SENDING.replace("m=audio 9", "m=audio 0"))  # rejected
    session_default = "v=0\r\na=recvonly\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"
    assert not signalling.sends_media(session_default)
    second_sends = RECEIVING + "m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=sendonly\r\n"
    assert signalling.sends_media(second_sends)
    assert not signalling.sends_media("v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n")


async def test_a_shadow_only_listens_in_the_call():
    """The server, not only the shadow's browser, keeps a shadow listen-only: its
    descriptions may receive media and never send any."""
    from interviews.services.stages import stage_shadow_join

    room, sockets = await _room_with("owner", "coach")
    await database_sync_to_async(stage_shadow_join)(stage=room["stage"], actor=room["other_coach"])
    shadow, connected, _ = await connect(room["stage"], room["other_coach"])
    assert connected
    await drain(shadow)
    await drain(sockets["owner"])

    sending = {"kind": "sdp", "target": "s1", "description": {"type": "answer", "sdp": SENDING}}
    await shadow.send_json_to({"type": "rtc.signal", "data": sending})
    frames = await drain(shadow)
    assert [f.get("code") for f in frames if f["type"] == "error"] == ["shadow_listen_only"]
    assert [m for m in await drain(sockets["owner"]) if m["type"] == "rtc.signal"] == []

    listening = {**sending, "description": {"type": "answer", "sdp": RECEIVING}}
    await shadow.send_json_to({"type": "rtc.signal", "data": listening})
    got = await receive_until(sockets["owner"], "rtc.signal")
    assert got["data"] == listening
    # The stage's own coach is not a shadow: it sends.
    await sockets["coach"].send_json_to({"type": "rtc.signal", "data": sending})
    assert (await receive_until(sockets["owner"], "rtc.signal"))["data"] == sending
    await shadow.disconnect()
    await _close(sockets)
