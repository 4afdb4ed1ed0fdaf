"""Every error body is `{"detail", "errors", "code"}` with a stable machine-readable `code`
(DESIGN.md, "HTTP API"), whoever raised it: a service's domain error, DRF (validation,
authentication, permissions, throttling, parsing, 404, 405) or Django (oversize body)."""

import importlib
import json
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import interviews
from interviews.api.errors import DOMAIN_STATUS, domain_status
from interviews.services import errors as domain
from interviews.services.errors import DomainError
from tests.interviews.world import World

API = "/api/v1"
CODE_RE = re.compile(r"^[a-z][a-z_]*[a-z]$")


def _all_subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_all_subclasses(sub)}
    return found


def _import_the_domain() -> None:
    """Import every module of the app, so every error class defined anywhere is seen."""
    for info in pkgutil.walk_packages(interviews.__path__, "interviews."):
        if ".migrations" in info.name or ".bank.tools" in info.name:
            continue
        importlib.import_module(info.name)


def test_every_domain_error_class_has_a_code():
    _import_the_domain()
    classes = {DomainError, *_all_subclasses(DomainError)}
    assert len(classes) > 6
    for cls in classes:
        assert isinstance(cls.code, str) and CODE_RE.match(cls.code), cls


def test_the_base_classes_map_to_their_status_and_code():
    assert {cls.__name__: (status, cls.code) for cls, status in DOMAIN_STATUS.items()} == {
        "InvalidInput": (400, "invalid"),
        "NotAllowed": (403, "not_allowed"),
        "NotFound": (404, "not_found"),
        "StateConflict": (409, "state_conflict"),
        "TooLarge": (413, "too_large"),
        "Unavailable": (503, "unavailable"),
        "TooBusy": (429, "too_busy"),
    }
    # Subclasses take their base's status; a code given where raised overrides the default.
    error = domain.StateConflict("Taken.", code="stage_taken")
    assert (domain_status(error), error.code) == (409, "stage_taken")
    assert domain.StateConflict().code == "state_conflict"


@dataclass
class Case:
    name: str
    call: Callable[[World, Callable], object]
    status: int
    code: str
    errors_key: str | None = None


def _submission(w: World, **changes) -> dict:
    body = {
        "stage": w.coding.pk,
        "question": w.coding_q.pk,
        "part": 1,
        "language": "python",
        "code": "print(3)\n",
        "mode": "run",
    }
    return {**body, **changes}


