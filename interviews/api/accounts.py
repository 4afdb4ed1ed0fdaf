"""Accounts: signup, login, logout, `me`, settings, password change and reset, email
verification."""

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models import AccountProfile
from interviews.roles import role_of
from interviews.selectors.accounts import account_profile_of
from interviews.services.account_data import account_delete, account_export
from interviews.services.account_settings import account_settings_update
from interviews.services.accounts import (
    auth_sign_out,
    auth_token_issue,
    password_change,
    password_reset_confirm,
    password_reset_request,
    user_create,
    username_normalise,
)
from interviews.services.email_verification import (
    email_verification_resend,
    email_verify,
    login_allowed_check,
    verification_mode,
)

from .base import PracticeApi, ScopedThrottle, StrictCharField, StrictSerializer
from .practice_serializers import TokenOutSerializer, UserOutSerializer


def _token_body(user, token: str) -> dict:
    return {
        "token": token,
        "id": user.pk,
        "username": user.get_username(),
        "role": role_of(user),
    }


class DetailOutSerializer(serializers.Serializer):
    detail = serializers.CharField()


EMAIL_CONFIRM_SENT = gettext_lazy(
    "Account created. Open the link we mailed you to confirm it, then sign in."
)


class SignupInputSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)
    email = StrictCharField(max_length=254, required=False, allow_blank=True, default="")


class SignupApi(PracticeApi):
    """Create a candidate account; the caller is signed in (session) and gets a token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "signup"

    @extend_schema(
        request=SignupInputSerializer,
        responses={201: TokenOutSerializer, 202: DetailOutSerializer},
        operation_id="auth_signup",
    )
    def post(self, request: Request) -> Response:
        serializer = SignupInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_create(**serializer.validated_data)
        if verification_mode() == "mandatory":
            # Not signed in: the person signs in after opening the mailed link.
            return Response({"detail": EMAIL_CONFIRM_SENT}, status=status.HTTP_202_ACCEPTED)
        token = auth_token_issue(user=user)
        login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response(_token_body(user, token), status=status.HTTP_201_CREATED)


class LoginInputSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)


class LoginApi(PracticeApi):
    """Session login (cookie) plus the user's API token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=LoginInputSerializer, responses={200: TokenOutSerializer}, operation_id="auth_login"
    )
    def post(self, request: Request) -> Response:
        serializer = LoginInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        credentials = dict(serializer.validated_data)
        credentials["username"] = username_normalise(credentials["username"])
        user = authenticate(request._request, **credentials)
        if user is None:
            raise serializers.ValidationError(
                {"non_field_errors": [_("Wrong username or password.")]}
            )
        login_allowed_check(user)
        login(request._request, user)
        token = auth_token_issue(user=user)
        return Response(_token_body(user, token))


class LogoutApi(PracticeApi):
    """End the session; a token-authenticated caller's token is revoked too. Room sockets
    opened with either are closed (4401)."""

    @extend_schema(request=None, responses={204: None}, operation_id="auth_logout")
    def post(self, request: Request) -> Response:
        session = getattr(request._request, "session", None)
        auth_sign_out(token=request.auth, session_key=session.session_key if session else None)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _me_body(user) -> dict:
    profile = account_profile_of(user)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "role": role_of(user),
        "time_zone": profile.time_zone,
        "language": profile.language,
    }


class MeApi(PracticeApi):
    @extend_schema(responses={200: UserOutSerializer}, operation_id="me")
    def get(self, request: Request) -> Response:
        return Response(_me_body(request.user))


class SessionApi(PracticeApi):
    """Who is signed in, or nobody: 200 either way, so a page that only wants to know
    (the home page, opened signed out) does not make the browser log a failed request.
    Scripts keep using `me/`, which answers 401 without credentials."""

    permission_classes = [AllowAny]

    class SessionOutSerializer(serializers.Serializer):
        me = UserOutSerializer(allow_null=True)

    @extend_schema(responses={200: SessionOutSerializer}, operation_id="auth_session")
    def get(self, request: Request) -> Response:
        user = request.user
        return Response({"me": _me_body(user) if user.is_authenticated else None})


