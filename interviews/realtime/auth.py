"""Websocket authentication: the session cookie (Channels' AuthMiddlewareStack), or
`?token=<key>` for scripts, checked against the API's tokens (django-rest-knox).

A token socket carries its token's digest in `scope["auth_token_digest"]` (the consumer
joins that token's group, so logout with the token closes it); an expired token leaves
`scope["auth_token_expired"]` set, and the consumer closes with 4401 instead of 4403.
"""

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from interviews.auth import TokenExpired, token_with_user


@database_sync_to_async
def _scope_for_token(key: str) -> dict:
    try:
        token = token_with_user(key)
    except TokenExpired:
        return {"user": AnonymousUser(), "auth_token_expired": True}
    if token is None or not token.user.is_active:
        return {"user": AnonymousUser()}
    return {"user": token.user, "auth_token_digest": token.digest}


class TokenAuthMiddleware:
    """Sets `scope["user"]` from `?token=` when present; otherwise leaves the session's."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode())
        key = (query.get("token") or [""])[0]
        if key:
            scope = dict(scope, **await _scope_for_token(key))
        return await self.app(scope, receive, send)


def AuthStack(app):  # noqa: N802 - mirrors Channels' AuthMiddlewareStack naming
    return AuthMiddlewareStack(TokenAuthMiddleware(app))
