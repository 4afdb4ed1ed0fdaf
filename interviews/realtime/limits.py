"""What one socket may send: a size and a rate per client message type, in one table.

The REST API's throttles never saw the websocket: 200 chats and ten 130 KB document
updates in 6.8 s were all accepted and stored, and `cursor` relayed a megabyte of JSON.
Every client message now passes `MessageGate.admit` before its handler runs: a frame over
its type's `max_bytes`, or past its type's token bucket (`burst` messages, refilled at
`per_s`; `doc.update` also by bytes), gets an `error` with the limit's code. A socket that
keeps going after many refusals is closed with 1008 (policy violation). A type added to
the consumer's CLIENT_HANDLERS without an entry here gets DEFAULT_LIMIT.

Chat counts against the same per-user throttle as `POST /stages/{id}/chat/` (scope
`chat`, in the cache), so a socket is no way round the REST limit; the socket's own
bucket comes first and needs no round trip.

Buckets are hand-written (docs/decisions.md, "Call signalling"): a counter per socket in
memory, where a rate-limit library would bring storage back-ends this does not need.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from redis.exceptions import RedisError
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from interviews.services.documents import MAX_UPDATE_BYTES

from .signalling import RTC_SIGNAL_BURST, RTC_SIGNAL_MAX_BYTES, RTC_SIGNAL_PER_S

KIB = 1024
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MessageLimit:
    """`max_bytes`: the frame as sent (JSON text); `burst`/`per_s`: messages; `bytes_burst`
    / `bytes_per_s`: optionally, the frames' total size too."""

    burst: int
    per_s: float
    max_bytes: int
    code: str = "message_rate_limited"
    bytes_burst: int | None = None
    bytes_per_s: float | None = None


#: A document update is base64 in JSON: 4/3 of the update plus the envelope.
DOC_UPDATE_FRAME_BYTES = MAX_UPDATE_BYTES * 4 // 3 + 1 * KIB

MESSAGE_LIMITS: dict[str, MessageLimit] = {
    "resync": MessageLimit(burst=10, per_s=1, max_bytes=1 * KIB),
    # Typing sends an update per keystroke (a few per second; a paste is one large one):
    # a long paste every few seconds passes, a stream of 130 KB updates does not.
    "doc.update": MessageLimit(
        burst=60,
        per_s=20,
        max_bytes=DOC_UPDATE_FRAME_BYTES,
        code="doc_update_rate_limited",
        bytes_burst=DOC_UPDATE_FRAME_BYTES + 64 * KIB,
        bytes_per_s=16 * KIB,
    ),
    "chat": MessageLimit(burst=10, per_s=1, max_bytes=8 * KIB, code="chat_rate_limited"),
    "integrity": MessageLimit(burst=20, per_s=1, max_bytes=1 * KIB),
    "cursor": MessageLimit(burst=40, per_s=20, max_bytes=512, code="cursor_rate_limited"),
    "rtc.signal": MessageLimit(
        burst=RTC_SIGNAL_BURST,
        per_s=RTC_SIGNAL_PER_S,
        max_bytes=RTC_SIGNAL_MAX_BYTES + 4 * KIB,
        code="rtc_signal_rate_limited",
    ),
    "ping": MessageLimit(burst=10, per_s=1, max_bytes=1 * KIB),
}
DEFAULT_LIMIT = MessageLimit(burst=10, per_s=1, max_bytes=4 * KIB)
#: Frames of an unknown `type` (each answered with an `error`) are limited as one type.
UNKNOWN_TYPE = "?"
#: Refusals a socket may collect (refilled at ABUSE_PER_S) before it is closed with 1008.
ABUSE_BURST = 100
ABUSE_PER_S = 1.0


def limit_for(kind: str) -> MessageLimit:
    return MESSAGE_LIMITS.get(kind, DEFAULT_LIMIT)


@dataclass
class TokenBucket:
    """`take(n)` spends `n` tokens if there are that many; refills at `per_s` up to `burst`."""

    burst: float
    per_s: float
    tokens: float | None = None  # full
    at: float | None = None  # now
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        if self.tokens is None:
            self.tokens = self.burst
        if self.at is None:
            self.at = self.clock()

    def take(self, amount: float = 1) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_s)
        self.at = now
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True


@dataclass(frozen=True)
class Refusal:
    """Why a frame was not handled: `code` for the `error` frame; `close` when the socket
    has been refused so often that it is closed (1008)."""

    code: str
    detail: str
    close: bool = False


class MessageGate:
    """One socket's budgets, one bucket per message type (made on first use)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.messages: dict[str, TokenBucket] = {}
        self.bytes: dict[str, TokenBucket] = {}
        self.refusals = TokenBucket(ABUSE_BURST, ABUSE_PER_S, clock=clock)

    def admit(self, kind: str, size: int) -> Refusal | None:
        """None if a `kind` frame of `size` bytes may be handled now."""
        limit = limit_for(kind)
        refusal = None
        if size > limit.max_bytes:
            refusal = Refusal(
                "message_too_large",
                _("A %(kind)s message is at most %(bytes)s bytes.")
                % {"kind": kind, "bytes": limit.max_bytes},
            )
        elif not self._bucket(self.messages, kind, limit.burst, limit.per_s).take():
            refusal = Refusal(
                limit.code, _("Too many %(kind)s messages; slow down.") % {"kind": kind}
            )
        elif limit.bytes_burst is not None and not self._bucket(
            self.bytes, kind, limit.bytes_burst, limit.bytes_per_s or 0
        ).take(size):
            refusal = Refusal(
                limit.code, _("Too much %(kind)s data at once; slow down.") % {"kind": kind}
            )
        if refusal is not None and not self.refusals.take():
            return Refusal("abusive", _("Too many refused messages."), close=True)
        return refusal

    def _bucket(self, buckets: dict, kind: str, burst: float, per_s: float) -> TokenBucket:
        if kind not in buckets:
            buckets[kind] = TokenBucket(burst, per_s, clock=self.clock)
        return buckets[kind]


class UserChatThrottle(SimpleRateThrottle):
    """The REST chat throttle's counter (ScopedRateThrottle, scope `chat`, keyed by user id),
    spent from the socket: the same cache key, so both paths share one limit."""

    scope = "chat"

    def __init__(self) -> None:  # the rate is read per call (settings overrides)
        pass

    def allows(self, user_id: int) -> bool:
        """Spend one chat of `user_id`'s; fails open when the cache is unreachable, as the
        REST throttle does (the socket's own bucket still holds)."""
        try:
            return self._allows(user_id)
        except (RedisError, OSError):
            logger.warning("chat throttle skipped: cache unreachable", exc_info=True)
            return True

    def _allows(self, user_id: int) -> bool:
        self.rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.cache_format % {"scope": self.scope, "ident": user_id}
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return False
        return self.throttle_success()
