"""Roles (contract): `is_staff` → admin; member of group `coach` → coach; else candidate."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

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


def is_admin(user) -> bool:
    return role_of(user) == ADMIN


def is_coach(user) -> bool:
    return role_of(user) == COACH
