"""The SQLite backend queues a process's writers in-process (mockloop/sqlite3): a writer
that waits for another's transaction starts when it ends, not at SQLite's next poll."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction

#: How long the first writer keeps its transaction open (s): the waiting writer, which
#: starts 5-15 ms after it, would otherwise be let in at its busy handler's poll at 178 ms.
HOLD_S = 0.145


@pytest.mark.django_db(transaction=True)
def test_a_waiting_writer_starts_as_soon_as_the_holder_commits():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's write lock")
    users = get_user_model()
    holding = threading.Event()
    committed_at: list[float] = []
    began_at: list[float] = []
    errors: list[BaseException] = []

    def holder() -> None:
        try:
            with transaction.atomic():
                users.objects.create(username="holder")
                holding.set()
                time.sleep(HOLD_S)
            committed_at.append(time.monotonic())
        except BaseException as exc:
            errors.append(exc)
            holding.set()
        finally:
            connections.close_all()

    def waiter() -> None:
        holding.wait(5)
        time.sleep(0.005)
        try:
            with transaction.atomic():
                began_at.append(time.monotonic())
                users.objects.create(username="waiter")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not errors
    assert users.objects.filter(username__in=["holder", "waiter"]).count() == 2
    late = began_at[0] - committed_at[0]
    assert late < 0.025, f"the waiting writer started {late * 1000:.0f} ms after the commit"


@pytest.mark.django_db(transaction=True)
def test_a_failed_transaction_lets_the_next_writer_in():
    """A rollback (an exception in the block) gives the lock back as a commit does."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's write lock")
    users = get_user_model()
    with pytest.raises(RuntimeError), transaction.atomic():
        users.objects.create(username="rolled-back")
        raise RuntimeError
    done = threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                users.objects.create(username="next")
            done.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=writer)
    thread.start()
    thread.join(5)
    assert done.is_set()
    assert list(users.objects.values_list("username", flat=True)) == ["next"]
