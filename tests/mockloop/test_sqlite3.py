"""The SQLite backend queues a process's writers in-process (mockloop/sqlite3): a writer
that finds another's transaction open waits for it in-process and starts when it ends,
rather than at SQLite's busy handler's next poll.

These tests open their own SQLite file through the backend, so they run whatever database
the suite is configured with (CI runs on PostgreSQL). The waiting writer's own SQLite busy
timeout is a tenth of the holder's transaction: it can only get in by having waited
in-process, as without the queue its `BEGIN IMMEDIATE` fails with "database is locked"."""

import threading

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from mockloop.sqlite3.base import writer_lock

#: How long the holder keeps its transaction open once the waiter is on its way (s), and
#: the waiter's own SQLite busy timeout, far shorter (it absorbs SQLite's brief locks, such
#: as the holder's commit finishing, but not the holder's transaction).
HOLD_S = 1.0
WAITER_BUSY_MS = 100


def _connect(path, engine: str = "mockloop.sqlite3"):
    """A connection of the thread that calls this, as the web's threads have."""
    options = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    handler = ConnectionHandler(
        {"default": {"ENGINE": engine, "NAME": str(path), "OPTIONS": options}}
    )
    conn = handler["default"]
    conn.ensure_connection()
    return conn


def _write(conn, name: str) -> None:
    with conn.cursor() as cursor:
        cursor.execute("INSERT INTO writes (name) VALUES (%s)", [name])


def _waiting_writer_gets_in(path, engine: str) -> list[str]:
    """The holder opens a write transaction; the waiter tries to open one meanwhile, with
    a short busy timeout of its own. Returns the names written, in order."""
    holding, waiting = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def holder() -> None:
        conn = _connect(path, engine)
        try:
            conn._start_transaction_under_autocommit()
            _write(conn, "holder")
            holding.set()
            waiting.wait(5)
            threading.Event().wait(HOLD_S)
            conn.commit()
        except BaseException as exc:
            errors.append(exc)
        finally:
            holding.set()
            conn.close()

    def waiter() -> None:
        holding.wait(5)
        conn = _connect(path, engine)
        try:
            conn.connection.execute(f"PRAGMA busy_timeout = {WAITER_BUSY_MS}")
            waiting.set()
            conn._start_transaction_under_autocommit()
            _write(conn, "waiter")
            conn.commit()
        except BaseException as exc:
            errors.append(exc)
        finally:
            waiting.set()
            conn.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    if errors:
        raise errors[0]
    conn = _connect(path, engine)
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT name FROM writes ORDER BY id")
            return [name for (name,) in cursor.fetchall()]
    finally:
        conn.close()


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """A SQLite file of the test's own (not the suite's database, so no `django_db`)."""
    with django_db_blocker.unblock():
        yield _create(tmp_path / "writes.sqlite3")


def _create(path):
    conn = _connect(path)
    with conn.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("CREATE TABLE writes (id INTEGER PRIMARY KEY, name TEXT)")
    conn.close()
    return path


def test_a_waiting_writer_waits_in_process_and_starts_when_the_holder_commits(database):
    assert _waiting_writer_gets_in(database, "mockloop.sqlite3") == ["holder", "waiter"]


def test_without_the_queue_the_same_writer_is_refused(database):
    """What the first test guards against: Django's own backend leaves the wait to SQLite."""
    with pytest.raises(OperationalError, match="locked"):
        _waiting_writer_gets_in(database, "django.db.backends.sqlite3")


def test_a_rollback_and_a_close_give_the_lock_back(database):
    lock = writer_lock(str(database))
    conn = _connect(database)
    conn._start_transaction_under_autocommit()
    _write(conn, "rolled back")
    assert lock.locked()
    conn.rollback()
    assert not lock.locked()
    conn._start_transaction_under_autocommit()
    assert lock.locked()
    conn.close()  # a connection closed mid-transaction (e.g. a broken one)
    assert not lock.locked()
    conn = _connect(database)
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM writes")
            assert cursor.fetchone() == (0,)
    finally:
        conn.close()
