"""Accounts: signing up candidates and issuing API tokens."""

import re
import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from knox.models import AuthToken

from interviews.realtime.access import session_group, signed_out, token_group

from .errors import InvalidInput

#: ASCII characters that read as another one; a new name may not differ from a taken one
#: only by these (nor by case). Other scripts are not allowed in new names at all.
LOOKALIKES = ("o0", "l1i", "s5", "b8")
_LOOKALIKE_CLASS = {char: f"[{group}]" for group in LOOKALIKES for char in group}


def username_normalise(username: str) -> str:
    """NFKC, as Django stores names: full-width "ｃｏａｃｈ" is "coach". Signup and login both
    look names up this way."""
    return unicodedata.normalize("NFKC", username)


def username_lookalike_pattern(username: str) -> str:
    """A case-insensitive regex matching every name that reads as `username`: "coach_rt"
    matches "c0ach_rt" and "COACH_RT"."""
    return "^" + "".join(_LOOKALIKE_CLASS.get(c, re.escape(c)) for c in username.lower()) + "$"


def _username_errors(User, username: str) -> list[str]:
    """Why a new account may not have `username` (normalised already), if it may not.

    New names are ASCII (letters, digits and @ . + - _): a Cyrillic "с" in "сoach_rt" is
    indistinguishable from the Latin "c" of "coach_rt" on screen, and the ASCII set needs
    no confusables table to compare (docs/decisions.md, "Usernames")."""
    try:
        User._meta.get_field(User.USERNAME_FIELD).run_validators(username)
        ASCIIUsernameValidator()(username)
    except DjangoValidationError as exc:
        return list(exc.messages)
    if User.objects.filter(username__iregex=username_lookalike_pattern(username)).exists():
        return ["A user with that username (or one that looks the same) already exists."]
    return []


@transaction.atomic
def user_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    """Create a candidate (no group, not staff). Usernames are NFKC-normalised, ASCII, and
    unique by how they read: "Alice" cannot impersonate "alice", nor "c0ach" "coach"."""
    User = get_user_model()
    username = username_normalise(username)
    errors: dict[str, list[str]] = {}
    username_errors = _username_errors(User, username)
    if username_errors:
        errors["username"] = username_errors
    if email:
        try:
            validate_email(email)
        except DjangoValidationError as exc:
            errors["email"] = list(exc.messages)
    try:
        validate_password(password, user=User(username=username, email=email))
    except DjangoValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise InvalidInput("The account could not be created.", errors=errors)
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # a concurrent signup took the name
        raise InvalidInput(
            "The account could not be created.",
            errors={"username": ["A user with that username already exists."]},
        ) from exc


@transaction.atomic
def auth_token_issue(*, user: AbstractBaseUser) -> str:
    """A new API token for this login (knox: stored as a digest, expiring after
    REST_KNOX["TOKEN_TTL"]); returns the key, which only the caller ever sees. The user's
    expired tokens are cleared on the way."""
    AuthToken.objects.filter(user=user, expiry__lte=timezone.now()).delete()
    _, key = AuthToken.objects.create(user=user)
    return key


@transaction.atomic
def auth_sign_out(*, token: AuthToken | None = None, session_key: str | None = None) -> None:
    """Logout: revoke the token the request came with (other logins' tokens stay), and
    close the room sockets opened with that token or that browser session (4401)."""
    groups = []
    if token is not None:
        groups.append(token_group(token.digest))
        AuthToken.objects.filter(digest=token.digest).delete()
    if session_key:
        groups.append(session_group(session_key))
    signed_out(groups)
