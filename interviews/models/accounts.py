"""What a person sets about their own account beyond Django's user: where they are and
which language they read."""

from django.conf import settings
from django.db import models


class AccountProfile(models.Model):
    """One per user, made on the first settings change (until then the defaults apply:
    the browser's zone and language)."""

    class Language(models.TextChoices):
        # The API's tags (interviews/i18n.py maps them to Django's).
        EN = "en", "English"
        ZH_HANS = "zh-Hans", "简体中文"
        ZH_HANT = "zh-Hant", "繁體中文"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_profile",
    )
    #: An IANA zone ("Europe/Paris"); blank: the browser's own.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    #: "" until the person chooses: the browser's Accept-Language decides meanwhile (a
    #: stored "en" would override a Chinese browser), and mails go out in English.
    language = models.CharField(max_length=8, choices=Language.choices, blank=True, default="")
    #: The address whose mailed link was opened; the email is verified while it is still
    #: the account's (changing the address un-verifies it without a write here).
    verified_email = models.EmailField(max_length=254, blank=True, default="")

    def __str__(self) -> str:
        return f"profile of user {self.user_id}"
