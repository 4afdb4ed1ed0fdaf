"""Reads about one's own account."""

from django.contrib.auth.models import AbstractBaseUser

from interviews.models import AccountProfile


def account_profile_of(user: AbstractBaseUser) -> AccountProfile:
    """The user's settings; an unsaved one with the defaults if they never changed any
    (reading must not write)."""
    profile = AccountProfile.objects.filter(user_id=user.pk).first()
    return profile if profile is not None else AccountProfile(user_id=user.pk)
