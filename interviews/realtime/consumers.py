"""The live room: one websocket consumer per stage at `/ws/stages/{id}/`.

Thin by design: authenticate, authorise with the same selectors as the API (refused →
close 4403), join the stage's group, hand client messages to services, and forward group
events — dropping private ones (coach notes, integrity signals) for anyone who may not
see them. The protocol is documented in docs/events.md.

Delivery is exactly once and in `seq` order per socket, whatever Redis does: the consumer
keeps a cursor (the last `seq` this socket has been given or has skipped as private),
drops group messages at or below it (already sent by a resync or a catch-up) and, when a
message arrives past a gap (a lost or overtaken broadcast), first sends the gap from the
database. A heartbeat re-joins the group — Redis forgets group membership when it restarts
without persistence — and catches up from the database if the log moved past the cursor
(events whose broadcast was lost, for example while Redis was down).
"""

import asyncio
import logging
import random

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db.models import Max

from interviews import selectors
from interviews.models import Stage, StageEvent
from interviews.roles import role_of
from interviews.services import documents, live
from interviews.services.errors import DomainError
from mockloop.observability import WEBSOCKET_MESSAGES, WEBSOCKETS

from .events import event_message, stage_group
from .layers import LAYER_ERRORS

logger = logging.getLogger(__name__)

REFUSED = 4403
RESYNC_BATCH = 500
HEARTBEAT_S = 5.0
GROUP_MESSAGES = {"stage.event": "stage_event", "stage.ephemeral": "stage_ephemeral"}
KNOWN_TYPES = {"resync", "doc.update", "chat", "integrity", "cursor", "ping"}


