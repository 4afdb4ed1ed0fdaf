"""Open room sockets follow access changes.

A socket's rights (may it connect, may it see private events) are decided when it
connects. When they change later — a stage handed to another coach in the Django admin, a
stage or loop deleted, a user deactivated or given or taken the coach or admin role — the
sockets concerned are told, once the change commits, to check their access again; those
that lost it are closed with 4403 at once. Without this, a coach taken off a stage kept
receiving its coach notes and integrity signals until their socket happened to reconnect.

Changes made without model signals (`QuerySet.update()`) are not seen; a reconnect still
checks access.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from interviews.models import Stage

from .events import group_send_soon, stage_group

ACCESS_MESSAGE = {"type": "stage.access"}
# Saves that cannot change what a user may see: logging in stamps `last_login`.
HARMLESS_USER_FIELDS = {"last_login", "password"}


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def token_group(digest: str) -> str:
    """The sockets opened with one API token (`?token=`); a digest's prefix names it."""
    return f"token.{digest[:32]}"


def session_group(session_key: str) -> str:
    """The sockets opened with one browser session (its cookie)."""
    return f"session.{session_key}"


SIGNED_OUT_MESSAGE = {"type": "session.revoked"}


def signed_out(groups: Iterable[str]) -> None:
    """After commit, close every socket in `groups` with 4401: its token or session ended."""
    groups = sorted(set(groups))
    if groups:
        transaction.on_commit(lambda: [group_send_soon(g, SIGNED_OUT_MESSAGE) for g in groups])


def access_changed(groups: Iterable[str]) -> None:
    """After commit, ask every socket in `groups` to check its access again."""
    groups = sorted(set(groups))
    if groups:
        transaction.on_commit(lambda: [group_send_soon(g, ACCESS_MESSAGE) for g in groups])


def _stage_saved(sender: type, instance: Stage, created: bool, update_fields=None, **kw: Any):
    if created or (update_fields is not None and not {"coach", "coach_id"} & set(update_fields)):
        return
    access_changed([stage_group(instance.pk)])


def _stage_deleted(sender: type, instance: Stage, **kw: Any) -> None:
    access_changed([stage_group(instance.pk)])


def _user_saved(sender: type, instance: Any, created: bool, update_fields=None, **kw: Any):
    if created or (update_fields is not None and set(update_fields) <= HARMLESS_USER_FIELDS):
        return
    access_changed([user_group(instance.pk)])


def _user_deleted(sender: type, instance: Any, **kw: Any) -> None:
    access_changed([user_group(instance.pk)])


def _user_groups_changed(sender: type, instance: Any, action: str, reverse: bool, pk_set, **kw):
    """`user.groups.add(...)` (forward) or `group.user_set.add(...)` (reverse)."""
    if action not in ("post_add", "post_remove", "pre_clear"):
        return
    if not reverse:
        user_ids = [instance.pk]
    elif action == "pre_clear":
        user_ids = list(instance.user_set.values_list("pk", flat=True))
    else:
        user_ids = list(pk_set or ())
    access_changed(user_group(pk) for pk in user_ids)


def connect_signals() -> None:
    user_model = get_user_model()
    post_save.connect(_stage_saved, sender=Stage, dispatch_uid="room_access.stage_saved")
    post_delete.connect(_stage_deleted, sender=Stage, dispatch_uid="room_access.stage_deleted")
    post_save.connect(_user_saved, sender=user_model, dispatch_uid="room_access.user_saved")
    post_delete.connect(_user_deleted, sender=user_model, dispatch_uid="room_access.user_deleted")
    m2m_changed.connect(
        _user_groups_changed,
        sender=user_model.groups.through,
        dispatch_uid="room_access.user_groups",
    )
