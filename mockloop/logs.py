"""Structured logs: every record carries the request id (and stage / submission ids bound
by tasks), formatted as one JSON object per line in production. Kept free of Django
imports because the logging config loads it while settings are being read."""

import contextvars
import json
import logging

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
log_context_var: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "log_context", default=None
)


class ContextFilter(logging.Filter):
    """Adds the request id and any bound ids (stage, submission) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        for key, value in (log_context_var.get() or {}).items():
            setattr(record, key, value)
        return True


def bind_log_context(**ids) -> contextvars.Token:
    """`bind_log_context(submission_id=7)` for the rest of a task; reset with the token."""
    return log_context_var.set({**(log_context_var.get() or {}), **ids})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, ids, exception."""

    FIELDS = ("request_id", "stage_id", "submission_id", "question_id", "task_id")

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in self.FIELDS:
            value = getattr(record, field, None)
            if value not in (None, "-"):
                data[field] = value
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


class IdlePeriodicTaskFilter(logging.Filter):
    """Drops beat's "sending due task" and the worker's "received" and "succeeded" lines
    of periodic tasks (the stage clock every second, the judge's requeue sweep every
    five) unless the run did something: a task's result is a dict of counts, and all
    zero means idle. Otherwise two INFO lines a second scroll `make run`'s URL and
    logins off the screen."""

    def __init__(self, task_names: set[str]):
        super().__init__()
        self.task_names = task_names

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "celery.beat":
            # "Scheduler: Sending due task %s (%s)" % (entry name, task name)
            args = record.args if isinstance(record.args, tuple) else ()
            return not (len(args) == 2 and args[1] in self.task_names)
        data = getattr(record, "data", None)
        if not isinstance(data, dict) or data.get("name") not in self.task_names:
            return True
        if "return_value" not in data:
            return False  # "received": the "succeeded" line says whether it mattered
        return not _is_idle_result(data["return_value"])


def _is_idle_result(text: str) -> bool:
    """`"{'expired': 0, 'fired': 0}"` (Celery logs the repr of the result) → True."""
    import ast

    try:
        value = ast.literal_eval(text) if len(text) < 1000 else text
    except (ValueError, SyntaxError):
        return False
    return value is None or (isinstance(value, dict) and not any(value.values()))


def quiet_idle_periodic_tasks(task_names: set[str]) -> None:
    """Install the filter on the three Celery loggers that write those lines (replacing
    one installed before, so calling this again does not stack filters)."""
    task_filter = IdlePeriodicTaskFilter(task_names)
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, IdlePeriodicTaskFilter)]:
            logger.removeFilter(old)
        logger.addFilter(task_filter)
