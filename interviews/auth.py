"""Authentication that loads the user's role with the user (see `roles.with_coach_flag`):
API tokens (django-rest-knox: one per login, stored as a digest, with an expiry), Django's
session backend, the websocket's `?token=` and the room's access re-check, each one query
instead of two. The account profile (the saved language) comes in the same query."""

import binascii
import functools
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from rest_framework import exceptions

from interviews.roles import remember_role, with_coach_flag
from interviews.selectors.compiled import CompiledValues, instance_from_columns


class TokenExpired(Exception):
    """The key was right, but its token's time is up (the row is deleted)."""


@functools.cache
def _token_columns() -> tuple[list[str], list[str], list[str]]:
    """The columns (attnames) of a token, its user and the user's profile."""
    from knox.models import AuthToken

    from interviews.models import AccountProfile

    return tuple(
        [field.attname for field in model._meta.concrete_fields]
        for model in (AuthToken, get_user_model(), AccountProfile)
    )


def _token_rows(token_key: str):
    from knox.models import AuthToken

    token, user, profile = _token_columns()
    rows = with_coach_flag(AuthToken.objects.filter(token_key=token_key), "user_id")
    return rows.values(
        *token,
        *(f"user__{name}" for name in user),
        *(f"user__account_profile__{name}" for name in profile),
        "user_is_coach",
    )


#: Every API request made with a token runs this lookup: compiled to SQL once per thread
#: (CompiledValues), as building its joins and the role's subquery cost more CPU than
#: running it. It still reads the database every time, so a revoked (deleted) token is
#: refused at once.
_TOKEN_WITH_USER = CompiledValues(_token_rows, "token_key", text=("token_key",))


def _token_from_row(row: dict):
    """The token with its user and the user's profile (or the knowledge that there is
    none) cached on it, as `select_related` would leave them."""
    from knox.models import AuthToken

    from interviews.models import AccountProfile

    token_names, user_names, profile_names = _token_columns()
    user_model = get_user_model()
    token = instance_from_columns(AuthToken, {name: row[name] for name in token_names})
    user = instance_from_columns(user_model, {name: row[f"user__{name}"] for name in user_names})
    profile_columns = {name: row[f"user__account_profile__{name}"] for name in profile_names}
    profile = None
    if profile_columns[AccountProfile._meta.pk.attname] is not None:
        profile = instance_from_columns(AccountProfile, profile_columns)
        AccountProfile._meta.get_field("user").set_cached_value(profile, user)
    user_model._meta.get_field("account_profile").set_cached_value(user, profile)
    AuthToken._meta.get_field("user").set_cached_value(token, user)
    return token


def token_with_user(key: str):
    """The live token `key` with its user, whose role is remembered; None if there is none;
    TokenExpired if it was one and has expired. Callers decide what an inactive user means.
    """
    if not key:
        return None
    try:
        digest = hash_token(key)
    except (TypeError, ValueError, binascii.Error):
        return None
    for row in _TOKEN_WITH_USER.rows(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]):
        if not compare_digest(digest, row["digest"]):
            continue
        token = _token_from_row(row)
        if token.expiry is not None and token.expiry <= timezone.now():
            token.delete()
            raise TokenExpired
        remember_role(token.user, row["user_is_coach"])
        return token
    return None


def user_with_role(user_id):
    """The user `user_id` with their role remembered; None if there is none."""
    users = get_user_model()._default_manager.select_related("account_profile")
    user = with_coach_flag(users).filter(pk=user_id).first()
    if user is not None:
        remember_role(user, user.user_is_coach)
    return user


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's `Authorization: Token <key>`, with the role in the same query and a code
    a client can act on: `token_expired` (sign in again) apart from a wrong key."""

    def authenticate_credentials(self, token: bytes):
        try:
            auth_token = token_with_user(token.decode("utf-8", "replace"))
        except TokenExpired:
            raise exceptions.AuthenticationFailed(
                _("The token has expired; sign in again."), code="token_expired"
            ) from None
        if auth_token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not auth_token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (auth_token.user, auth_token)


class TokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI schema's name for it: `tokenAuth`, `Authorization: Token <key>`, as the
    DRF tokens it replaced were described."""

    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )


class RoleModelBackend(ModelBackend):
    """Django's ModelBackend; the user of a session comes with their role."""

    def get_user(self, user_id):
        user = user_with_role(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
