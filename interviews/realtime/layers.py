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
"""

from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class RedisChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args, hosts=None, **kwargs) -> None:
        retry = {"retry_on_error": [RedisConnectionError, RedisTimeoutError]}
        hosts = [{**retry, **host} for host in decode_hosts(hosts)]
        super().__init__(*args, hosts=hosts, **kwargs)
