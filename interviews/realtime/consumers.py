"""The live room: one websocket consumer per stage at `/ws/stages/{id}/`.

Thin by design: authenticate, authorise with the same selectors as the API (refused →
close 4403), join the stage's group, hand client messages to services, and forward group
events — dropping private ones (coach notes, integrity signals) for anyone who may not
see them. The protocol is documented in docs/events.md.
"""

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from interviews import selectors
from interviews.models import Stage
from interviews.roles import role_of
from interviews.services import documents, live
from interviews.services.errors import DomainError

from .events import event_message, stage_group

logger = logging.getLogger(__name__)

REFUSED = 4403
RESYNC_BATCH = 500


class StageConsumer(AsyncJsonWebsocketConsumer):
    stage_id: int
    private_ok: bool = False
    is_candidate: bool = False

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.stage_id = int(self.scope["url_route"]["kwargs"]["stage_id"])
        access = await self._access()
        if access is None:
            await self.close(code=REFUSED)
            return
        self.private_ok, self.is_candidate, self.role = access
        self.group = stage_group(self.stage_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        hello = await self._hello()
        await self.send_json(hello)
        await self._call(live.presence_change, user=self.user, role=self.role, joined=True)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
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
        if event.get("private") and not self.private_ok:
            return
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
    def _missed(self, after: int) -> list[dict]:
        stage = Stage.objects.select_related("loop").get(pk=self.stage_id)
        events = selectors.stage_events_for(self.user, stage, after=after)[:RESYNC_BATCH]
        return [event_message(event) for event in events]

    async def _resync(self, after) -> None:
        if not isinstance(after, int) or after < 0:
            await self._error("`after` must be a non-negative sequence number.")
            return
        while True:
            batch = await self._missed(after)
            for event in batch:
                await self.send_json(event)
            if len(batch) < RESYNC_BATCH:
                break
            after = batch[-1]["seq"]
        await self.send_json(
            {"type": "resync.done", "last_seq": batch[-1]["seq"] if batch else after}
        )

    async def _error(self, detail: str, *, errors: dict | None = None, ref=None) -> None:
        await self.send_json(
            {"type": "error", "detail": detail, "errors": errors or {}, "ref": ref}
        )
