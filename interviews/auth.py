"""Authentication that loads the user's role with the user (see `roles.with_coach_flag`):
DRF's token authentication, Django's session backend, the websocket's `?token=` and the
room's access re-check, each one query instead of two."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from rest_framework import authentication, exceptions

from interviews.roles import remember_role, with_coach_flag


def token_with_user(key: str):
    """The token `key` with its user, whose role is remembered; None if there is none.
    Callers decide what an inactive user means."""
    from rest_framework.authtoken.models import Token

    rows = with_coach_flag(Token.objects.select_related("user"), "user_id")
    token = rows.filter(key=key).first()
    if token is not None:
        remember_role(token.user, token.user_is_coach)
    return token


def user_with_role(user_id):
    """The user `user_id` with their role remembered; None if there is none."""
    user = with_coach_flag(get_user_model()._default_manager.all()).filter(pk=user_id).first()
    if user is not None:
        remember_role(user, user.user_is_coach)
    return user


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str):
        token = token_with_user(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return (token.user, token)


class RoleModelBackend(ModelBackend):
    """Django's ModelBackend; the user of a session comes with their role."""

    def get_user(self, user_id):
        user = user_with_role(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
