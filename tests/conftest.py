"""Fixtures shared by the whole suite.

- `api_client` / `api_client_for(user)`: DRF test clients.
- `live_server_url`: the real ASGI app (uvicorn, as shipped) in a subprocess on a
  free port, against the test database; tests that use it get `transactional_db` so the
  rows they create are committed and visible to the server.
- Browser tests use pytest-playwright's `page` with Debian's Chromium
  (`browser_type_launch_args`); never `playwright install`.
"""

import contextlib
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mockloop.settings")
os.environ.setdefault("MOCKLOOP_TESTING", "1")

import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from mockloop.env import BASE_DIR, VAR_DIR
from mockloop.web import POOL_ENV, free_port, web_command

CHROMIUM = os.environ.get("MOCKLOOP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SCREENSHOTS_DIR = VAR_DIR / "screenshots"
SERVER_START_TIMEOUT_S = 60


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright's stand-in `base_url` fixture (used when pytest-base-url is not
    # installed) is a session fixture on a class instance, which pytest 9 warns about.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:Session-scoped fixtures defined as instance methods"
        ":pytest.PytestRemovedIn10Warning",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run browser tests last: Playwright's sync API keeps an event loop set on the main
    thread for the rest of the session, which async and ORM tests after it would trip on."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def api_client_for() -> Callable[..., APIClient]:
    """`api_client_for(user)` → a client authenticated as `user` (None: anonymous)."""

    def make(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user=user)
        return client

    return make


# --- the live ASGI server ---------------------------------------------------------------


def database_url_of(settings_dict: dict) -> str:
    """A DATABASE_URL (dj-database-url syntax) for a Django connection's settings."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        name = str(settings_dict["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            raise RuntimeError("the live server needs a file-based SQLite test database")
        return f"sqlite:///{Path(name).resolve()}"
    if "postgresql" in engine:
        user = quote(settings_dict.get("USER") or "", safe="")
        password = quote(settings_dict.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
    raise RuntimeError(f"no DATABASE_URL form for {engine}")


@dataclass
class LiveServer:
    url: str
    env: dict[str, str]
    process: subprocess.Popen
    log_path: Path

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@pytest.fixture(scope="session")
def _flush_outlasts_deadlocks() -> Iterator[None]:
    """Retry the database flush after each transactional test when PostgreSQL breaks a
    deadlock by aborting it. The session's web server and worker (beat ticks every second)
    keep querying while the flush's TRUNCATE takes its exclusive locks table by table; a
    query holding one of them and waiting for another deadlocks with it, and PostgreSQL may
    pick the flush as the victim. Retrying is safe: the flush runs in one transaction."""
    from django.core.management.commands import flush
    from django.db import OperationalError

    handle = flush.Command.handle

    def handle_with_retries(self, **options):
        for attempt in range(5):
            try:
                return handle(self, **options)
            except Exception as exc:  # CommandError wraps the OperationalError
                cause = exc if isinstance(exc, OperationalError) else exc.__cause__
                if "deadlock detected" not in str(cause) or attempt == 4:
                    raise
                time.sleep(0.2)

    flush.Command.handle = handle_with_retries
    yield
    flush.Command.handle = handle


@pytest.fixture(scope="session")
def live_server_env(
    django_db_setup, django_db_blocker, _flush_outlasts_deadlocks
) -> dict[str, str]:
    """Environment for subprocesses (web, worker) that must use the test database."""
    from django.db import connection

    env = dict(os.environ)
    env.pop("DEBUG", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the e2e test process only
    env.update(
        DATABASE_URL=database_url_of(connection.settings_dict),
        MOCKLOOP_TESTING="1",
        DJANGO_SETTINGS_MODULE="mockloop.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


@contextlib.contextmanager
def running_web_server(env: dict[str, str], name: str = "live-server") -> Iterator[LiveServer]:
    """The shipped web command on a free port with `env`, serving until the block ends;
    its output goes to var/log/<name>-<port>.log."""
    port = free_port()
    log_dir = VAR_DIR / "log"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{name}-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            web_command(port),
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = LiveServer(f"http://127.0.0.1:{port}", env, process, log_path)
    try:
        _wait_until_serving(server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def _live_server(live_server_env: dict[str, str]) -> Iterator[LiveServer]:
    # As the Procfile's web: on PostgreSQL (CI) requests borrow pooled connections.
    with running_web_server({**live_server_env, **POOL_ENV}) as server:
        yield server


def _wait_until_serving(server: LiveServer) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(
                f"the web server exited with {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(f"{server.url}/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    pytest.fail(
        f"the web server did not serve within {SERVER_START_TIMEOUT_S}s:\n{server.log_tail()}"
    )


@pytest.fixture
def live_server_url(_live_server: LiveServer, transactional_db) -> str:
    """Base URL (no trailing slash) of the real ASGI server using the test database."""
    if _live_server.process.poll() is not None:
        pytest.fail(f"the live server died:\n{_live_server.log_tail()}")
    return _live_server.url


# --- browsers ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium (make test does)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def screenshot_path() -> Callable[[str], Path]:
    """`screenshot_path("home")` → var/screenshots/home.png (directory created)."""

    def make(name: str) -> Path:
        SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS_DIR / f"{name}.png"

    return make
