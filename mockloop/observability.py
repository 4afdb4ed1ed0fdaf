"""Operations endpoints and plumbing: liveness, readiness, Prometheus metrics, request ids
and structured (JSON) logs.

- `/healthz`: the process answers (no dependencies checked) — for restarts.
- `/readyz`: the database, Redis, the Docker engine (unless READY_CHECK_DOCKER is off,
  as for compose's web, which has no Docker socket) and the judge queue — for routing
  traffic; 503 with the failing checks named.
- `/metrics`: Prometheus text format. Request latency and websocket connections are
  per process; queue depth, verdict counts and judge latency are read from Redis and the
  database at scrape time, so they are the same whichever process is scraped and cover
  the Celery workers too.
"""

import contextlib
import hmac
import time
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import REGISTRY, GaugeMetricFamily
from prometheus_client.registry import Collector

from .logs import request_id_var

REQUEST_LATENCY = Histogram(
    "mockloop_http_request_seconds",
    "HTTP request latency by route and status class.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
WEBSOCKETS = Gauge("mockloop_websocket_connections", "Open live-room websockets (this process).")
WEBSOCKET_MESSAGES = Counter(
    "mockloop_websocket_messages_total", "Messages received from live-room clients.", ["type"]
)
RELAYS_SHED = Counter(
    "mockloop_relays_shed_total",
    "Relayed edits and cursors dropped as stale (the room was behind; the log brings edits).",
)

CELERY_QUEUE = "celery"


# --- request ids and JSON logs -----------------------------------------------------------


class RequestIdMiddleware:
    """Tags each request with an id (`X-Request-ID` in, or a new one) for logs and the
    response, and times it for the latency histogram."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        rid = incoming if 0 < len(incoming) <= 64 and incoming.isprintable() else uuid.uuid4().hex
        token = request_id_var.set(rid)
        start = time.perf_counter()
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = rid
        match = getattr(request, "resolver_match", None)
        route = match.route if match else "unmatched"
        REQUEST_LATENCY.labels(route, request.method, f"{response.status_code // 100}xx").observe(
            time.perf_counter() - start
        )
        return response


# --- health and readiness ----------------------------------------------------------------


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"ok": True}


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def _check_redis() -> dict:
    if not settings.REDIS_URL:
        return {"ok": False, "error": "REDIS_URL is not set"}
    _redis().ping()
    return {"ok": True}


def _check_docker() -> dict:
    from sandbox.engine import docker_client

    client = docker_client()
    try:
        client.ping()
    finally:
        client.close()
    return {"ok": True}


def queue_depth() -> int | None:
    """Jobs waiting in the broker (not yet taken by a worker)."""
    if not settings.REDIS_URL:
        return None
    return int(_redis().llen(CELERY_QUEUE))


def _check_queue() -> dict:
    depth = queue_depth()
    limit = getattr(settings, "READY_MAX_QUEUE_DEPTH", 500)
    ok = depth is not None and depth <= limit
    return {"ok": ok, "depth": depth, "limit": limit}


READINESS_CHECKS = {
    "database": _check_database,
    "redis": _check_redis,
    "docker": _check_docker,
    "queue": _check_queue,
}


def readyz(request: HttpRequest) -> JsonResponse:
    results = {}
    for name, check in READINESS_CHECKS.items():
        if name == "docker" and not getattr(settings, "READY_CHECK_DOCKER", True):
            continue  # this web process never talks to Docker (the workers do)
        try:
            results[name] = check()
        except Exception as exc:  # each failure is reported by name, never raised
            results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    ready = all(r["ok"] for r in results.values())
    return JsonResponse(
        {"status": "ready" if ready else "not ready", "checks": results},
        status=200 if ready else 503,
    )


# --- metrics -----------------------------------------------------------------------------


def _domain_families() -> tuple[GaugeMetricFamily, ...]:
    return (
        GaugeMetricFamily("mockloop_judge_queue_depth", "Judge jobs waiting in the broker."),
        GaugeMetricFamily("mockloop_submissions", "Submissions by status.", labels=["status"]),
        GaugeMetricFamily(
            "mockloop_sandbox_verdicts", "Judged submissions by verdict.", labels=["verdict"]
        ),
        GaugeMetricFamily(
            "mockloop_judge_latency_seconds",
            "Submit-to-verdict latency over the last hour's judged submissions.",
            labels=["quantile"],
        ),
    )


class DomainCollector(Collector):
    """Metrics read at scrape time from Redis and the database (shared by all processes)."""

    def describe(self):
        """The families without values: without this, registering the collector would
        run `collect()`, i.e. query the database and Redis when the module is imported
        (inside whichever request first loads the middleware)."""
        return _domain_families()

    def collect(self):
        from django.db.models import Count

        from interviews.models import Submission

        depth, states, verdicts, latency = _domain_families()
        try:
            value = queue_depth()
            if value is not None:
                depth.add_metric([], value)
        except Exception:
            pass
        yield depth

        try:
            for row in Submission.objects.values("status").annotate(n=Count("id")):
                states.add_metric([row["status"]], row["n"])
            judged = Submission.objects.exclude(verdict="")
            for row in judged.values("verdict").annotate(n=Count("id")):
                verdicts.add_metric([row["verdict"]], row["n"])
            since = timezone.now() - timedelta(hours=1)
            recent = list(
                Submission.objects.filter(finished_at__gte=since, started_at__isnull=False)
                .order_by("-finished_at")
                .values_list("created_at", "finished_at")[:2000]
            )
            durations = sorted((done - made).total_seconds() for made, done in recent)
            for q in (0.5, 0.9, 0.99):
                if durations:
                    latency.add_metric(
                        [str(q)], durations[min(len(durations) - 1, int(q * len(durations)))]
                    )
        except Exception:
            pass  # the database is down: readiness says so; metrics stay scrapeable
        yield states
        yield verdicts
        yield latency


_collector = DomainCollector()
with contextlib.suppress(ValueError):  # already registered (module re-imported)
    REGISTRY.register(_collector)


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus text for scrapers only: with MOCKLOOP_METRICS_TOKEN set, a request must
    bring it as `Authorization: Bearer <token>`; METRICS_ALLOWED_IPS narrows who may ask at
    all. A production server with neither configured serves it to nobody (the figures
    describe the service's load and users); development and tests serve it openly."""
    allowed = getattr(settings, "METRICS_ALLOWED_IPS", None)
    if allowed and request.META.get("REMOTE_ADDR") not in allowed:
        return JsonResponse({"detail": "Not found.", "errors": {}, "code": "not_found"}, status=404)
    token = getattr(settings, "METRICS_TOKEN", "")
    if token:
        given = request.META.get("HTTP_AUTHORIZATION", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip(), token):
            return _metrics_refused("A scraper token is required (Authorization: Bearer).")
    elif not allowed and not (settings.DEV or settings.TESTING):
        return _metrics_refused("Set MOCKLOOP_METRICS_TOKEN (or METRICS_ALLOWED_IPS) to scrape.")
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


def _metrics_refused(detail: str) -> JsonResponse:
    body = {"detail": detail, "errors": {}, "code": "metrics_token_required"}
    response = JsonResponse(body, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="metrics"'
    return response
