"""A Celery worker process keeps its database connection from one task to the next."""

import pytest
from django.db import close_old_connections, connection, connections

from mockloop import celery


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_keeps_its_connection_between_tasks(monkeypatch):
    for key in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS"):
        monkeypatch.setitem(connections.settings["default"], key, connection.settings_dict[key])
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    connection.close()
    connection.ensure_connection()
    close_old_connections()  # what Celery's Django fixup does after every task
    assert connection.connection is None  # the web's setting: one connection per request

    celery._keep_database_connections()
    connection.ensure_connection()
    kept = connection.connection
    close_old_connections()
    assert connection.connection is kept
    assert connection.settings_dict["CONN_MAX_AGE"] == celery.WORKER_CONN_MAX_AGE_S
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_the_worker_s_django_fixup_keeps_a_healthy_connection_around_each_task(monkeypatch):
    """Celery's own fixup closes every connection before and after every task; ours closes
    only one that broke (or outlived its age), as Django does around a request."""
    for key in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS"):
        monkeypatch.setitem(connections.settings["default"], key, connection.settings_dict[key])
    celery._keep_database_connections()
    connection.close()
    connection.ensure_connection()
    kept = connection.connection
    (fixup,) = [f for f in celery.app._fixups if f is not None]
    worker_fixup = fixup.worker_fixup
    task = celery.app.tasks["judging.judge_submission"]
    worker_fixup.on_task_prerun(sender=task)
    worker_fixup.on_task_postrun(sender=task)
    assert connection.connection is kept

    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    worker_fixup.on_task_postrun(sender=task)
    assert connection.connection is None
