"""Settings come from environment variables, then var/runtime.env, then safe defaults.

Each case imports the settings module in a fresh interpreter, the way `manage.py`,
daphne and celery do, so nothing here depends on the settings of this test process.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mockloop.env import BASE_DIR

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "DEV": settings.DEV,
    "TESTING": settings.TESTING,
    "REDIS_URL": settings.REDIS_URL,
    "DB_ENGINE": settings.DATABASES["default"]["ENGINE"],
    "DB_NAME": str(settings.DATABASES["default"]["NAME"]),
    "DB_TEST_NAME": settings.DATABASES["default"].get("TEST", {}).get("NAME"),
    "CHANNEL_LAYER": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "BROKER": settings.CELERY_BROKER_URL,
    "STATICFILES_DIRS": [str(p) for p in settings.STATICFILES_DIRS],
}))
"""

CLEARED = ("DEBUG", "MOCKLOOP_DEV", "MOCKLOOP_TESTING", "REDIS_URL", "DATABASE_URL", "SECRET_KEY")


def load_settings(var_dir: Path, **env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(DJANGO_SETTINGS_MODULE="mockloop.settings", MOCKLOOP_VAR_DIR=str(var_dir), **env)
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=BASE_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout)


@pytest.fixture
def var_dir(tmp_path: Path) -> Path:
    (tmp_path / "runtime.env").write_text(
        "# written by make run\n"
        "DEBUG=1\n"
        "REDIS_URL=redis://127.0.0.1:6390/0\n"
        f"DATABASE_URL=sqlite:///{tmp_path / 'run.sqlite3'}\n"
    )
    return tmp_path


def test_runtime_env_is_what_manage_py_sees(var_dir: Path) -> None:
    """A manage.py command beside `make run` uses that run's Redis and database."""
    settings = load_settings(var_dir)
    assert settings["DEBUG"] is True
    assert settings["REDIS_URL"] == "redis://127.0.0.1:6390/0"
    assert settings["BROKER"] == "redis://127.0.0.1:6390/0"
    assert settings["CHANNEL_LAYER"].endswith("RedisChannelLayer")  # channels-redis based
    assert settings["DB_NAME"] == str(var_dir / "run.sqlite3")


def test_environment_variables_win_over_runtime_env(var_dir: Path) -> None:
    settings = load_settings(var_dir, REDIS_URL="redis://127.0.0.1:7000/1")
    assert settings["REDIS_URL"] == "redis://127.0.0.1:7000/1"
    assert settings["DB_NAME"] == str(var_dir / "run.sqlite3")


def test_tests_ignore_runtime_env(var_dir: Path) -> None:
    """MOCKLOOP_TESTING=1 never touches a developer's running data."""
    settings = load_settings(var_dir, MOCKLOOP_TESTING="1")
    assert settings["TESTING"] is True
    assert settings["DEBUG"] is False
    assert settings["REDIS_URL"] is None
    assert settings["CHANNEL_LAYER"] == "channels.layers.InMemoryChannelLayer"
    assert settings["DB_NAME"] == str(var_dir / "mockloop.sqlite3")
    assert settings["DB_TEST_NAME"] == str(var_dir / "test.sqlite3")


def test_postgres_from_database_url(tmp_path: Path) -> None:
    settings = load_settings(
        tmp_path, MOCKLOOP_TESTING="1", DATABASE_URL="postgres://u:p@127.0.0.1:5432/mockloop"
    )
    assert settings["DB_ENGINE"] == "django.db.backends.postgresql"
    assert settings["DB_NAME"] == "mockloop"


def test_production_refuses_to_start_without_secret_key(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="Set SECRET_KEY"):
        load_settings(tmp_path)
    settings = load_settings(tmp_path, SECRET_KEY="x" * 50)
    assert settings["DEBUG"] is False


def test_built_frontend_is_a_static_files_dir(tmp_path: Path) -> None:
    dist = BASE_DIR / "frontend" / "dist"
    settings = load_settings(tmp_path, MOCKLOOP_TESTING="1")
    assert (str(dist) in settings["STATICFILES_DIRS"]) == dist.exists()


def test_make_run_is_development_mode_without_django_debug(tmp_path: Path) -> None:
    """What `make run` writes (MOCKLOOP_DEV=1) gives a development key and plain logs, but
    not DEBUG: Django's traceback page is shown only when DEBUG is asked for by name."""
    (tmp_path / "runtime.env").write_text("MOCKLOOP_DEV=1\nREDIS_URL=redis://127.0.0.1:6390/0\n")
    settings = load_settings(tmp_path)
    assert settings["DEBUG"] is False
    assert settings["DEV"] is True
    assert load_settings(tmp_path, DEBUG="1")["DEBUG"] is True


def test_make_run_does_not_turn_on_django_debug() -> None:
    """The scripts ask for development mode; DEBUG stays the developer's own choice."""
    for script in ("scripts/run.sh", "scripts/setup.sh"):
        text = (BASE_DIR / script).read_text()
        assert not re.search(r"^\s*export DEBUG", text, re.MULTILINE), script
        assert 'echo "DEBUG=1"' not in text, script
    assert "export MOCKLOOP_DEV=1" in (BASE_DIR / "scripts/run.sh").read_text()
