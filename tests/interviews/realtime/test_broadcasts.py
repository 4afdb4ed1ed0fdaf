"""Broadcasts from synchronous code (events._Sender) on the real Redis layer: a burst goes
out in a few pipelined round trips, in order, and nothing queued is lost."""

import threading
import time

import pytest
import redis
from redis.asyncio.connection import AbstractConnection

from interviews.realtime import events
from interviews.realtime.layers import RedisChannelLayer

pytestmark = pytest.mark.integration

GROUP = "stage.test-broadcast-burst"


def _redis_url(settings) -> str:
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis that make test starts")
    return settings.REDIS_URL


def _received(url: str, layer: RedisChannelLayer, count: int, subscribed) -> list[int]:
    """The `n` of the next `count` messages on GROUP's channel, in arrival order."""
    out: list[int] = []
    deadline = time.monotonic() + 10
    while len(out) < count and time.monotonic() < deadline:
        message = subscribed.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            out.append(layer.deserialize(message["data"])["n"])
    return out


def _subscribe(url: str, layer: RedisChannelLayer):
    pubsub = redis.Redis.from_url(url).pubsub()
    pubsub.subscribe(f"asgi__group__{GROUP}")
    pubsub.get_message(timeout=1)  # the subscribe confirmation
    return pubsub


def test_a_burst_queued_at_once_is_written_in_one_round_trip_in_order(settings, monkeypatch):
    """The room log's flush broadcasts a room's worth of events at once: they must not go
    out one round trip each (a follow-up committed just after them waited for them all)."""
    url = _redis_url(settings)
    layer = RedisChannelLayer(hosts=[url])
    sender = events._Sender()
    subscribed = _subscribe(url, layer)
    loop = sender._running_loop()
    sender.group_send(layer, GROUP, {"type": "stage.event", "n": -1})  # connects
    assert sender.flush(10)
    assert _received(url, layer, 1, subscribed) == [-1]

    writes = 0
    send_packed = AbstractConnection.send_packed_command

    async def counted(self, *args, **kwargs):
        nonlocal writes
        writes += 1
        return await send_packed(self, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    gate = threading.Event()
    loop.call_soon_threadsafe(gate.wait, 10)  # hold the sender's loop while the burst queues
    for n in range(200):
        sender.group_send(layer, GROUP, {"type": "stage.event", "n": n})
    gate.set()
    assert sender.flush(10)
    assert _received(url, layer, 200, subscribed) == list(range(200))
    assert writes <= 2, f"{writes} writes to Redis for a burst of 200 broadcasts"


def test_sends_past_one_batch_keep_their_order(settings):
    url = _redis_url(settings)
    layer = RedisChannelLayer(hosts=[url])
    sender = events._Sender()
    subscribed = _subscribe(url, layer)
    count = 3 * events.SEND_BATCH_MAX + 7
    for n in range(count):
        sender.group_send(layer, GROUP, {"type": "stage.event", "n": n})
    assert sender.flush(10)
    assert _received(url, layer, count, subscribed) == list(range(count))
