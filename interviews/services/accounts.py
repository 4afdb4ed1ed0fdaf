"""Accounts: signing up candidates and issuing API tokens."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from .errors import InvalidInput


@transaction.atomic
def user_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    """Create a candidate (no group, not staff). Usernames are unique case-insensitively
    so "Alice" cannot impersonate "alice"."""
    User = get_user_model()
    errors: dict[str, list[str]] = {}
    username_field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        username_field.run_validators(username)
    except DjangoValidationError as exc:
        errors["username"] = list(exc.messages)
    if "username" not in errors and User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["A user with that username already exists."]
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
def auth_token_issue(*, user: AbstractBaseUser) -> Token:
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def auth_token_revoke(*, user: AbstractBaseUser) -> None:
    Token.objects.filter(user=user).delete()
