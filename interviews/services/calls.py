"""The live rooms' calls: the ICE servers a browser connects through.

STUN and TURN addresses come from settings; TURN credentials are issued per request in
coturn's shared-secret REST scheme ("TURN REST API", `use-auth-secret` in turnserver.conf):
the username is `expiry:user_id` and the password base64(HMAC-SHA1(secret, username)), so
coturn checks them without a database and refuses them after `expiry` (a Unix time). A
leaked credential is therefore good for at most RTC_TURN_TTL seconds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import TYPE_CHECKING, NotRequired, TypedDict

from django.conf import settings

from interviews.access import access_call_relay

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

#: Seconds since the epoch, as coturn reads the expiry (a name of its own, for tests).
clock = time.time


class IceServer(TypedDict):
    """One entry of RTCConfiguration.iceServers."""

    urls: list[str]
    username: NotRequired[str]
    credential: NotRequired[str]


class IceServers(TypedDict):
    ice_servers: list[IceServer]
    ttl: int


def turn_credential(*, secret: str, username: str) -> str:
    """coturn's REST-API password for `username`: base64(HMAC-SHA1(secret, username))."""
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def call_ice_servers_issue(
    *, actor: AbstractBaseUser | AnonymousUser | None, now: float | None = None
) -> IceServers:
    """The STUN servers, and the TURN servers with credentials for `actor` that expire
    `RTC_TURN_TTL` seconds from `now`."""
    access_call_relay(actor)
    ttl = settings.RTC_TURN_TTL
    servers: list[IceServer] = []
    if settings.RTC_STUN_URLS:
        servers.append({"urls": list(settings.RTC_STUN_URLS)})
    if settings.RTC_TURN_URLS:
        expiry = int(clock() if now is None else now) + ttl
        username = f"{expiry}:{actor.pk}"
        servers.append(
            {
                "urls": list(settings.RTC_TURN_URLS),
                "username": username,
                "credential": turn_credential(secret=settings.RTC_TURN_SECRET, username=username),
            }
        )
    return {"ice_servers": servers, "ttl": ttl}
