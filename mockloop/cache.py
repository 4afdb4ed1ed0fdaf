"""Django's Redis cache backend, with one client (and connection pool) per process.

Under ASGI, Django's cache handler builds a new cache object for every request context,
and each of Django's `RedisCache` objects makes its own connection pool: every request
that touched the cache (throttles, the bank cache of stage detail) opened, and dropped,
a fresh Redis connection. Here every cache object with the same servers and options
shares one client, whose pool keeps its connections; redis-py pools are thread-safe and
reset themselves in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property


class _PooledClient(RedisCacheClient):
    """Django's client, minus building a `redis.Redis` object on every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedRedisCache(RedisCache):
    _shared: ClassVar[dict[str, RedisCacheClient]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _PooledClient

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = repr((self._servers, sorted(self._options.items())))
        with self._lock:
            client = self._shared.get(key)
            if client is None:
                client = self._shared[key] = self._class(self._servers, **self._options)
            return client
