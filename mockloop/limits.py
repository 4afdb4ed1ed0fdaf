"""A cap on request bodies, applied before Django reads them.

Django's ASGI handler reads a whole request body (spooling it to a temporary file past
`FILE_UPLOAD_MAX_MEMORY_SIZE`) before any view runs or `DATA_UPLOAD_MAX_MEMORY_SIZE` is
checked, and uvicorn sets no limit of its own: without this, one anonymous request could
write gigabytes to the web host's disk. Bodies over `REQUEST_BODY_MAX_BYTES` (the bank
import's cap plus room for multipart framing: the largest body any view accepts) get a
413 at once, by their `Content-Length` or as soon as a streamed body passes the cap; the
views' own, smaller caps still apply below it.
"""

from __future__ import annotations

import json


class _TooLarge(Exception):
    pass


class RequestBodyLimit:
    """ASGI middleware for the `http` scope; other scopes pass through untouched."""

    def __init__(self, app, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        received = 0
        started = False

        async def capped_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracking_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, capped_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        mib = self.max_bytes / (1024 * 1024)
        detail = f"The request body is over {mib:g} MiB."
        body = json.dumps({"detail": detail, "errors": {}, "code": "too_large"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
