"""The Redis cache keeps its connections across requests."""

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches

from mockloop.cache import SharedRedisCache


def _redis_url(settings) -> str:
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis that make test starts")
    return settings.REDIS_URL


def _connections_received(url: str) -> int:
    return redis.Redis.from_url(url).info("stats")["total_connections_received"]


@pytest.mark.integration
def test_cache_objects_share_one_pool_of_connections(settings):
    """Under ASGI Django builds a cache object per request; 50 of them used in turn must
    not open 50 Redis connections (Django's own backend does)."""
    url = _redis_url(settings)
    before = _connections_received(url)
    for n in range(50):
        cache = SharedRedisCache(url, {})
        cache.set(f"test-cache-{n}", n, 30)
        assert cache.get(f"test-cache-{n}") == n
    opened = _connections_received(url) - before - 1  # minus the counting connection
    assert opened <= 2, f"{opened} connections for 50 cache objects"


@pytest.mark.integration
def test_each_request_context_gets_the_shared_client(settings):
    settings.CACHES = {
        "default": {"BACKEND": "mockloop.cache.SharedRedisCache", "LOCATION": _redis_url(settings)}
    }

    async def a_request():  # a new context, as each ASGI request has
        return await sync_to_async(lambda: caches["default"])()

    first, second = asyncio.run(a_request()), asyncio.run(a_request())
    assert first is not second  # Django's handler did build two cache objects ...
    assert first._cache is second._cache  # ... that share one client
    assert first._cache.get_client() is second._cache.get_client(write=True)
