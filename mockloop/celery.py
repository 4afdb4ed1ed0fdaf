"""The Celery app: judging jobs and stage timers run here, configured from Django settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mockloop.settings")

app = Celery("mockloop")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
