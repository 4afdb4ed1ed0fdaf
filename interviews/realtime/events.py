"""The one way to emit a stage event: append a `StageEvent` with the next gap-free `seq`
and, once the transaction commits, send it to the stage's channel group.

Event schema (`type` → payload keys) is documented in `docs/events.md`.
"""

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F, Max

from interviews.models import Stage, StageEvent

logger = logging.getLogger(__name__)


def stage_group(stage_id: int) -> str:
    return f"stage.{stage_id}"


@transaction.atomic
def emit(
    stage: Stage | int,
    type: str,
    payload: dict[str, Any] | None = None,
    *,
    actor=None,
    private: bool = False,
) -> StageEvent:
    """Append an event to the stage's log and broadcast it after commit.

    Concurrent emitters serialise on the stage row's lock, so numbers never collide and
    never leave gaps.
    """
    stage_id = stage if isinstance(stage, int) else stage.pk
    # The UPDATE takes the row's write lock first (on SQLite, the database's), so the
    # read below cannot race another emitter. The log itself is the truth for `seq`: a
    # stale `Stage.save()` that rewrote `last_seq` cannot make numbers collide.
    Stage.objects.filter(pk=stage_id).update(last_seq=F("last_seq") + 1)
    last = StageEvent.objects.filter(stage_id=stage_id).aggregate(m=Max("seq"))["m"] or 0
    seq = last + 1
    Stage.objects.filter(pk=stage_id).update(last_seq=seq)
    event = StageEvent.objects.create(
        stage_id=stage_id,
        seq=seq,
        type=type,
        payload=payload or {},
        actor=actor if actor is not None and getattr(actor, "is_authenticated", False) else None,
        private=private,
    )
    transaction.on_commit(lambda: _broadcast(event))
    return event


def event_message(event: StageEvent) -> dict[str, Any]:
    """The wire form of an event, as sent over websockets and returned by replay."""
    return {
        "type": event.type,
        "seq": event.seq,
        "at": event.created_at.isoformat(),
        "actor": event.actor.username if event.actor_id and event.actor else None,
        "private": event.private,
        **event.payload,
    }


def _broadcast(event: StageEvent) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            stage_group(event.stage_id),
            {"type": "stage.event", "event": event_message(event)},
        )
    except Exception:  # the log is the source of truth; clients resync from it
        logger.warning(
            "broadcast of stage %s event %s failed", event.stage_id, event.seq, exc_info=True
        )
