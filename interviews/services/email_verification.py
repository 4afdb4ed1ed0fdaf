"""Email verification, as strict as the deployment wants (`ACCOUNT_EMAIL_VERIFICATION`):
`none` sends nothing; `optional` mails a link on signup and on an email change; `mandatory`
also refuses to sign in (403 `email_not_verified`) until the link is opened.

The link carries a signed, timestamped (user, address) pair (django.core.signing): no
table, and a link for an address the account no longer has proves nothing."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.i18n import active_language, language_of
from interviews.models import AccountProfile

from .errors import InvalidInput, NotAllowed

MODES = ("none", "optional", "mandatory")
_SALT = "mockloop.email-verification"


def verification_mode() -> str:
    return settings.ACCOUNT_EMAIL_VERIFICATION


def email_is_verified(user: AbstractBaseUser) -> bool:
    profile = AccountProfile.objects.filter(user_id=user.pk).first()
    return bool(user.email) and profile is not None and profile.verified_email == user.email


def email_verification_link(user: AbstractBaseUser) -> str:
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=_SALT, compress=True)
    return f"{settings.MOCKLOOP_PUBLIC_URL}/verify-email?token={token}"


def email_verification_send(user: AbstractBaseUser) -> None:
    """After commit, mail the link to the account's current address (if the deployment
    verifies addresses and the account has one)."""
    if verification_mode() == "none" or not user.email:
        return
    link = email_verification_link(user)
    address, name = user.email, user.get_username()
    hours = settings.ACCOUNT_EMAIL_VERIFICATION_MAX_AGE // 3600
    # Rendered now, in the recipient's language (on signup they have saved none yet: the
    # language of their own request).
    with language_of(user, fallback=active_language()):
        subject = _("Confirm your email address for Mockloop")
        body = _(
            "Hello %(name)s,\n\nOpen this link to confirm that %(address)s is yours:\n\n"
            "%(link)s\n\nIt works for %(hours)s hours. If you did not sign up for Mockloop, "
            "ignore this mail.\n"
        ) % {"name": name, "address": address, "link": link, "hours": hours}

    def send() -> None:
        send_mail(subject=subject, message=body, from_email=None, recipient_list=[address])

    transaction.on_commit(send)


def email_verification_resend(*, email: str) -> None:
    """Mail a new link to each account with this address that has not confirmed it yet;
    the caller answers the same either way (no telling who has an account)."""
    users = get_user_model()._default_manager.filter(email__iexact=email.strip(), is_active=True)
    for user in users:
        if not email_is_verified(user):
            email_verification_send(user)


def email_mark_verified(user: AbstractBaseUser) -> None:
    """The account's current address is confirmed: its owner opened a link mailed there."""
    if user.email:
        AccountProfile.objects.update_or_create(
            user_id=user.pk, defaults={"verified_email": user.email}
        )


@transaction.atomic
def email_verify(*, token: str) -> AbstractBaseUser:
    """Mark the address in the link verified, if the account still has it."""
    invalid = InvalidInput(
        _("This confirmation link is invalid or expired; sign in to ask for a new one."),
        code="verification_link_invalid",
    )
    try:
        data = signing.loads(token, salt=_SALT, max_age=settings.ACCOUNT_EMAIL_VERIFICATION_MAX_AGE)
    except signing.BadSignature as exc:  # SignatureExpired is one too
        raise invalid from exc
    user = get_user_model()._default_manager.filter(pk=data.get("user")).first()
    if user is None or not user.email or user.email != data.get("email"):
        raise invalid
    email_mark_verified(user)
    return user


def login_allowed_check(user: AbstractBaseUser) -> None:
    """In `mandatory` mode nobody signs in with an unconfirmed address."""
    if verification_mode() == "mandatory" and not email_is_verified(user):
        raise NotAllowed(
            _("Confirm your email address first: open the link we mailed you."),
            code="email_not_verified",
        )
