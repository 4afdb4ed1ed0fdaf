"""Django's ASGI handler, running the whole middleware chain and view in one thread.

Every middleware and view here is synchronous, but Django's `ASGIHandler` builds its
chain for async: each `MiddlewareMixin` then runs its `process_request` and
`process_response` through `sync_to_async`, and a sync-only middleware (WhiteNoise, ours)
hops back to the event loop with `async_to_sync` — a dozen thread hops per request, each
waiting on an event loop that is busy with other requests. Here the chain is built for
sync and a request makes one hop: into a worker thread, where it runs as under WSGI.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
