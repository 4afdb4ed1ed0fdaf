"""Authentication that loads the user's role with the user (see `roles.with_coach_flag`):
DRF's token authentication and Django's session backend, each one query instead of two."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from rest_framework import authentication, exceptions

from interviews.roles import remember_role, with_coach_flag


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str):
        rows = with_coach_flag(self.get_model().objects.select_related("user"), "user_id")
        token = rows.filter(key=key).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        remember_role(token.user, token.user_is_coach)
        return (token.user, token)


class RoleModelBackend(ModelBackend):
    """Django's ModelBackend; the user of a session comes with their role."""

    def get_user(self, user_id):
        users = with_coach_flag(get_user_model()._default_manager.all())
        user = users.filter(pk=user_id).first()
        if user is None or not self.user_can_authenticate(user):
            return None
        remember_role(user, user.user_is_coach)
        return user
