"""Accounts: signing up candidates, issuing API tokens, changing and resetting passwords."""

import re
import unicodedata
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from knox.models import AuthToken

from interviews.i18n import active_language, language_of
from interviews.realtime.access import session_group, signed_out, token_group

from .email_verification import email_mark_verified, email_verification_send, verification_mode
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
    elif verification_mode() == "mandatory":
        errors["email"] = ["An email address is needed to confirm the account."]
    try:
        validate_password(password, user=User(username=username, email=email))
    except DjangoValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise InvalidInput(_("The account could not be created."), errors=errors)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # a concurrent signup took the name
        raise InvalidInput(
            _("The account could not be created."),
            errors={"username": [_("A user with that username already exists.")]},
        ) from exc
    email_verification_send(user)
    return user


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


def _tokens_revoke(*, user: AbstractBaseUser, keep_digest: str | None = None) -> None:
    """Delete the user's API tokens (all but `keep_digest`) and, after commit, close the room
    sockets opened with them (4401). Sessions need no sweep: Django stores a hash of the
    password in each one, so a new password ends the others on their next request."""
    tokens = AuthToken.objects.filter(user=user)
    if keep_digest is not None:
        tokens = tokens.exclude(digest=keep_digest)
    digests = list(tokens.values_list("digest", flat=True))
    tokens.delete()
    signed_out(token_group(digest) for digest in digests)


def _new_password_check(user: AbstractBaseUser, new_password: str) -> None:
    try:
        validate_password(new_password, user=user)
    except DjangoValidationError as exc:
        raise InvalidInput(
            _("The new password is not accepted."),
            errors={"new_password": list(exc.messages)},
            code="password_rejected",
        ) from exc


@transaction.atomic
def password_change(
    *,
    user: AbstractBaseUser,
    current_password: str,
    new_password: str,
    keep_token: AuthToken | None = None,
) -> None:
    """A signed-in user sets a new password, proving they know the current one (a borrowed,
    unlocked browser must not be enough). Every other login ends: their tokens are revoked
    and their sessions no longer match the password; `keep_token` (the caller's own) stays.
    """
    if not user.is_authenticated or not user.check_password(current_password):
        raise InvalidInput(
            _("The current password is wrong."),
            errors={"current_password": [_("The current password is wrong.")]},
            code="wrong_password",
        )
    _new_password_check(user, new_password)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    _tokens_revoke(user=user, keep_digest=keep_token.digest if keep_token else None)


def password_reset_link(user: AbstractBaseUser) -> str:
    """The SPA's reset page for `user`, with Django's signed one-use token: it hashes the
    password and last login, so it stops working once used, and after
    PASSWORD_RESET_TIMEOUT."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    query = urlencode({"uid": uid, "token": token})
    return f"{settings.MOCKLOOP_PUBLIC_URL}/reset-password?{query}"


def password_reset_request(*, email: str) -> None:
    """Mail a reset link to each active account with this address (none: nothing happens,
    and the caller says the same either way, so the form does not tell who has an
    account). Accounts without a usable password (made by an admin for SSO) get none."""
    User = get_user_model()
    users = User._default_manager.filter(email__iexact=email.strip(), is_active=True)
    for user in users:
        if not user.has_usable_password() or not user.email:
            continue
        link = password_reset_link(user)
        # The recipient's language; if they never chose one, the asker's (most likely them).
        with language_of(user, fallback=active_language()):
            subject = _("Reset your Mockloop password")
            body = _(
                "Hello %(name)s,\n\n"
                "Someone (we hope you) asked to reset the password of your Mockloop account.\n"
                "Choose a new one here:\n\n%(link)s\n\n"
                "The link works once and expires in %(hours)s hours. If you did not ask, "
                "ignore this mail: your password stays as it is.\n"
            ) % {
                "name": user.get_username(),
                "link": link,
                "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
            }
        send_mail(subject=subject, message=body, from_email=None, recipient_list=[user.email])


def _reset_user(uid: str, token: str) -> AbstractBaseUser:
    User = get_user_model()
    try:
        pk = force_str(urlsafe_base64_decode(uid))
        user = User._default_manager.get(pk=pk, is_active=True)
    except (TypeError, ValueError, OverflowError, User.DoesNotExist, DjangoValidationError):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise InvalidInput(
            _("This reset link is invalid, used already or expired; ask for a new one."),
            code="reset_link_invalid",
        )
    return user


@transaction.atomic
def password_reset_confirm(*, uid: str, token: str, new_password: str) -> AbstractBaseUser:
    """Set the new password from a mailed link. Every login of the user ends (whoever
    knew the old password is out): all tokens are revoked, sessions no longer match. The
    link reached the account's address, so that address counts as confirmed too (a person
    who lost the confirmation mail under `mandatory` gets in this way)."""
    user = _reset_user(uid, token)
    _new_password_check(user, new_password)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    _tokens_revoke(user=user)
    email_mark_verified(user)
    return user
