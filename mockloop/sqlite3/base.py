"""Django's SQLite backend, with the write lock queued in-process before SQLite's own.

Settings open every SQLite transaction with `BEGIN IMMEDIATE` (mockloop/settings.py): the
transaction takes the database's write lock at once. When another connection holds it,
SQLite's busy handler sleeps and tries again after 1, 2, 5, 10, 15, 20, 25 … ms (its
`sqlite3_busy_timeout` schedule), so a writer that finds the lock held for 9 ms gets it at
18 ms and one that finds it held for 19 ms at 33 ms. In a web process the live rooms' log
flush, autosaves and a coach's follow-up all write the one file from different threads,
and that rounding up was a follow-up's longest wait after the broadcast queue
(bench/live.py, docs/decisions.md). Here the writers of one process queue on a lock per
database file first, and the next one starts the moment the holder commits or rolls back;
SQLite's lock and busy handler still order them against other processes (the Celery
worker, a second web process). A writer that waits longer than the connection's busy
timeout goes on to SQLite's lock without it, so the lock can only shorten waits: a thread
that waits on another thread inside its transaction times out as it did before.
"""

from __future__ import annotations

import os
import threading

from django.db.backends.sqlite3 import base

#: Database file → its writers' lock in this process.
_writers: dict[str, threading.Lock] = {}
_writers_guard = threading.Lock()
#: `BEGIN` modes that take the write lock at once.
WRITE_MODES = frozenset({"IMMEDIATE", "EXCLUSIVE"})


def writer_lock(name: str) -> threading.Lock:
    with _writers_guard:
        lock = _writers.get(name)
        if lock is None:
            lock = _writers[name] = threading.Lock()
        return lock


def _forget_locks() -> None:
    """A forked child starts with no writer: a lock held by a parent's thread at fork
    time would stay held in the child for good."""
    global _writers_guard
    _writers.clear()
    _writers_guard = threading.Lock()


os.register_at_fork(after_in_child=_forget_locks)


class DatabaseWrapper(base.DatabaseWrapper):
    _writer: threading.Lock | None = None

    def _busy_timeout_s(self) -> float:
        return float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))

    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode not in WRITE_MODES or self.is_in_memory_db():
            super()._start_transaction_under_autocommit()
            return
        lock = writer_lock(str(self.settings_dict["NAME"]))
        acquired = lock.acquire(timeout=self._busy_timeout_s())
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            if acquired:
                lock.release()
            raise
        self._writer = lock if acquired else None

    def _release_writer(self) -> None:
        lock, self._writer = self._writer, None
        if lock is not None:
            lock.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writer()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_writer()