class StageConsumer(AsyncJsonWebsocketConsumer):
    stage_id: int
    private_ok: bool = False
    is_candidate: bool = False
    cursor: int = 0
    _heartbeat: asyncio.Task | None = None

    async def __call__(self, scope, receive, send) -> None:
        self._delivery = asyncio.Lock()
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self._heartbeat is not None:
                self._heartbeat.cancel()

    async def dispatch(self, message: dict) -> None:
        # Group messages touch no database. Channels' own dispatch first hops to the ORM
        # thread to close stale connections, which would queue every live delivery behind
        # other sockets' writes; our ORM calls close them anyway (database_sync_to_async).
        handler = GROUP_MESSAGES.get(message.get("type"))
        if handler is not None:
            await getattr(self, handler)(message)
        else:
            await super().dispatch(message)

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.stage_id = int(self.scope["url_route"]["kwargs"]["stage_id"])
        access = await self._access()
        if access is None:
            # Accept, then close: a refused handshake reaches a browser only as 1006, which
            # a client cannot tell from a network blip (and would retry forever).
            await self.accept()
            await self.close(code=REFUSED)
            return
        self.private_ok, self.is_candidate, self.role = access
        self.group = stage_group(self.stage_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        WEBSOCKETS.inc()
        hello = await self._hello()
        self.cursor = hello["last_seq"]
        await self.send_json(hello)
        await self._call(live.presence_change, user=self.user, role=self.role, joined=True)
        self._heartbeat = asyncio.create_task(self._keep_in_room())

    async def disconnect(self, code: int) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if getattr(self, "group", None):
            WEBSOCKETS.dec()
            await self.channel_layer.group_discard(self.group, self.channel_name)
            try:
                await self._call(live.presence_change, user=self.user, role=self.role, joined=False)
            except Exception:  # the database may be gone on shutdown; presence is advisory
                logger.info("could not record presence leave for stage %s", self.stage_id)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict):
            await self._error("Messages are JSON objects with a `type`.")
            return
        kind = content.get("type")
        WEBSOCKET_MESSAGES.labels(kind if kind in KNOWN_TYPES else "other").inc()
        try:
            if kind == "resync":
                await self._resync(content.get("after", 0))
            elif kind == "doc.update":
                await self._call(
                    documents.document_update_apply,
                    actor=self.user,
                    name=content.get("doc"),
                    update_b64=content.get("update"),
                )
            elif kind == "chat":
                await self._call(live.chat_post, author=self.user, text=content.get("text"))
            elif kind == "integrity":
                await self._call(
                    live.integrity_record,
                    actor=self.user,
                    kind=content.get("kind"),
                    amount=content.get("amount"),
                )
            elif kind == "cursor":
                await self.channel_layer.group_send(
                    self.group,
                    {
                        "type": "stage.ephemeral",
                        "sender": self.channel_name,
                        "message": {
                            "type": "cursor",
                            "user": self.user.get_username(),
                            "doc": str(content.get("doc", ""))[:64],
                            "anchor": content.get("anchor"),
                            "head": content.get("head"),
                        },
                    },
                )
            elif kind == "ping":
                await self.send_json({"type": "pong", "ref": content.get("ref")})
            else:
                await self._error(f"Unknown message type {kind!r}.", ref=content.get("ref"))
        except DomainError as exc:
            await self._error(exc.message, errors=exc.errors, ref=content.get("ref"))

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

    async def stage_ephemeral(self, message: dict) -> None:
        if message.get("sender") != self.channel_name:
            await self.send_json(message["message"])

    # --- helpers -----------------------------------------------------------------------

    @database_sync_to_async
    def _access(self) -> tuple[bool, bool, str] | None:
        if self.user is None or not self.user.is_authenticated:
            return None
        try:
            stage = selectors.stage_for(self.user, self.stage_id)
        except DomainError:
            return None
        return (
            selectors.can_see_private(self.user, stage),
            selectors.is_stage_owner(self.user, stage),
            role_of(self.user),
        )

    @database_sync_to_async
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

    @database_sync_to_async
    def _call(self, service, **kwargs):
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        return service(stage=stage, **kwargs)

    @database_sync_to_async
    def _missed(self, after: int, until: int | None) -> tuple[list[dict], int]:
        """Events in (after, until] this user may see, at most a batch, and the `seq` the
        batch covers (`until` defaults to the stage's last; private events are skipped)."""
        last = StageEvent.objects.filter(stage_id=self.stage_id).aggregate(m=Max("seq"))["m"] or 0
        upto = last if until is None else min(until, last)
        if upto <= after:
            return [], after
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        events = selectors.stage_events_for(self.user, stage, after=after).filter(seq__lte=upto)
        batch = [event_message(event) for event in events[:RESYNC_BATCH]]
        if len(batch) == RESYNC_BATCH:
            upto = batch[-1]["seq"]
        return batch, upto

    async def _send_range(self, after: int, until: int | None = None) -> int:
        """Send the logged events after `after` (to `until`); returns the `seq` covered."""
        while True:
            batch, upto = await self._missed(after, until)
            for event in batch:
                await self.send_json(event)
            if upto == after or len(batch) < RESYNC_BATCH:
                return upto
            after = upto

    async def _send_missed(self, until: int | None = None) -> None:
        """Catch this socket up from the log; the caller holds `_delivery`."""
        self.cursor = max(self.cursor, await self._send_range(self.cursor, until))

    async def _resync(self, after) -> None:
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            await self._error("`after` must be a non-negative sequence number.")
            return
        async with self._delivery:
            covered = await self._send_range(after)
            self.cursor = max(self.cursor, covered)
        await self.send_json({"type": "resync.done", "last_seq": covered})

    async def _keep_in_room(self) -> None:
        """Heartbeat: re-join the group (lost if Redis restarted) and catch up from the log
        (broadcasts lost while Redis was away). Jittered so sockets do not beat together."""
        while True:
            await asyncio.sleep(HEARTBEAT_S * random.uniform(0.8, 1.2))
            try:
                await self.channel_layer.group_add(self.group, self.channel_name)
            except LAYER_ERRORS:
                logger.info("stage %s: channel layer down; serving from the log", self.stage_id)
            try:
                async with self._delivery:
                    await self._send_missed()
            except Exception:
                logger.warning("stage %s: catch-up failed", self.stage_id, exc_info=True)

    async def _error(self, detail: str, *, errors: dict | None = None, ref=None) -> None:
        await self.send_json(
            {"type": "error", "detail": detail, "errors": errors or {}, "ref": ref}
        )
