"""Per-socket limits of client messages (interviews/realtime/limits.py): the red team's
floods, replayed — 200 chats, ten 130 KB document updates, a 1 MB cursor."""

import json

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from rest_framework.test import APIClient

from interviews.models import StageEvent
from interviews.realtime import consumers, limits
from interviews.realtime.limits import DEFAULT_LIMIT, MessageGate
from tests.interviews.realtime.test_consumer import _yjs_update, connect, drain, make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


@database_sync_to_async
def logged(stage, type_: str) -> int:
    return StageEvent.objects.filter(stage=stage, type=type_).count()


async def frames_until_quiet(communicator) -> list[dict]:
    """Every frame until the socket is quiet or closed (a close is `{"close": code}`)."""
    frames = []
    while not await communicator.receive_nothing(timeout=0.3):
        output = await communicator.receive_output()
        if output["type"] == "websocket.close":
            frames.append({"close": output["code"], "reason": output.get("reason", "")})
            break
        frames.append(json.loads(output["text"]))
    return frames


async def test_two_hundred_chats_are_not_all_stored():
    """The attack: 200 chats in a few seconds were all accepted and stored."""
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    for index in range(200):
        await candidate.send_json_to({"type": "chat", "text": f"spam {index}"})
    frames = await frames_until_quiet(candidate)
    stored = await logged(room["stage"], "chat")
    assert stored <= limits.MESSAGE_LIMITS["chat"].burst + 2
    codes = {frame.get("code") for frame in frames if frame.get("type") == "error"}
    assert codes == {"chat_rate_limited"}
    # ...and a socket that keeps going after 100 refusals is closed as abusive
    assert frames[-1]["close"] == consumers.POLICY_VIOLATION


async def test_chat_on_the_socket_shares_the_rest_chat_limit(settings):
    """The socket is no way round `POST /stages/{id}/chat/`'s throttle: one counter."""
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], chat="3/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    room = await make_room()
    client = APIClient()
    client.force_authenticate(user=room["owner"])
    url = f"/api/v1/stages/{room['stage'].pk}/chat/"
    for _ in range(2):
        response = await database_sync_to_async(client.post)(url, {"text": "rest"}, format="json")
        assert response.status_code == 201
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    await candidate.send_json_to({"type": "chat", "text": "third"})
    await candidate.send_json_to({"type": "chat", "text": "fourth"})
    frames = await frames_until_quiet(candidate)
    assert [f["text"] for f in frames if f["type"] == "chat"] == ["third"]
    assert [f["code"] for f in frames if f["type"] == "error"] == ["chat_rate_limited"]
    assert await logged(room["stage"], "chat") == 3
    await candidate.disconnect()


async def test_ten_130_kb_document_updates_are_not_all_stored():
    """The attack: ten 130 KB `doc.update`s in 6.8 s were all accepted and stored."""
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    name = f"code:{room['question'].pk}"
    for index in range(10):
        update = _yjs_update(f"{index}" + "x" * 130_000)
        await candidate.send_json_to({"type": "doc.update", "doc": name, "update": update})
    frames = await frames_until_quiet(candidate)
    stored = await logged(room["stage"], "doc.update")
    assert 1 <= stored <= 3
    errors = [f for f in frames if f.get("type") == "error"]
    assert len(errors) == 10 - stored
    assert {e["code"] for e in errors} == {"doc_update_rate_limited"}
    await candidate.disconnect()


async def test_small_edits_at_typing_speed_all_pass():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    await drain(candidate)
    name = f"code:{room['question'].pk}"
    for index in range(30):
        update = _yjs_update(f"k{index}")
        await candidate.send_json_to({"type": "doc.update", "doc": name, "update": update})
    frames = await frames_until_quiet(candidate)
    assert [f for f in frames if f.get("type") == "error"] == []
    assert await logged(room["stage"], "doc.update") == 30
    await candidate.disconnect()


async def test_a_one_megabyte_cursor_is_refused_not_relayed():
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)
    name = f"code:{room['question'].pk}"
    huge = {"type": "cursor", "doc": name, "anchor": 1, "head": 2, "junk": "x" * 1_000_000}
    await candidate.send_json_to(huge)
    frames = await frames_until_quiet(candidate)
    assert [f["code"] for f in frames if f.get("type") == "error"] == ["message_too_large"]
    assert await drain(coach) == []
    await candidate.disconnect()
    await coach.disconnect()


@pytest.mark.parametrize(
    "cursor, field",
    [
        ({"doc": "code:1", "anchor": 1, "head": 2, "extra": {"a": [1]}}, "extra"),
        ({"doc": "<script>", "anchor": 1, "head": 2}, "doc"),
        ({"doc": "code:1", "anchor": -1, "head": 2}, "anchor"),
        ({"doc": "code:1", "anchor": 1, "head": 10**12}, "head"),
        ({"doc": "code:1", "anchor": "1", "head": 2}, "anchor"),
        ({"doc": "code:1", "anchor": 1}, "head"),
    ],
    ids=["unknown-key", "bad-doc", "negative", "huge", "string", "missing"],
)
async def test_malformed_cursors_are_refused_not_relayed(cursor, field):
    room = await make_room()
    candidate, _, _ = await connect(room["stage"], room["owner"])
    coach, _, _ = await connect(room["stage"], room["coach"])
    await drain(candidate)
    await drain(coach)
    await candidate.send_json_to({"type": "cursor", **cursor})
    frames = await frames_until_quiet(candidate)
    errors = [f for f in frames if f.get("type") == "error"]
    assert [e["code"] for e in errors] == ["invalid_cursor"]
    assert field in errors[0]["errors"]
    assert await drain(coach) == []
    name = f"code:{room['question'].pk}"
    await candidate.send_json_to({"type": "cursor", "doc": name, "anchor": 3, "head": 5})
    relayed = await drain(coach)
    assert relayed == [
        {"type": "cursor", "user": room["owner"].username, "doc": name, "anchor": 3, "head": 5}
    ]
    await candidate.disconnect()
    await coach.disconnect()


async def test_a_message_type_without_an_entry_gets_the_default_limit():
    """A type another slice adds to CLIENT_HANDLERS is limited from its first day."""
    now = [0.0]
    gate = MessageGate(clock=lambda: now[0])
    admitted = [gate.admit("coach.tool", 10) is None for _ in range(DEFAULT_LIMIT.burst + 1)]
    assert admitted == [True] * DEFAULT_LIMIT.burst + [False]
    assert gate.admit("coach.tool", DEFAULT_LIMIT.max_bytes + 1).code == "message_too_large"
    now[0] += 1 / DEFAULT_LIMIT.per_s
    assert gate.admit("coach.tool", 10) is None


async def test_the_shared_chat_throttle_fails_open_when_the_cache_is_down(monkeypatch):
    """As the REST throttle: a Redis restart must not drop every socket that chats."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    def down(*args, **kwargs):
        raise RedisConnectionError("cache down")

    monkeypatch.setattr(limits.UserChatThrottle.cache, "get", down)
    assert limits.UserChatThrottle().allows(1) is True
