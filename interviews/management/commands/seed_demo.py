"""`manage.py seed_demo`: the demo candidate, coach and admin for development.

Only in development mode (`settings.DEV`): the passwords are printed and kept in
`var/demo_logins.json` (mode 0600), generated once per checkout so no password lives in
the repository. Running it again changes nothing unless a demo account was altered, which
it puts back.
"""

import json
import secrets
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from interviews.roles import ADMIN, CANDIDATE, COACH, COACH_GROUP
from mockloop.env import VAR_DIR

LOGINS_FILE = VAR_DIR / "demo_logins.json"


@dataclass(frozen=True)
class DemoAccount:
    username: str
    role: str


DEMO_ACCOUNTS = (
    DemoAccount("candidate", CANDIDATE),
    DemoAccount("coach", COACH),
    DemoAccount("admin", ADMIN),
)


def _load_logins(path: Path) -> dict[str, dict[str, str]]:
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text())
    except ValueError:
        return {}


def _save_logins(path: Path, logins: dict[str, dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_text(json.dumps(logins, indent=2) + "\n")


@transaction.atomic
def demo_users_ensure(*, logins_file: Path | None = None) -> dict[str, str]:
    """Create or repair the demo accounts; returns {username: password}."""
    logins_file = logins_file or LOGINS_FILE
    user_model = get_user_model()
    coach_group, _ = Group.objects.get_or_create(name=COACH_GROUP)
    logins = _load_logins(logins_file)
    changed = False
    passwords = {}
    for account in DEMO_ACCOUNTS:
        entry = logins.get(account.username) or {}
        password = entry.get("password") or secrets.token_urlsafe(12)
        user, _ = user_model.objects.get_or_create(
            username=account.username, defaults={"email": f"{account.username}@example.com"}
        )
        is_admin = account.role == ADMIN
        dirty = user.is_staff != is_admin or user.is_superuser != is_admin or not user.is_active
        user.is_staff = user.is_superuser = is_admin
        user.is_active = True
        # Compare against the hash recorded when we last set it: hashing is slow on purpose.
        if not user.password or user.password != entry.get("hash"):
            user.set_password(password)
            dirty = True
        if dirty:
            user.save()
        in_coach_group = user.groups.filter(pk=coach_group.pk).exists()
        if account.role == COACH and not in_coach_group:
            user.groups.add(coach_group)
        elif account.role != COACH and in_coach_group:
            user.groups.remove(coach_group)
        if entry != {"password": password, "hash": user.password}:
            logins[account.username] = {"password": password, "hash": user.password}
            changed = True
        passwords[account.username] = password
    if changed:
        _save_logins(logins_file, logins)
    return passwords


class Command(BaseCommand):
    help = "Create the demo candidate, coach and admin (development mode only); print logins."

    def handle(self, *args, **options) -> None:
        if not settings.DEV:
            self.stdout.write(
                "seed_demo: development mode (MOCKLOOP_DEV) is off, so no demo accounts "
                "were created."
            )
            return
        passwords = demo_users_ensure()
        roles = {account.username: account.role for account in DEMO_ACCOUNTS}
        self.stdout.write("Demo logins (development only; kept in var/demo_logins.json):")
        for username, password in passwords.items():
            self.stdout.write(f"  {roles[username]:<10} {username:<10} password: {password}")