CASES = [
    Case(
        "drf-validation",
        lambda w, c: c(w.owner).post(f"{API}/loops/", {"coached": True}, format="json"),
        400,
        "invalid",
        errors_key="template",
    ),
    Case(
        "domain-invalid-input",
        lambda w, c: c(w.owner).post(f"{API}/stages/{w.coding.pk}/answers/", {}, format="json"),
        400,
        "invalid",
        errors_key="non_field_errors",
    ),
    Case(
        "parse-error",
        lambda w, c: c(w.owner).post(
            f"{API}/loops/", data=b'{"template":', content_type="application/json"
        ),
        400,
        "parse_error",
    ),
    Case("not-authenticated", lambda w, c: c(None).get(f"{API}/me/"), 401, "not_authenticated"),
    Case(
        "bad-token",
        lambda w, c: c(None).get(f"{API}/me/", HTTP_AUTHORIZATION="Token nope"),
        401,
        "authentication_failed",
    ),
    Case(
        "domain-not-allowed",
        lambda w, c: c(w.owner).get(f"{API}/coach/queue/"),
        403,
        "not_allowed",
    ),
    Case(
        "permission-class",
        lambda w, c: c(w.owner).post(f"{API}/questions/", {"slug": "x"}, format="json"),
        403,
        "not_allowed",
    ),
    Case(
        "domain-not-found", lambda w, c: c(w.admin).get(f"{API}/stages/999999/"), 404, "not_found"
    ),
    Case("unknown-route", lambda w, c: c(w.admin).get(f"{API}/nope/"), 404, "not_found"),
    Case("method", lambda w, c: c(w.owner).delete(f"{API}/me/"), 405, "method_not_allowed"),
    Case(
        "stage-not-started",
        lambda w, c: c(w.owner).post(f"{API}/stages/{w.review.pk}/finish/"),
        409,
        "stage_not_started",
    ),
    Case(
        "stage-not-live",
        lambda w, c: c(w.owner).post(
            f"{API}/stages/{w.review.pk}/answers/", {"text": "late"}, format="json"
        ),
        409,
        "stage_not_live",
    ),
    Case(
        "stage-taken",
        lambda w, c: c(w.coach).post(f"{API}/stages/{w.coding.pk}/claim/"),
        409,
        "stage_taken",
    ),
    Case(
        "coach-not-claimed",
        lambda w, c: [
            c(w.owner).post(f"{API}/stages/{w.coding.pk}/finish/"),
            c(w.owner).post(f"{API}/stages/{w.values.pk}/start/"),
        ][-1],
        409,
        "coach_not_claimed",
    ),
    Case(
        "coach-claimed",
        lambda w, c: c(w.owner).post(
            f"{API}/stages/{w.review.pk}/start/", {"solo": True}, format="json"
        ),
        409,
        "coach_claimed",
    ),
    Case(
        "stage-solo",
        lambda w, c: [
            c(w.owner).post(f"{API}/stages/{w.coding.pk}/finish/"),
            c(w.owner).post(f"{API}/stages/{w.values.pk}/start/", {"solo": True}, format="json"),
            c(w.coach).post(f"{API}/stages/{w.values.pk}/claim/"),
        ][-1],
        409,
        "stage_solo",
    ),
    Case(
        "stage-not-finished",
        lambda w, c: c(w.owner).get(f"{API}/stages/{w.coding.pk}/scorecard/"),
        409,
        "stage_not_finished",
    ),
    Case(
        "follow-up-pushed",
        lambda w, c: [
            c(w.assigned).post(
                f"{API}/stages/{w.coding.pk}/follow-ups/",
                {"follow_up": w.plain_follow_up.pk},
                format="json",
            )
            for _ in range(2)
        ][-1],
        409,
        "follow_up_pushed",
    ),
    Case(
        "code-too-large",
        lambda w, c: c(w.owner).post(
            f"{API}/submissions/", _submission(w, code="x" * (64 * 1024 + 1)), format="json"
        ),
        413,
        "too_large",
        errors_key="code",
    ),
    Case(
        "body-too-large",
        lambda w, c: c(w.owner).post(
            f"{API}/stages/{w.coding.pk}/answers/",
            data=json.dumps({"text": "x" * (2 * 1024 * 1024 + 10)}),
            content_type="application/json",
        ),
        413,
        "too_large",
    ),
    Case(
        "unsupported-media-type",
        lambda w, c: c(w.owner).post(f"{API}/loops/", data={"template": "ai-lab"}),
        415,
        "unsupported_media_type",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_bodies_carry_a_code(case: Case, world: World, as_user):
    response = case.call(world, as_user)
    assert response.status_code == case.status, response.content[:400]
    body = response.json()
    assert set(body) == {"detail", "errors", "code"}, body
    assert body["code"] == case.code
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["errors"], dict)
    if case.errors_key:
        assert case.errors_key in body["errors"], body


@pytest.mark.django_db
def test_a_throttled_request_says_throttled(world: World, as_user, settings):
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], submissions="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client = as_user(world.owner)
    assert client.post(f"{API}/submissions/", _submission(world), format="json").status_code == 202
    response = client.post(f"{API}/submissions/", _submission(world), format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_a_conflict_keeps_its_context_beside_the_code(world: World, as_user):
    """`errors` of a 409 carries what the client needs to act (the live stage's id)."""
    response = as_user(world.owner).post(f"{API}/stages/{world.review.pk}/start/")
    assert response.status_code == 409
    body = response.json()
    assert body["errors"] == {"live_stage": world.coding.pk}
    assert body["code"] == "other_stage_live"
