"""The live room: one websocket consumer per stage at `/ws/stages/{id}/`.

Thin by design: authenticate, authorise with the same selectors as the API (refused →
close 4403), join the stage's group, hand client messages to services, and forward group
events — dropping private ones (coach notes, integrity signals) for anyone who may not
see them. The protocol is documented in docs/events.md.

Delivery is exactly once and in `seq` order per socket, whatever Redis does: the consumer
keeps a cursor (the last `seq` this socket has been given or has skipped as private),
drops group messages at or below it (already sent by a resync or a catch-up) and, when a
message arrives past a gap (a lost or overtaken broadcast), first sends the gap from the
database. A watcher per web process catches sockets up from the database when the log
moved past their cursor without a broadcast — one lost while Redis was down or restarting,
or the last one before a quiet spell, which no later message reveals as a gap. (Group
membership itself survives a Redis restart: see layers.py.)
"""

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext as _

from interviews.auth import user_with_role
from interviews.i18n import socket_language, to_django
from interviews.models import Stage, StageEvent
from interviews.roles import role_of
from interviews.selectors.access import can_drive_stage, can_see_private, is_stage_owner
from interviews.selectors.stages import stage_events_for, stage_for
from interviews.services import documents, live
from interviews.services.documents import NAME_RE
from interviews.services.errors import DomainError, InvalidInput
from mockloop.bounded_json import JsonTooDeep, json_loads_bounded
from mockloop.observability import RELAYS_SHED, WEBSOCKET_MESSAGES, WEBSOCKETS

from .access import session_group, token_group, user_group
from .events import event_message, stage_group
from .limits import UNKNOWN_TYPE, MessageGate, UserChatThrottle
from .roomdb import room_connections_close, room_db
from .roomlog import PendingEdit, room_log
from .signalling import rtc_signal_relay

logger = logging.getLogger(__name__)

REFUSED = 4403
SIGNED_OUT = 4401  # the socket's token or session ended (logout, expiry): sign in again
POLICY_VIOLATION = 1008  # RFC 6455: kept sending what the limits refuse
UNSUPPORTED_DATA = 1003  # RFC 6455: a binary frame (the protocol is JSON text)
INVALID_DATA = 1007  # RFC 6455: text that is not JSON we accept
RESYNC_BATCH = 500
WATCH_S = 5.0
#: A relayed edit or cursor older than this when its viewer's turn comes is dropped: the
#: room is behind (its process or the viewer's link cannot keep up), the logged
#: `doc.update` brings the same edit, and sending stale relays only deepens the backlog.
RELAY_STALE_S = 1.0


class RoomWatcher:
    """One per event loop: every WATCH_S (±20%, so processes started together do not query
    in step), one query for the newest `seq` of every stage with a socket here; sockets
    still behind what the previous pass saw catch up from the log. A socket only just
    behind is left alone: its broadcast is usually on the way (the room log writes edits
    in batches, so the log is often a few milliseconds ahead of the group). Runs while the
    loop has sockets.
    """

    def __init__(self) -> None:
        self.consumers: set[StageConsumer] = set()
        self.task: asyncio.Task | None = None
        self.visits: set[asyncio.Task] = set()
        self.seen: dict[int, int] = {}  # stage → newest seq at the previous pass

    def add(self, consumer: "StageConsumer") -> None:
        self.consumers.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def discard(self, consumer: "StageConsumer") -> None:
        self.consumers.discard(consumer)
        if not self.consumers:
            if self.task is not None:
                self.task.cancel()
                self.task = None
            self.seen = {}
            await room_connections_close()

    async def _run(self) -> None:
        while self.consumers:
            await asyncio.sleep(WATCH_S * random.uniform(0.8, 1.2))
            try:
                await self.check()
            except Exception:
                logger.warning("room watcher pass failed", exc_info=True)

    async def check(self) -> None:
        consumers = list(self.consumers)
        newest = await _newest_seqs({consumer.stage_id for consumer in consumers})
        seen, self.seen = self.seen, newest
        for consumer in consumers:
            if min(seen.get(consumer.stage_id, 0), newest.get(consumer.stage_id, 0)) > (
                consumer.cursor
            ):
                visit = asyncio.create_task(consumer.catch_up())
                self.visits.add(visit)
                visit.add_done_callback(self.visits.discard)


_watchers: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RoomWatcher]" = (
    weakref.WeakKeyDictionary()
)


