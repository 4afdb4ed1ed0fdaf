"""Roles (contract): `is_staff` → admin; member of group `coach` → coach; else candidate."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.db.models import Exists, OuterRef

ADMIN = "admin"
COACH = "coach"
CANDIDATE = "candidate"
COACH_GROUP = "coach"


def role_of(user: AbstractBaseUser | AnonymousUser) -> str | None:
    if not user or not user.is_authenticated:
        return None
    if user.is_staff:
        return ADMIN
    # Cache on the user object: role checks happen several times per request.
    cached = getattr(user, "_mockloop_role", None)
    if cached is None:
        cached = COACH if user.groups.filter(name=COACH_GROUP).exists() else CANDIDATE
        user._mockloop_role = cached
    return cached


def with_coach_flag(rows, user_field: str = "pk"):
    """`rows` annotated with `user_is_coach`, for `remember_role`: authentication loads the
    user this way, so the role check every request makes costs no query of its own."""
    return rows.annotate(
        user_is_coach=Exists(Group.objects.filter(name=COACH_GROUP, user=OuterRef(user_field)))
    )


def remember_role(user: AbstractBaseUser, is_coach: bool) -> None:
    """What `role_of` would find (admins are told by `is_staff` alone)."""
    user._mockloop_role = COACH if is_coach else CANDIDATE
