"""The Celery app: judging jobs and stage timers run here, configured from Django settings."""

import os
from typing import Any

from celery import Celery, signals
from celery.fixups.django import DjangoFixup, DjangoWorkerFixup

from mockloop.logs import quiet_idle_periodic_tasks

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mockloop.settings")


class _WorkerFixup(DjangoWorkerFixup):
    """Celery's Django worker fixup, except around each task: Celery (5.7) *closes* every
    database connection before and after every task, whatever `CONN_MAX_AGE` says, so
    each judged job opened a new connection (SQLite: ~3 ms of the worker's CPU with its
    PRAGMAs; PostgreSQL: a new server process). Here it does what Django does around a
    request: `close_old_connections()` closes only a connection that broke, is left in a
    transaction, or outlived its age. The process start (the inherited connections) keeps
    Celery's own handling."""

    def on_task_prerun(self, sender: Any, **kwargs: Any) -> None:
        if not getattr(sender.request, "is_eager", False):
            _close_old_connections()

    def on_task_postrun(self, sender: Any, **kwargs: Any) -> None:
        if not getattr(sender.request, "is_eager", False):
            _close_old_connections()
            self.close_cache()


def _close_old_connections() -> None:
    from django.db import close_old_connections

    close_old_connections()


class _DjangoFixup(DjangoFixup):
    @property
    def worker_fixup(self) -> DjangoWorkerFixup:
        if self._worker_fixup is None:
            self._worker_fixup = _WorkerFixup(self.app)
        return self._worker_fixup

    @worker_fixup.setter
    def worker_fixup(self, value: DjangoWorkerFixup) -> None:
        self._worker_fixup = value


def django_fixup(app: Celery) -> DjangoFixup | None:
    """Celery's `fixups` plug-in: its Django fixup with `_WorkerFixup` (installed, as
    Celery's own is, only when a settings module is named)."""
    if not os.environ.get("DJANGO_SETTINGS_MODULE"):
        return None
    return _DjangoFixup(app).install()


app = Celery("mockloop", fixups=["mockloop.celery:django_fixup"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # interviews.tasks (the stage clock)
app.autodiscover_tasks(["interviews.judging"])  # interviews.judging.tasks


@signals.after_setup_logger.connect
def _quiet_idle_periodic_tasks(**kwargs) -> None:
    """The beat-scheduled tasks log only when they did something (mockloop.logs)."""
    quiet_idle_periodic_tasks({entry["task"] for entry in app.conf.beat_schedule.values()})


WORKER_CONN_MAX_AGE_S = 600


@signals.worker_process_init.connect
def _keep_database_connections(**kwargs) -> None:
    """A worker process runs one task after another on one thread: keep its database
    connection between tasks instead of opening one per task (about 3 ms of CPU on SQLite,
    a new server process on PostgreSQL; bench/judge.py counts it in every judged job).
    `_WorkerFixup` still closes a connection that broke or outlived this age, and the
    health check replaces one the server dropped. Web processes keep their own
    settings (ASGI threads: a pool on PostgreSQL, none on SQLite)."""
    from django.db import connections

    # (connections inherited from the parent are dropped by Celery's own fixup; every
    # wrapper shares its alias's settings dict, so later connections keep this age)
    for alias in connections:
        connections.settings[alias]["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE_S
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = True
