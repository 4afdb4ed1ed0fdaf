"""Django's ASGI handler, running the whole middleware chain and view in one thread, and
reusing that thread (and its database connection) for later requests.

Every middleware and view here is synchronous, but Django's `ASGIHandler` builds its
chain for async: each `MiddlewareMixin` then runs its `process_request` and
`process_response` through `sync_to_async`, and a sync-only middleware (WhiteNoise, ours)
hops back to the event loop with `async_to_sync` — a dozen thread hops per request, each
waiting on an event loop that is busy with other requests. Here the chain is built for
sync and a request makes one hop: into a worker thread, where it runs as under WSGI.

Django gives every request a `ThreadSensitiveContext`, so that the request's signals,
view and `response.close()` share one thread (and its database connections); by default
that context starts a new thread per request and joins it after, and on SQLite the new
thread opens a new connection (PRAGMAs, Django's SQL functions). Profiled under
`bench/api.py`, thread start and join were ~10% of a stage-detail request's CPU and the
SQLite connection ~9%. Here each request borrows an idle single-thread executor from a
per-process pool for its context (asgiref's `ThreadSensitiveContext(executor=...)`), with
the same one-thread-per-request guarantee, and on SQLite the thread keeps its connection
between requests (`CONN_MAX_AGE`, with health checks), as the Celery workers do. On
PostgreSQL the connection pool already reuses connections, and is left alone.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpRequest, HttpResponseBase

#: Idle request threads a process keeps; more may run at once (one per request in
#: flight), and those beyond this end when their request does.
IDLE_THREADS_MAX = 32
#: How long a request thread keeps its SQLite connection (seconds).
SQLITE_CONN_MAX_AGE_S = 600


class _RequestThread(ThreadPoolExecutor):
    """One thread; knows whether work it was given is still running (a request whose
    client went away may leave its view running after the handler returned)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="http")
        self._pending = 0
        self._pending_lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future:
        with self._pending_lock:
            self._pending += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future) -> None:
        with self._pending_lock:
            self._pending -= 1

    @property
    def idle(self) -> bool:
        with self._pending_lock:
            return self._pending == 0


class RequestThreads:
    """A process's idle request threads, most recently used first (its connection is
    the most likely to be warm)."""

    def __init__(self, idle_max: int = IDLE_THREADS_MAX) -> None:
        self.idle_max = idle_max
        self._idle: list[_RequestThread] = []
        self._lock = threading.Lock()

    def lease(self) -> _RequestThread:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return _RequestThread()

    def release(self, thread: _RequestThread) -> None:
        """Back to the pool if it is idle and there is room, else it ends (after any
        work it still has)."""
        if thread.idle:
            with self._lock:
                if len(self._idle) < self.idle_max:
                    self._idle.append(thread)
                    return
        thread.shutdown(wait=False)


def _keep_sqlite_connections() -> None:
    """Request threads live on, so their SQLite connections may too (the settings dict is
    shared by every thread's connection of the alias)."""
    for alias in connections:
        settings_dict = connections.settings[alias]
        if settings_dict["ENGINE"].endswith("sqlite3") and not settings_dict["CONN_MAX_AGE"]:
            settings_dict["CONN_MAX_AGE"] = SQLITE_CONN_MAX_AGE_S
            settings_dict["CONN_HEALTH_CHECKS"] = True


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.threads = RequestThreads()
        _keep_sqlite_connections()

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self.threads.lease()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            self.threads.release(thread)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
