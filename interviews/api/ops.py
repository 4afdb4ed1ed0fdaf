"""Operations: the judging queue at a glance, for staff (`GET /api/v1/ops/queue/`).

    {"queued": 3, "running": 2, "broker_depth": 1, "unacked": 2,
     "workers": 1, "worker_names": ["celery@host"], "errors": {}}

- `queued` / `running`: submissions by status in the database (the source of truth).
- `broker_depth`: jobs waiting in the broker (`LLEN` of Celery's queue in Redis), not yet
  taken by a worker; `unacked`: taken by a worker and not yet acknowledged (being judged,
  or reserved by a worker process). Both are null without Redis or when it does not answer.
- `workers`: Celery workers that answered a ping within half a second (cached for a few
  seconds, so polling this page stays cheap); null when the broker does not answer.
- `errors`: what could not be read, by key.

Linked from the Django admin index (`interviews/templates/admin/mockloop_index.html`).
"""

import logging

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from interviews.models import Submission

logger = logging.getLogger(__name__)

WORKERS_CACHE_KEY = "ops:queue:workers"
WORKERS_CACHE_SECONDS = 5
PING_TIMEOUT_S = 0.5
UNACKED_KEY = "unacked"  # kombu's Redis transport: messages delivered, not yet acked


class QueueOutSerializer(serializers.Serializer):
    queued = serializers.IntegerField()
    running = serializers.IntegerField()
    broker_depth = serializers.IntegerField(allow_null=True)
    unacked = serializers.IntegerField(allow_null=True)
    workers = serializers.IntegerField(allow_null=True)
    worker_names = serializers.ListField(child=serializers.CharField())
    errors = serializers.DictField(child=serializers.CharField())


def _broker_counts() -> tuple[int | None, int | None]:
    """(jobs waiting in the broker, jobs delivered but not acked); Nones without Redis."""
    from mockloop.observability import _redis, queue_depth

    if not settings.REDIS_URL:
        return None, None
    return queue_depth(), int(_redis().hlen(UNACKED_KEY))


def _workers() -> list[str]:
    names = cache.get(WORKERS_CACHE_KEY)
    if names is None:
        from mockloop.celery import app

        replies = app.control.ping(timeout=PING_TIMEOUT_S) or []
        names = sorted(name for reply in replies for name in reply)
        cache.set(WORKERS_CACHE_KEY, names, WORKERS_CACHE_SECONDS)
    return names


def queue_stats() -> dict:
    """The numbers of the ops queue view (each part fails on its own, into `errors`)."""
    counts = Submission.objects.aggregate(
        queued=Count("pk", filter=Q(status=Submission.Status.QUEUED)),
        running=Count("pk", filter=Q(status=Submission.Status.RUNNING)),
    )
    data = {
        **counts,
        "broker_depth": None,
        "unacked": None,
        "workers": None,
        "worker_names": [],
        "errors": {},
    }
    try:
        data["broker_depth"], data["unacked"] = _broker_counts()
    except Exception as exc:  # noqa: BLE001 - Redis down: say so, keep the rest
        logger.warning("ops queue: broker unreachable", exc_info=True)
        data["errors"]["broker"] = f"{type(exc).__name__}: {exc}"
    if settings.REDIS_URL and "broker" not in data["errors"]:
        try:
            data["worker_names"] = _workers()
            data["workers"] = len(data["worker_names"])
        except Exception as exc:  # noqa: BLE001
            logger.warning("ops queue: worker ping failed", exc_info=True)
            data["errors"]["workers"] = f"{type(exc).__name__}: {exc}"
    return data


class QueueApi(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(
        responses={200: QueueOutSerializer},
        description="Staff only: submissions queued and running, the broker's queue depth "
        "and the Celery workers answering.",
    )
    def get(self, request: Request) -> Response:
        return Response(QueueOutSerializer(queue_stats()).data)


urlpatterns = [
    path("ops/queue/", QueueApi.as_view(), name="ops-queue"),
]
