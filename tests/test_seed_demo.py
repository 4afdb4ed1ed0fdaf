"""`manage.py seed_demo`: demo candidate, coach and admin, only in development mode, idempotent."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from interviews.management.commands import seed_demo
from interviews.roles import ADMIN, CANDIDATE, COACH, role_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def logins_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "demo_logins.json"
    monkeypatch.setattr(seed_demo, "LOGINS_FILE", path)
    return path


def run(settings, debug: bool) -> str:
    settings.DEV = debug
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_creates_one_account_per_role_and_prints_working_passwords(settings, logins_file) -> None:
    output = run(settings, debug=True)
    saved = json.loads(logins_file.read_text())
    assert logins_file.stat().st_mode & 0o777 == 0o600
    expected_roles = {"candidate": CANDIDATE, "coach": COACH, "admin": ADMIN}
    for username, role in expected_roles.items():
        password = saved[username]["password"]
        assert password in output
        user = authenticate(username=username, password=password)
        assert user is not None
        assert role_of(user) == role
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_staff and admin.is_superuser


def test_second_run_keeps_accounts_and_passwords(settings, logins_file) -> None:
    run(settings, debug=True)
    first = json.loads(logins_file.read_text())
    run(settings, debug=True)
    assert json.loads(logins_file.read_text()) == first
    assert get_user_model().objects.filter(username__in=first).count() == 3


def test_repairs_an_altered_account(settings, logins_file) -> None:
    run(settings, debug=True)
    coach = get_user_model().objects.get(username="coach")
    coach.groups.clear()
    coach.set_password("changed")
    coach.is_staff = True
    coach.save()
    run(settings, debug=True)
    password = json.loads(logins_file.read_text())["coach"]["password"]
    coach = authenticate(username="coach", password=password)
    assert coach is not None and role_of(coach) == COACH


def test_does_nothing_without_debug(settings, logins_file) -> None:
    output = run(settings, debug=False)
    assert "development mode (MOCKLOOP_DEV) is off" in output
    assert not get_user_model().objects.filter(username="admin").exists()
    assert not logins_file.exists()
