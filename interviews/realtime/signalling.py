"""Call signalling (WebRTC) over the live room's socket (DESIGN.md, "Call signalling").

A participant's `rtc.signal` (an SDP offer or answer, an ICE candidate, mute state) is
relayed as it is to the room's other connected sockets, or only to the user it names; it
is never logged (a call's setup is no part of the interview's record) and carries no
`seq`. Who may signal is who may be in the room: the consumer's access check at connect,
and again whenever access changes (realtime/access.py), is the rule — a stranger's socket
is closed with 4403 before it can send anything.

Each socket has its own budget (the `rtc.signal` entry of realtime/limits.py), so one
runaway client cannot flood the others: a burst of `RTC_SIGNAL_BURST` messages (an offer
and its ICE candidates, an ICE restart's), refilled at `RTC_SIGNAL_PER_S`; `data` is capped
at `RTC_SIGNAL_MAX_BYTES` as JSON.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from interviews.services.errors import InvalidInput, NotAllowed, TooLarge

RTC_SIGNAL_MAX_BYTES = 64 * 1024
RTC_SIGNAL_BURST = 50
RTC_SIGNAL_PER_S = 20.0
USERNAME_MAX = 150


def rtc_signal_relay(
    *, sender: str, to: Any, data: Any, listen_only: bool = False
) -> tuple[str | None, dict[str, Any]]:
    """Check a client's `rtc.signal` and build what its recipients receive: the one user it
    is for (None: everyone else in the room) and the message `{type, from, data}`. A
    listen-only sender (a shadow) may describe only media it receives."""
    if to is not None and (not isinstance(to, str) or not 0 < len(to) <= USERNAME_MAX):
        raise InvalidInput(
            _("`to` names one user of the room."), errors={"to": [_("Not a username.")]}
        )
    if not isinstance(data, dict):
        raise InvalidInput(_("`data` is a JSON object."), errors={"data": [_("Not an object.")]})
    size = len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    if size > RTC_SIGNAL_MAX_BYTES:
        raise TooLarge(
            _("Call signals are at most %(kib)s KiB.") % {"kib": RTC_SIGNAL_MAX_BYTES // 1024},
            errors={"data": [_("%(size)s bytes.") % {"size": size}]},
            code="rtc_signal_too_large",
        )
    if listen_only and data.get("kind") == "sdp":
        description = data.get("description")
        sdp = description.get("sdp") if isinstance(description, dict) else None
        if not isinstance(sdp, str) or sends_media(sdp):
            raise NotAllowed(
                _("A shadow listens in the call: it sends no audio or video."),
                code="shadow_listen_only",
            )
    return to, {"type": "rtc.signal", "from": sender, "data": data}


def sends_media(sdp: str) -> bool:
    """Whether an SDP offers or accepts to send audio or video: an `m=audio`/`m=video`
    section whose direction is sendrecv or sendonly (sendrecv when it states none,
    RFC 8866 §6.7) and whose port is not 0 (a rejected section sends nothing)."""
    sending = False
    in_media = False
    session_direction = direction = "sendrecv"  # a session-level line sets the default
    seen_media = False
    for line in sdp.splitlines():
        line = line.strip()
        if line.startswith("m="):
            sending = sending or (in_media and direction in ("sendrecv", "sendonly"))
            kind, _, rest = line[2:].partition(" ")
            port = rest.split(" ", 1)[0]
            in_media = kind in ("audio", "video") and port != "0"
            direction = session_direction
            seen_media = True
        elif line in ("a=sendrecv", "a=sendonly", "a=recvonly", "a=inactive"):
            direction = line[2:]
            if not seen_media:
                session_direction = direction
    return sending or (in_media and direction in ("sendrecv", "sendonly"))