def room_watcher() -> RoomWatcher:
    loop = asyncio.get_running_loop()
    if loop not in _watchers:
        _watchers[loop] = RoomWatcher()
    return _watchers[loop]


@room_db
def _newest_seqs(stage_ids: set[int]) -> dict[int, int]:
    rows = (
        StageEvent.objects.filter(stage_id__in=stage_ids)
        .values("stage_id")
        .annotate(newest=Max("seq"))
        .values_list("stage_id", "newest")
    )
    return dict(rows)


class StageConsumer(AsyncJsonWebsocketConsumer):
    stage_id: int
    private_ok: bool = False
    is_candidate: bool = False
    cursor: int = 0  # every event up to here was sent (or skipped as private)
    floor: int = 0  # ...and those after here were sent on this connection
    _watched: bool = False
    credential_group: str | None = None  # the token's or session's (logout closes it)
    _present: bool = False  # joined the room's presence, and the leave is not recorded yet
    refused: bool = False  # closed for lost access: relays no more
    language: str = "en"  # the language of its error frames (i18n.socket_language)

    async def __call__(self, scope, receive, send) -> None:
        self._delivery = asyncio.Lock()
        self.gate = MessageGate()
        self.editable: set[str] = set()  # documents this socket was found allowed to edit
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the socket ended — a clean close, a handler's exception, a cancelled
            # task — the room records the leave (else it shows a ghost for good).
            await self._leave()
            await self._unwatch()

    async def dispatch(self, message: dict) -> None:
        # Channels' own dispatch first hops to the ORM thread to close "old" connections —
        # with CONN_MAX_AGE=0, the connection our previous call left open — for every
        # message: a reconnect per keystroke (a new server process each on PostgreSQL), and
        # live deliveries queued behind other sockets' writes. Our ORM calls look after
        # their connection themselves (room_db).
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.stage_id = int(self.scope["url_route"]["kwargs"]["stage_id"])
        access = await self._access()
        if access is None:
            # Accept, then close: a refused handshake reaches a browser only as 1006, which
            # a client cannot tell from a network blip (and would retry forever).
            await self.accept()
            await self.close(code=SIGNED_OUT if self.scope.get("auth_token_expired") else REFUSED)
            return
        self.private_ok, self.is_candidate, self.role, self.listen_only = access
        self.group = stage_group(self.stage_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.user_group = user_group(self.user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        self.credential_group = self._credential_group()
        if self.credential_group:
            await self.channel_layer.group_add(self.credential_group, self.channel_name)
        await self.accept()
        WEBSOCKETS.inc()
        # Join first, so `hello.last_seq` covers our own presence event and a resync after
        # an older seq answers everything in order.
        await self._call(live.presence_change, user=self.user, role=self.role, joined=True)
        self._present = True
        hello = await self._hello()
        self.cursor = self.floor = hello["last_seq"]
        await self.send_json(hello)
        room_watcher().add(self)
        self._watched = True

    async def disconnect(self, code: int) -> None:
        await self._leave()
        await self._unwatch()

    async def _leave(self) -> None:
        """Leave the groups and record the presence leave, once per socket."""
        if not getattr(self, "group", None):
            return
        group, self.group = self.group, None
        WEBSOCKETS.dec()
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
            if self.credential_group:
                await self.channel_layer.group_discard(self.credential_group, self.channel_name)
        except Exception:  # Redis may be gone: channels-redis expires the membership
            logger.info("could not leave the groups of stage %s", self.stage_id)
        try:  # this socket's edits go into the log before its leave does
            await room_log().flush(self.stage_id)
        except Exception:
            logger.info("could not log the last edits of stage %s", self.stage_id)
        if self._present:
            self._present = False
            try:
                await self._call(live.presence_change, user=self.user, role=self.role, joined=False)
            except Exception:  # the database may be gone; presence is advisory
                logger.info("could not record presence leave for stage %s", self.stage_id)

    async def _unwatch(self) -> None:
        if self._watched:
            self._watched = False
            await room_watcher().discard(self)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """Frames that are not JSON text close the socket with a reason: there is no
        message to answer, and a client sending them is broken."""
        if text_data is None:
            await self.close(code=UNSUPPORTED_DATA, reason="Messages are JSON text, not binary.")
            return
        try:
            content = json_loads_bounded(text_data)
        except JsonTooDeep:
            await self.close(code=INVALID_DATA, reason="The JSON is nested too deeply.")
            return
        except ValueError:
            await self.close(code=INVALID_DATA, reason="Messages are JSON.")
            return
        await self.receive_json(content, size=len(text_data.encode()))

    async def receive_json(self, content, size: int = 0, **kwargs) -> None:
        # Refusals are sentences a person reads: in this socket's language (its `?lang=`,
        # the user's choice, the browser's), as the API's errors are.
        with translation.override(to_django(self.language)):
            await self._receive(content, size)

    async def _receive(self, content, size: int) -> None:
        if not isinstance(content, dict):
            await self._error(_("Messages are JSON objects with a `type`."))
            return
        kind = content.get("type")
        handler = CLIENT_HANDLERS.get(kind) if isinstance(kind, str) else None
        WEBSOCKET_MESSAGES.labels(kind if handler is not None else "other").inc()
        refusal = self.gate.admit(kind if handler is not None else UNKNOWN_TYPE, size)
        if refusal is not None:
            if refusal.close:
                await self.close(code=POLICY_VIOLATION, reason=refusal.detail)
                return
            await self._error(refusal.detail, code=refusal.code, ref=content.get("ref"))
            return
        if handler is None:
            await self._error(
                _("Unknown message type %(kind)s.") % {"kind": repr(kind)}, ref=content.get("ref")
            )
            return
        try:
            await handler(self, content)
        except DomainError as exc:
            await self._error(exc.message, errors=exc.errors, code=exc.code, ref=content.get("ref"))

    # --- client messages (CLIENT_HANDLERS; declared in event_types.CLIENT_MESSAGES) ---

    async def on_resync(self, content: dict) -> None:
        await self._resync(content.get("after", 0))

    async def on_doc_update(self, content: dict) -> None:
        """Relay first, log in batches (roomlog.py): an edit this socket may make goes to
        the room's other sockets at once, and into the room log's next batch. Whether the
        sender may edit the document is checked against the database once per document
        (again after the stage or the user changed): the keystrokes after it cost none."""
        name, update = content.get("doc"), content.get("update")
        edit = documents.document_edit_parse(name=name, update_b64=update)
        if edit.name not in self.editable:
            await self._edit_check(edit.name)
            self.editable.add(edit.name)
        message = {
            "type": "doc.relay",
            "user": self.user.get_username(),
            "doc": edit.name,
            "update": edit.update_b64,
        }
        try:
            await self.channel_layer.group_send(self.group, self._relay(message))
        except Exception:  # Redis is away: the room gets the edit from the log instead
            logger.info("stage %s: could not relay an edit", self.stage_id)
        ref = content.get("ref")
        room_log().add(
            self.stage_id,
            PendingEdit(
                actor=self.user,
                edit=edit,
                sender=weakref.ref(self),
                refs=[] if ref is None else [ref],
            ),
        )

    async def edits_saved(self, refs: list, seq: int) -> None:
        """The room log wrote edits this socket sent (roomlog.EditSender)."""
        if not self.refused:
            await self.send_json({"type": "doc.saved", "refs": refs, "saved_seq": seq})

    async def edits_refused(self, refs: list, error: DomainError) -> None:
        """The room log refused edits this socket sent (the stage ended meanwhile, say)."""
        self.editable.clear()
        for ref in refs or [None]:
            await self._error(error.message, errors=error.errors, code=error.code, ref=ref)

    async def on_chat(self, content: dict) -> None:
        if not await self._chat_allowed():
            await self._error(
                _("You sent too many chat messages; wait a little."),
                code="chat_rate_limited",
                ref=content.get("ref"),
            )
            return
        await self._call(live.chat_post, author=self.user, text=content.get("text"))

    async def on_integrity(self, content: dict) -> None:
        await self._call(
            live.integrity_record,
            actor=self.user,
            kind=content.get("kind"),
            amount=content.get("amount"),
        )

    async def on_cursor(self, content: dict) -> None:
        """Relayed to the room's other sockets, never logged; anything but a document name
        and two offsets is refused, never passed on."""
        message = cursor_message(self.user.get_username(), content)
        await self.channel_layer.group_send(self.group, self._relay(message))

    def _relay(self, message: dict) -> dict:
        """The group message relaying `message` to the room's other sockets, stamped with
        when it was sent (wall clock: the room's sockets may be in other processes)."""
        return {
            "type": "stage.ephemeral",
            "sender": self.channel_name,
            "message": message,
            "sent_at": time.time(),
        }

    async def on_rtc_signal(self, content: dict) -> None:
        """Call signalling (realtime/signalling.py): relayed to the room's other sockets,
        or only to the user named `to`; never logged, never echoed. Its budget is the
        `rtc.signal` entry of realtime/limits.py."""
        to, message = rtc_signal_relay(
            sender=self.user.get_username(),
            to=content.get("to"),
            data=content.get("data"),
            listen_only=self.listen_only,
        )
        await self.channel_layer.group_send(
            self.group,
            {"type": "stage.rtc_signal", "sender": self.channel_name, "to": to, "message": message},
        )

    async def on_ping(self, content: dict) -> None:
        await self.send_json({"type": "pong", "ref": content.get("ref")})

    # --- group messages ----------------------------------------------------------------

    async def stage_event(self, message: dict) -> None:
        event = message["event"]
        async with self._delivery:
            seq = event["seq"]
            if seq <= self.cursor:
                return  # sent already, by a resync or a catch-up
            if seq > self.cursor + 1:
                await self._send_missed(until=seq - 1)
            self.cursor = seq
            if not event.get("private") or self.private_ok:
                await self.send_json(event)
        if event["type"] == "stage.status":  # edits open or close: check them again
            self.editable.clear()
            await room_log().flush(self.stage_id)

    async def stage_access(self, message: dict) -> None:
        """The stage or this user changed (see access.py): check again, as a new socket
        would be checked, and close with 4403 if access is gone. Run in turn with the
        socket's other messages on purpose: an event sent after the change waits for the
        check, so a coach taken off the stage gets none."""
        self.editable.clear()
        access = await self._access(reload_user=True)
        if access is None:
            self.refused = True
            await self.close(code=REFUSED)
            return
        self.private_ok, self.is_candidate, self.role, self.listen_only = access

    async def session_revoked(self, message: dict) -> None:
        """Logout with this socket's token or session (realtime/access.py: signed_out)."""
        self.refused = True
        await self.close(code=SIGNED_OUT, reason="Signed out.")

    def _credential_group(self) -> str | None:
        """The group of what this socket was opened with: its token, else its session."""
        digest = self.scope.get("auth_token_digest")
        if digest:
            return token_group(digest)
        session = self.scope.get("session")
        key = getattr(session, "session_key", None) if session is not None else None
        return session_group(key) if key else None

    async def stage_ephemeral(self, message: dict) -> None:
        """A relay (`doc.relay`, `cursor`) from another socket of the room; dropped once
        stale (RELAY_STALE_S), so a room past capacity sheds relays instead of queueing
        them without bound."""
        if message.get("sender") == self.channel_name or self.refused:
            return
        sent_at = message.get("sent_at")
        if sent_at is not None and time.time() - sent_at > RELAY_STALE_S:
            RELAYS_SHED.inc()
            return
        await self.send_json(message["message"])

    async def stage_rtc_signal(self, message: dict) -> None:
        """A call signal for this socket's user: not our own, and for us or for everyone."""
        if message["sender"] == self.channel_name or self.refused:
            return
        if message["to"] is not None and message["to"] != self.user.get_username():
            return
        await self.send_json(message["message"])

    # --- helpers -----------------------------------------------------------------------

    @room_db
    def _access(self, *, reload_user: bool = False) -> tuple[bool, bool, str, bool] | None:
        """(private events?, the candidate?, role, listen-only?): a shadow — in the room
        but neither its candidate nor its coach — only listens in the call."""
        if self.user is None or not self.user.is_authenticated:
            return None
        if reload_user:  # its role is remembered on the object, and it may be deactivated
            fresh = user_with_role(self.user.pk)
            if fresh is None or not fresh.is_active:
                return None
            self.user = fresh
        self.language = socket_language(self.scope, self.user)
        try:
            stage = stage_for(self.user, self.stage_id)
        except DomainError:
            return None
        return (
            can_see_private(self.user, stage),
            is_stage_owner(self.user, stage),
            role_of(self.user),
            not can_drive_stage(self.user, stage),
        )

    @room_db
    def _edit_check(self, name: str) -> None:
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        documents.document_edit_check(stage=stage, actor=self.user, name=name)

    @room_db
    def _chat_allowed(self) -> bool:
        return UserChatThrottle().allows(self.user.pk)

    @room_db
    def _hello(self) -> dict:
        stage = Stage.objects.get(pk=self.stage_id)
        return {
            "type": "hello",
            "user": self.user.get_username(),
            "role": self.role,
            "last_seq": stage.last_seq,
            "presence": live.stage_presence(stage),
            "timer": live.timer_payload(stage, "hello"),
        }

    @room_db
    def _call(self, service, **kwargs):
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        return service(stage=stage, **kwargs)

    @room_db
    def _missed(self, after: int, until: int | None) -> tuple[list[dict], int]:
        """Events in (after, until] this user may see (at most a batch), and the `seq` up to
        which the log was read (`until` defaults to the log's end; private events are
        skipped, never sent)."""
        last = StageEvent.objects.filter(stage_id=self.stage_id).aggregate(m=Max("seq"))["m"] or 0
        upto = last if until is None else min(until, last)
        if upto <= after:
            return [], upto
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        events = stage_events_for(self.user, stage, after=after).filter(seq__lte=upto)
        batch = [event_message(event) for event in events[:RESYNC_BATCH]]
        if len(batch) == RESYNC_BATCH:
            upto = batch[-1]["seq"]
        return batch, upto

    async def _send_range(self, after: int, until: int | None = None) -> int:
        """Send the logged events after `after` (to `until`); returns the `seq` read up to."""
        while True:
            batch, upto = await self._missed(after, until)
            for event in batch:
                await self.send_json(event)
            if upto <= after or len(batch) < RESYNC_BATCH:
                return upto
            after = upto

    async def _send_missed(self, until: int | None = None) -> None:
        """Catch this socket up from the log; the caller holds `_delivery`."""
        self.cursor = max(self.cursor, await self._send_range(self.cursor, until))

    async def _resync(self, after) -> None:
        """Send every event after `after` that this connection has not sent yet: the ones
        before it joined (down to `after`), then whatever the log holds past the cursor. Live
        events sent since the `hello` are not repeated, so nothing arrives twice."""
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            await self._error(_("`after` must be a non-negative sequence number."))
            return
        async with self._delivery:
            if after < self.floor:
                await self._send_range(after, until=self.floor)
                self.floor = after
            read = await self._send_range(max(after, self.cursor))
            self.cursor = covered = max(self.cursor, read)
        await self.send_json({"type": "resync.done", "last_seq": covered})

    async def catch_up(self) -> None:
        """The watcher's visit: the log is past this socket's cursor."""
        try:
            async with self._delivery:
                await self._send_missed()
        except Exception:
            logger.warning("stage %s: catch-up failed", self.stage_id, exc_info=True)

    async def _error(
        self, detail: str, *, errors: dict | None = None, code: str = "invalid", ref=None
    ) -> None:
        """`code` as in the API's error bodies: the domain error's, else `invalid` (a
        message the protocol does not allow)."""
        await self.send_json(
            {"type": "error", "detail": detail, "errors": errors or {}, "code": code, "ref": ref}
        )


ClientHandler = Callable[[StageConsumer, dict], Awaitable[None]]

#: Client message type → handler; a new message type is one entry here (and its
#: declaration in event_types.CLIENT_MESSAGES). Anything else gets an `error`.
CLIENT_HANDLERS: dict[str, ClientHandler] = {
    "resync": StageConsumer.on_resync,
    "doc.update": StageConsumer.on_doc_update,
    "chat": StageConsumer.on_chat,
    "integrity": StageConsumer.on_integrity,
    "cursor": StageConsumer.on_cursor,
    "rtc.signal": StageConsumer.on_rtc_signal,
    "ping": StageConsumer.on_ping,
}


#: Largest cursor offset: well past any document a stage allows (code is 64 KiB).
CURSOR_MAX_OFFSET = 10_000_000
CURSOR_KEYS = {"type", "doc", "anchor", "head", "ref"}


def cursor_message(user: str, content: dict) -> dict:
    """The `cursor` relayed for `content`, which must be `{doc, anchor, head}`: a document
    name of the stage's kinds and two offsets in range (the frame is also size-capped)."""
    errors: dict[str, list[str]] = {}
    unknown = sorted(set(content) - CURSOR_KEYS)
    for key in unknown:
        errors[key] = ["Unknown field."]
    doc = content.get("doc")
    if not isinstance(doc, str) or not NAME_RE.match(doc):
        errors["doc"] = ["A document name such as code:<question>."]
    for key in ("anchor", "head"):
        value = content.get(key)
        if type(value) is not int or not 0 <= value <= CURSOR_MAX_OFFSET:
            errors[key] = [f"An offset from 0 to {CURSOR_MAX_OFFSET}."]
    if errors:
        raise InvalidInput(_("Not a cursor."), errors=errors, code="invalid_cursor")
    return {
        "type": "cursor",
        "user": user,
        "doc": doc,
        "anchor": content["anchor"],
        "head": content["head"],
    }
