"""Liveness, readiness, metrics, request ids, structured logs and the security headers."""

import json
import logging
import os
import time
import urllib.request

import pytest
from django.test import Client

from mockloop.logs import JsonFormatter, bind_log_context, log_context_var, request_id_var
from tests.conftest import running_web_server

pytestmark = pytest.mark.django_db


def test_healthz_needs_nothing():
    response = Client().get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.integration
def test_readyz_checks_database_redis_docker_and_queue(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs the Redis that make test starts")
    response = Client().get("/readyz")
    body = response.json()
    assert response.status_code == 200, body
    assert set(body["checks"]) == {"database", "redis", "docker", "queue"}
    assert body["checks"]["queue"]["depth"] >= 0


def test_readyz_without_a_docker_socket_skips_the_docker_check(settings):
    """compose's web has no Docker socket (only workers judge): READY_CHECK_DOCKER=0 keeps
    its /readyz from failing on an engine it never uses."""
    settings.READY_CHECK_DOCKER = False
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    body = Client().get("/readyz").json()
    assert set(body["checks"]) == {"database", "redis", "queue"}


def test_readyz_names_what_is_down(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = Client().get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["redis"]["ok"] is False
    assert "Connection" in body["checks"]["redis"]["error"]
    assert body["checks"]["database"] == {"ok": True}


def test_metrics_expose_latency_websockets_queue_and_verdicts():
    client = Client()
    client.get("/healthz")
    text = client.get("/metrics").content.decode()
    for name in (
        "mockloop_http_request_seconds_bucket",
        "mockloop_websocket_connections",
        "mockloop_submissions",
        "mockloop_sandbox_verdicts",
        "mockloop_judge_latency_seconds",
    ):
        assert name in text, name
    assert 'route="healthz"' in text


@pytest.mark.django_db
def test_registering_the_domain_metrics_reads_nothing(django_assert_num_queries):
    """Registration describes the families; only a scrape reads the database."""
    from prometheus_client import CollectorRegistry

    from mockloop.observability import DomainCollector

    registry = CollectorRegistry(auto_describe=True)  # as the global REGISTRY
    with django_assert_num_queries(0):
        registry.register(DomainCollector())
    names = {family.name for family in registry.collect()}
    assert {"mockloop_submissions", "mockloop_judge_latency_seconds"} <= names


def test_metrics_can_be_limited_to_scrapers(settings):
    settings.METRICS_ALLOWED_IPS = ["10.1.2.3"]
    assert Client().get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 200


def test_request_id_is_echoed_or_made():
    response = Client().get("/healthz", HTTP_X_REQUEST_ID="abc-123")
    assert response["X-Request-ID"] == "abc-123"
    made = Client().get("/healthz")["X-Request-ID"]
    assert len(made) == 32


def test_csp_header_on_pages_and_api():
    for path in ("/", "/api/v1/me/"):
        policy = Client().get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_json_log_lines_carry_ids():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "judged %s", ("ok",), None)
    token = request_id_var.set("rid-9")
    bound = bind_log_context(submission_id=42)
    try:
        from mockloop.logs import ContextFilter

        ContextFilter().filter(record)
    finally:
        log_context_var.reset(bound)
        request_id_var.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "judged ok"
    assert line["request_id"] == "rid-9" and line["submission_id"] == 42


def test_web_server_logs_requests_as_json_lines(tmp_path):
    """The shipped web command with LOG_FORMAT=json: uvicorn's own lines (start-up and one
    per request) come out as JSON objects like the app's, not as uvicorn's plain text."""
    env = {**os.environ, "MOCKLOOP_TESTING": "1", "LOG_FORMAT": "json"}
    env["MOCKLOOP_VAR_DIR"] = str(tmp_path)
    with running_web_server(env, "json-log") as server:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=5):
            pass
        time.sleep(0.3)  # the access line is written after the response
    log_path = server.log_path
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines if line.startswith("{")]
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any("GET /healthz" in r["message"] for r in access), lines
    plain = [line for line in lines if not line.startswith("{")]
    assert not [line for line in plain if "/healthz" in line or "Started server" in line], plain


def test_metrics_require_the_scraper_token_when_one_is_set(settings):
    settings.METRICS_TOKEN = "scrape-me-7f3a"
    refused = Client().get("/metrics")
    assert refused.status_code == 401
    assert refused.json()["code"] == "metrics_token_required"
    assert refused["WWW-Authenticate"].startswith("Bearer")
    wrong = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer not-it")
    assert wrong.status_code == 401
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Token scrape-me-7f3a").status_code == 401
    ok = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me-7f3a")
    assert ok.status_code == 200 and b"mockloop_" in ok.content


def test_production_without_a_token_or_allow_list_serves_metrics_to_nobody(settings):
    settings.DEV = settings.TESTING = False
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_IPS = []
    response = Client().get("/metrics")
    assert response.status_code == 401
    assert response.json()["code"] == "metrics_token_required"
    settings.METRICS_ALLOWED_IPS = ["127.0.0.1"]
    assert Client().get("/metrics").status_code == 200
