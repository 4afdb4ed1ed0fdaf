"""The channel layer: channels-redis over Redis pub/sub.

Why pub/sub rather than channels-redis's list-based `RedisChannelLayer`:

- Cost. A group send is one PUBLISH, and each web process fans a message out to its own
  sockets in memory. The list-based layer pays about four Redis round trips per group send
  plus four per message received, per socket — most of a live room's cost under load
  (bench/live.py).
- Redis restarts. The list-based layer keeps group membership in Redis, which a restart
  without persistence forgets (sockets silently stop receiving), and it raises a dropped
  connection into whichever consumer is receiving, closing that socket, then the next.
  Here membership lives in the web process; redis-py re-subscribes when it reconnects, and
  a consumer's receive never touches Redis.

Pub/sub delivers at most once and stores nothing. That is all a live room needs: the
stage's event log is the truth, and consumers read from it whatever they did not get —
published while Redis was away, or lost otherwise (see consumers.StageConsumer).

Pooled connections retry a command once on a fresh connection, so the first send after a
Redis restart does not fail on a connection the restart closed.

`group_send_many` writes several group sends in one round trip (a pipeline of PUBLISHes
per shard, under the shard's own lock, so they keep their order with its other sends):
the broadcasts of synchronous code go out this way in bursts (events._Sender). It reaches
into channels-redis's shard connection (`_lock`, `_ensure_redis`, `_redis`; 4.3), which
has no batch call of its own; tests/interviews/realtime/test_broadcasts.py pins it.
"""

from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class RedisChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args, hosts=None, **kwargs) -> None:
        retry = {"retry_on_error": [RedisConnectionError, RedisTimeoutError]}
        hosts = [{**retry, **host} for host in decode_hosts(hosts)]
        super().__init__(*args, hosts=hosts, **kwargs)

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Send `(group, message)` pairs in order: one pipelined round trip per shard."""
        layer = self._get_layer()
        by_shard: dict[int, tuple[Any, list[tuple[str, bytes]]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(id(shard), (shard, []))[1].append(
                (channel, self.serialize(message))
            )
        for shard, items in by_shard.values():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()
