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
