"""Websocket authentication: the session cookie (Channels' AuthMiddlewareStack), or
`?token=<key>` for scripts, checked against DRF's token table."""

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from interviews.auth import token_with_user


@database_sync_to_async
def _user_for_token(key: str):
    token = token_with_user(key)
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


class TokenAuthMiddleware:
    """Sets `scope["user"]` from `?token=` when present; otherwise leaves the session's."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode())
        key = (query.get("token") or [""])[0]
        if key:
            scope = dict(scope, user=await _user_for_token(key))
        return await self.app(scope, receive, send)


def AuthStack(app):  # noqa: N802 - mirrors Channels' AuthMiddlewareStack naming
    return AuthMiddlewareStack(TokenAuthMiddleware(app))
