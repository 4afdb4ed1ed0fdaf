"""Account settings a person changes themselves: email, time zone, language."""

import zoneinfo

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_own_account
from interviews.models import AccountProfile

from .email_verification import email_verification_send
from .errors import InvalidInput


def _valid_zone(time_zone: str) -> str:
    """An IANA name the server knows ("Europe/Paris"), or "" for the browser's own. Paths
    and legacy aliases zoneinfo would also open ("../etc", "posixrules") are not zones."""
    if time_zone and time_zone not in zoneinfo.available_timezones():
        raise InvalidInput(
            _("Not a time zone."),
            errors={
                "time_zone": [_("%(zone)s is not an IANA time zone.") % {"zone": repr(time_zone)}]
            },
            code="unknown_time_zone",
        )
    return time_zone


@transaction.atomic
def account_settings_update(
    *,
    actor: AbstractBaseUser,
    user: AbstractBaseUser,
    email: str | None = None,
    time_zone: str | None = None,
    language: str | None = None,
) -> AccountProfile:
    """Change what is given (a new email is unverified and gets a link mailed); a person
    changes only their own account (an admin uses the Django admin). Returns the profile
    as stored."""
    access_own_account(
        actor, user, refusal=_("You may change the settings of only your own account.")
    )
    profile = AccountProfile.objects.select_for_update().filter(user_id=user.pk).first()
    profile = profile or AccountProfile(user_id=user.pk)
    if email is not None and email != user.email:
        try:
            if email:
                validate_email(email)
        except DjangoValidationError as exc:
            raise InvalidInput(
                _("Not an email address."),
                errors={"email": list(exc.messages)},
                code="invalid_email",
            ) from exc
        user.email = email
        user.save(update_fields=["email"])
        email_verification_send(user)
    if time_zone is not None:
        profile.time_zone = _valid_zone(time_zone)
    if language is not None:
        # "": no choice any more, the browser's language applies again.
        if language and language not in AccountProfile.Language.values:
            raise InvalidInput(
                _("Not a language Mockloop offers."),
                errors={
                    "language": [
                        _("Choose one of %(languages)s.")
                        % {"languages": ", ".join(AccountProfile.Language.values)}
                    ]
                },
                code="unknown_language",
            )
        profile.language = language
    profile.save()
    # The caller's user object reads the new language from now on (interviews/i18n.py).
    user.account_profile = profile
    return profile