class PasswordChangeInputSerializer(StrictSerializer):
    current_password = StrictCharField(max_length=128, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


class PasswordChangeApi(PracticeApi):
    """The signed-in user's own password (there is no user in the path: nobody changes
    another's). This login stays signed in; every other one ends."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "password"

    @extend_schema(
        request=PasswordChangeInputSerializer,
        responses={204: None},
        operation_id="account_password_change",
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_change(user=request.user, keep_token=request.auth, **serializer.validated_data)
        if getattr(request._request, "session", None) is not None and request.auth is None:
            update_session_auth_hash(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountSettingsOutSerializer(serializers.Serializer):
    email = serializers.CharField()
    time_zone = serializers.CharField(help_text='IANA zone; "" means the browser\'s own.')
    language = serializers.ChoiceField(
        choices=AccountProfile.Language.choices,
        allow_blank=True,
        help_text='"" until the person chooses: the browser\'s language applies.',
    )
    email_verified = serializers.BooleanField()
    email_verification = serializers.ChoiceField(
        choices=["none", "optional", "mandatory"],
        help_text="How this deployment confirms addresses (ACCOUNT_EMAIL_VERIFICATION).",
    )


class AccountSettingsInputSerializer(StrictSerializer):
    email = StrictCharField(max_length=254, required=False, allow_blank=True)
    time_zone = StrictCharField(max_length=64, required=False, allow_blank=True)
    # Any string: the service says which languages exist, with its own code; "" forgets
    # the choice (the browser's language applies again).
    language = StrictCharField(max_length=16, required=False, allow_blank=True)


def _settings_body(user, profile: AccountProfile) -> dict:
    return {
        "email": user.email,
        "time_zone": profile.time_zone,
        "language": profile.language,
        "email_verified": bool(user.email) and profile.verified_email == user.email,
        "email_verification": verification_mode(),
    }


class AccountSettingsApi(PracticeApi):
    """The caller's own settings; nobody reads or changes another's here."""

    @extend_schema(responses={200: AccountSettingsOutSerializer}, operation_id="account_settings")
    def get(self, request: Request) -> Response:
        return Response(_settings_body(request.user, account_profile_of(request.user)))

    @extend_schema(
        request=AccountSettingsInputSerializer,
        responses={200: AccountSettingsOutSerializer},
        operation_id="account_settings_update",
    )
    def patch(self, request: Request) -> Response:
        serializer = AccountSettingsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = account_settings_update(
            actor=request.user, user=request.user, **serializer.validated_data
        )
        return Response(_settings_body(request.user, profile))


class PasswordResetInputSerializer(StrictSerializer):
    email = serializers.EmailField(max_length=254)


#: The one answer to a reset request, whether or not an account has the address.
PASSWORD_RESET_SENT = gettext_lazy(
    "If an account has this address, a mail with a link to reset its password is on its way."
)


class PasswordResetRequestApi(PracticeApi):
    """Ask for a reset link by email. Always the same 200 (no telling who has an account);
    throttled per client address, as each request sends a mail."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "password_reset"

    @extend_schema(
        request=PasswordResetInputSerializer,
        responses={200: DetailOutSerializer},
        operation_id="auth_password_reset",
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_reset_request(email=serializer.validated_data["email"])
        return Response({"detail": PASSWORD_RESET_SENT})


class PasswordResetConfirmInputSerializer(StrictSerializer):
    uid = StrictCharField(max_length=64)
    token = StrictCharField(max_length=128)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


class PasswordResetConfirmApi(PracticeApi):
    """Set a new password from the mailed link; every login of the account ends, and the
    person signs in with the new password."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "password_reset"

    @extend_schema(
        request=PasswordResetConfirmInputSerializer,
        responses={204: None},
        operation_id="auth_password_reset_confirm",
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetConfirmInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_reset_confirm(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountExportApi(PracticeApi):
    """Everything the caller owns, as a JSON file to keep (GDPR-style access)."""

    @extend_schema(responses={200: dict}, operation_id="account_export")
    def get(self, request: Request) -> Response:
        data = account_export(actor=request.user, user=request.user)
        response = Response(data)
        stamp = timezone.now().strftime("%Y%m%d")
        filename = f"mockloop-{request.user.get_username()}-{stamp}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class AccountDeleteInputSerializer(StrictSerializer):
    password = StrictCharField(max_length=128, trim_whitespace=False)


class AccountDeleteApi(PracticeApi):
    """Delete the caller's account and data (services/account_data.py says what goes and
    what stays anonymised); the password is asked again. The caller is signed out."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "password"

    @extend_schema(
        request=AccountDeleteInputSerializer, responses={204: None}, operation_id="account_delete"
    )
    def post(self, request: Request) -> Response:
        serializer = AccountDeleteInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = getattr(request._request, "session", None)
        account_delete(actor=request.user, user=request.user, **serializer.validated_data)
        if session is not None:
            auth_sign_out(session_key=session.session_key)
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailVerifyInputSerializer(StrictSerializer):
    token = StrictCharField(max_length=512)


class EmailVerifyApi(PracticeApi):
    """Open the mailed confirmation link (the SPA's /verify-email page posts its token)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "password_reset"

    @extend_schema(
        request=EmailVerifyInputSerializer, responses={204: None}, operation_id="auth_verify_email"
    )
    def post(self, request: Request) -> Response:
        serializer = EmailVerifyInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        email_verify(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


#: The one answer to a resend request, whether or not an account has the address.
EMAIL_CONFIRM_RESENT = gettext_lazy(
    "If an account with this address still needs confirming, a new link is on its way."
)


class EmailVerifyResendApi(PracticeApi):
    """Ask for a new confirmation link (the first one was lost or expired): always the same
    200, throttled per client address like reset requests."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "password_reset"

    @extend_schema(
        request=PasswordResetInputSerializer,
        responses={200: DetailOutSerializer},
        operation_id="auth_verify_email_resend",
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        email_verification_resend(email=serializer.validated_data["email"])
        return Response({"detail": EMAIL_CONFIRM_RESENT})


urlpatterns = [
    path("auth/signup/", SignupApi.as_view(), name="auth-signup"),
    path("auth/login/", LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", LogoutApi.as_view(), name="auth-logout"),
    path("auth/session/", SessionApi.as_view(), name="auth-session"),
    path("auth/password-reset/", PasswordResetRequestApi.as_view(), name="auth-password-reset"),
    path(
        "auth/password-reset/confirm/",
        PasswordResetConfirmApi.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("auth/verify-email/", EmailVerifyApi.as_view(), name="auth-verify-email"),
    path(
        "auth/verify-email/resend/",
        EmailVerifyResendApi.as_view(),
        name="auth-verify-email-resend",
    ),
    path("me/", MeApi.as_view(), name="me"),
    path("me/password/", PasswordChangeApi.as_view(), name="me-password"),
    path("me/settings/", AccountSettingsApi.as_view(), name="me-settings"),
    path("me/export/", AccountExportApi.as_view(), name="me-export"),
    path("me/delete/", AccountDeleteApi.as_view(), name="me-delete"),
]
