"""Database calls of the live rooms: a small pool of threads per web process, each keeping
its connection between calls.

Channels' `database_sync_to_async` runs every consumer's ORM call of a process on one
thread (thread-sensitive) and closes "old" connections around each call, with
CONN_MAX_AGE=0 a new connection per websocket message (measured: ~1.8 ms of a 4.3 ms
code edit on SQLite; a new server process each on PostgreSQL). One thread made every
room of a process wait on every other room's writes: past ~150 rooms a burst of work
queued faster than it drained and latency grew without bound (issue #15). Here the calls
share ROOM_DB_THREADS threads (settings; room calls touch no thread-bound state, and the
batched edit log keeps writes few, so SQLite's single writer is waited for, not
contended); a connection is closed when an error left it unusable, and every thread's
when the process's last socket leaves (`room_connections_close`).
"""

import asyncio
import concurrent.futures
import logging
import threading

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def room_threads() -> int:
    return max(1, int(getattr(settings, "ROOM_DB_THREADS", 4)))


def _room_pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=room_threads(), thread_name_prefix="room-db"
                )
    return _pool


class RoomDatabaseSyncToAsync(SyncToAsync):
    """`database_sync_to_async` for room traffic: on the room pool, keeping connections."""

    def __init__(self, func, thread_sensitive: bool = False, executor=None) -> None:
        super().__init__(func, thread_sensitive=False, executor=executor)

    async def __call__(self, *args, **kwargs):
        if self._executor is None:  # settings are read at the first call, not at import
            self._executor = _room_pool()
        return await super().__call__(*args, **kwargs)

    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            for conn in connections.all(initialized_only=True):
                if conn.connection is not None and conn.errors_occurred:
                    if conn.is_usable():
                        conn.errors_occurred = False
                    else:
                        conn.close()


room_db = RoomDatabaseSyncToAsync


async def room_connections_close() -> None:
    """Close the connection of every room thread: each runs one close, then waits at a
    barrier so that it takes no second one (at most a few seconds if a thread is busy)."""
    pool, count = _room_pool(), room_threads()
    barrier = threading.Barrier(count, timeout=5)

    def close() -> None:
        connections.close_all()
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            logger.info("a room thread was busy while the room connections were closed")

    await asyncio.gather(*(asyncio.wrap_future(pool.submit(close)) for _ in range(count)))
