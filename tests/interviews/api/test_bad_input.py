"""Bad input gets a clear 4xx with `detail` (and `errors` where a field is at fault),
never a 500, and writes nothing."""

import json

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken

from interviews import models as m
from tests.factories import api_token_for
from tests.interviews.world import World

API = "/api/v1"

COUNTED = [
    get_user_model(),
    AuthToken,
    m.Loop,
    m.Stage,
    m.StageQuestion,
    m.Answer,
    m.ReviewComment,
    m.Submission,
    m.StageEvent,
    m.StageFollowUp,
    m.CoachNote,
    m.Scorecard,
]


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


@pytest.fixture
def unchanged(world: World):
    """Asserts, after the test body, that no row was added or removed anywhere."""
    api_token_for(world.owner)
    api_token_for(world.assigned)
    before = row_counts()
    yield
    assert row_counts() == before


@pytest.fixture(autouse=True)
def _no_judging(monkeypatch):
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)


def review_live(w: World) -> None:
    m.Stage.objects.filter(pk=w.coding.pk).update(status="done")
    m.Stage.objects.filter(pk=w.review.pk).update(status="live")


def submission_body(w: World, **changes) -> dict:
    body = {
        "stage": w.coding.pk,
        "question": w.coding_q.pk,
        "part": 1,
        "language": "python",
        "code": "print(3)\n",
        "mode": "run",
    }
    body.update(changes)
    return {k: v for k, v in body.items() if v is not ...}


# (name, who, method, url, body, expected status, error field or None, prepare)
CASES = [
    (
        "signup-unknown-field",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "zed", "password": "pw-Correct-Horse-9", "is_staff": True},
        400,
        "is_staff",
    ),
    (
        "signup-taken",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "owner", "password": "pw-Correct-Horse-9"},
        400,
        "username",
    ),
    (
        "signup-taken-other-case",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "OWNER", "password": "pw-Correct-Horse-9"},
        400,
        "username",
    ),
    (
        "signup-weak-password",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "zed", "password": "123"},
        400,
        "password",
    ),
    (
        "signup-password-like-username",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "zedzedzed", "password": "zedzedzed1"},
        400,
        "password",
    ),
    (
        "signup-bad-email",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": "zed", "password": "pw-Correct-Horse-9", "email": "nope"},
        400,
        "email",
    ),
    (
        "signup-wrong-type",
        None,
        "post",
        "/auth/signup/",
        lambda w: {"username": 12345, "password": "pw-Correct-Horse-9"},
        400,
        "username",
    ),
    (
        "login-wrong-password",
        None,
        "post",
        "/auth/login/",
        lambda w: {"username": "owner", "password": "nope"},
        400,
        "non_field_errors",
    ),
    (
        "loop-unknown-template",
        "owner",
        "post",
        "/loops/",
        lambda w: {"template": "no-such-loop", "coached": True},
        400,
        "template",
    ),
    (
        "loop-unknown-field",
        "owner",
        "post",
        "/loops/",
        lambda w: {"template": "ai-lab", "coachd": True},
        400,
        "coachd",
    ),
    (
        "loop-wrong-type",
        "owner",
        "post",
        "/loops/",
        lambda w: {"template": "ai-lab", "coached": "maybe"},
        400,
        "coached",
    ),
    (
        "loop-string-bool",
        "owner",
        "post",
        "/loops/",
        lambda w: {"template": "ai-lab", "coached": "true"},
        400,
        "coached",
    ),
    (
        "loop-template-list",
        "owner",
        "post",
        "/loops/",
        lambda w: {"template": ["ai-lab"]},
        400,
        "template",
    ),
    (
        "answer-unknown-field",
        "owner",
        "post",
        "/stages/{coding}/answers/",
        lambda w: {"txt": "typo"},
        400,
        "txt",
    ),
    (
        "answer-notes-not-object",
        "owner",
        "post",
        "/stages/{coding}/answers/",
        lambda w: {"notes": ["a"]},
        400,
        "notes",
    ),
    (
        "answer-foreign-question",
        "owner",
        "post",
        "/stages/{coding}/answers/",
        lambda w: {"question": w.review_q.pk, "text": "x"},
        400,
        "question",
    ),
    (
        "answer-nothing",
        "owner",
        "post",
        "/stages/{coding}/answers/",
        lambda w: {},
        400,
        "non_field_errors",
    ),
    (
        "answer-pending-stage",
        "owner",
        "post",
        "/stages/{review}/answers/",
        lambda w: {"text": "x"},
        409,
        None,
    ),
    (
        "review-reversed",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [5, 3], "category": "spof", "text": "x"},
        400,
        "lines",
        review_live,
    ),
    (
        "review-out-of-range",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [29, 31], "category": "spof", "text": "x"},
        400,
        "lines",
        review_live,
    ),
    (
        "review-line-zero",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [0, 2], "category": "spof", "text": "x"},
        400,
        "lines",
        review_live,
    ),
    (
        "review-unknown-category",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [3, 4], "category": "vibes", "text": "x"},
        400,
        "category",
        review_live,
    ),
    (
        "review-lines-shape",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [3], "category": "spof", "text": "x"},
        400,
        "lines",
        review_live,
    ),
    (
        "review-lines-strings",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": ["3", "4"], "category": "spof", "text": "x"},
        400,
        "lines",
        review_live,
    ),
    (
        "review-not-live",
        "owner",
        "post",
        "/stages/{review}/review-comments/",
        lambda w: {"lines": [3, 4], "category": "spof", "text": "x"},
        409,
        None,
    ),
    (
        "follow-up-both",
        "assigned",
        "post",
        "/stages/{coding}/follow-ups/",
        lambda w: {"follow_up": w.plain_follow_up.pk, "text": "and this"},
        400,
        "non_field_errors",
    ),
    (
        "follow-up-neither",
        "assigned",
        "post",
        "/stages/{coding}/follow-ups/",
        lambda w: {},
        400,
        "non_field_errors",
    ),
    (
        "follow-up-absent",
        "assigned",
        "post",
        "/stages/{coding}/follow-ups/",
        lambda w: {"follow_up": 999999},
        400,
        "follow_up",
    ),
    (
        "follow-up-of-other-question",
        "assigned",
        "post",
        "/stages/{coding}/follow-ups/",
        lambda w: {
            "follow_up": m.FollowUp.objects.create(question=w.review_q, position=1, prompt="x").pk
        },
        400,
        "follow_up",
    ),
    (
        "note-blank",
        "assigned",
        "post",
        "/stages/{coding}/notes/",
        lambda w: {"text": "  "},
        400,
        "text",
    ),
    (
        "scorecard-unknown-dimension",
        "assigned",
        "put",
        "/stages/{coding}/scorecard/",
        lambda w: {
            "scores": [{"dimension": "Charisma", "level": 3}],
            "summary": "",
            "recommendation": "yes",
        },
        400,
        "scores",
    ),
    (
        "scorecard-level-5",
        "assigned",
        "put",
        "/stages/{coding}/scorecard/",
        lambda w: {
            "scores": [{"dimension": "Communication", "level": 5}],
            "summary": "",
            "recommendation": "yes",
        },
        400,
        "scores",
    ),
    (
        "scorecard-twice",
        "assigned",
        "put",
        "/stages/{coding}/scorecard/",
        lambda w: {
            "scores": [
                {"dimension": "Communication", "level": 2},
                {"dimension": "Communication", "level": 3},
            ],
            "summary": "",
            "recommendation": "yes",
        },
        400,
        "scores",
    ),
    (
        "scorecard-bad-recommendation",
        "assigned",
        "put",
        "/stages/{coding}/scorecard/",
        lambda w: {"scores": [], "summary": "", "recommendation": "maybe"},
        400,
        "recommendation",
    ),
    (
        "scorecard-nested-unknown",
        "assigned",
        "put",
        "/stages/{coding}/scorecard/",
        lambda w: {
            "scores": [{"dimension": "Communication", "level": 2, "weight": 9}],
            "summary": "",
            "recommendation": "yes",
        },
        400,
        "scores",
    ),
    (
        "submission-unknown-field",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, languge="python"),
        400,
        "languge",
    ),
    (
        "submission-part-string",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, part="1"),
        400,
        "part",
    ),
    (
        "submission-missing-code",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, code=...),
        400,
        "code",
    ),
    (
        "submission-bad-mode",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, mode="debug"),
        400,
        "mode",
    ),
    (
        "submission-stdin-on-submit",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, mode="submit", stdin="1 2"),
        400,
        "stdin",
    ),
    (
        "submission-language-not-offered",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, language="cpp"),
        400,
        "language",
    ),
    (
        "submission-question-not-in-stage",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, question=w.review_q.pk),
        400,
        "question",
    ),
    (
        "submission-question-not-coding",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, stage=w.review.pk, question=w.review_q.pk),
        400,
        "question",
        review_live,
    ),
    (
        "submission-locked-part",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, part=2),
        409,
        None,
    ),
    (
        "submission-absent-part",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, part=9),
        409,
        None,
    ),
    (
        "submission-stage-not-live",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, stage=w.challenge.pk),
        409,
        None,
    ),
    (
        "submission-code-too-large",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, code="x" * (64 * 1024 + 1)),
        413,
        None,
    ),
    (
        "submission-code-too-large-in-bytes",
        "owner",
        "post",
        "/submissions/",
        lambda w: submission_body(w, code="é" * (32 * 1024 + 1)),
        413,
        None,
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_and_writes_nothing(case, world: World, as_user, unchanged):
    name, who, method, url, body, expected, error_field, *rest = case
    if rest:
        rest[0](world)
    url = API + url.format(coding=world.coding.pk, review=world.review.pk)
    client = as_user(getattr(world, who) if who else None)
    response = getattr(client, method)(url, data=body(world), format="json")
    assert response.status_code == expected, response.content[:500]
    data = response.json()
    assert isinstance(data["detail"], str) and data["detail"]
    if error_field:
        assert error_field in data["errors"], data


RAW_URLS = [
    "/auth/signup/",
    "/auth/login/",
    "/loops/",
    "/stages/{coding}/answers/",
    "/stages/{coding}/follow-ups/",
    "/stages/{coding}/notes/",
    "/submissions/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", RAW_URLS)
@pytest.mark.parametrize(
    "raw, expected",
    [
        ('{"template": "ai-lab",', 400),  # malformed JSON
        ("[1, 2, 3]", 400),  # not an object
        ('"text"', 400),
        ("NaN", 400),
        ("\xff\xfe", 400),  # not UTF-8
    ],
    ids=["malformed", "list", "string", "nan", "binary"],
)
def test_unparseable_bodies(url, raw, expected, world: World, as_user, unchanged):
    client = as_user(world.assigned if "follow-ups" in url or "notes" in url else world.owner)
    url = API + url.format(coding=world.coding.pk)
    body = raw.encode("latin-1")
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == expected, response.content[:300]
    assert response.json()["detail"]


@pytest.mark.django_db
def test_form_encoded_body_is_unsupported(world: World, as_user, unchanged):
    response = as_user(world.owner).post(f"{API}/loops/", data={"template": "ai-lab"})
    assert response.status_code == 415
    assert response.json()["detail"]


@pytest.mark.django_db
def test_body_over_the_upload_limit_is_413(world: World, as_user, unchanged, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50_000
    body = json.dumps(submission_body(world, code="x" * 60_000))
    response = as_user(world.owner).post(
        f"{API}/submissions/", data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert "body" in response.json()["detail"]


@pytest.mark.django_db
def test_body_over_the_default_upload_limit_is_413(world: World, as_user, unchanged):
    body = json.dumps({"text": "x" * (2 * 1024 * 1024 + 10)})
    response = as_user(world.owner).post(
        f"{API}/stages/{world.coding.pk}/answers/", data=body, content_type="application/json"
    )
    assert response.status_code == 413


@pytest.mark.django_db
def test_code_of_exactly_64_kib_is_accepted(world: World, as_user):
    response = as_user(world.owner).post(
        f"{API}/submissions/", data=submission_body(world, code="x" * 64 * 1024), format="json"
    )
    assert response.status_code == 202
    assert response.json() == {"id": response.json()["id"], "status": "queued", "queue_position": 1}


@pytest.mark.django_db
def test_unknown_ids_in_paths_are_404(world: World, as_user):
    client = as_user(world.admin)
    for url in ("/loops/999999/", "/stages/999999/", "/submissions/999999/", "/nope/"):
        response = client.get(API + url)
        assert response.status_code == 404
        assert response.json()["detail"]


@pytest.mark.django_db
def test_submissions_are_rate_limited_with_retry_after(world: World, as_user, settings):
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], submissions="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client = as_user(world.owner)
    statuses = [
        client.post(f"{API}/submissions/", data=submission_body(world), format="json").status_code
        for _ in range(3)
    ]
    assert statuses == [202, 202, 429]
    response = client.post(f"{API}/submissions/", data=submission_body(world), format="json")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response.json()["detail"]
    assert m.Submission.objects.filter(author=world.owner).count() == 3  # world's + 2


DEEP_BODIES = {
    "recursion": "[" * 200_000,  # json.loads raised RecursionError: a 500 with a traceback
    "deep-object": '{"a":' * 500 + "1" + "}" * 500,  # parses, but every later walk recurses
}


@pytest.mark.django_db
@pytest.mark.parametrize("url", RAW_URLS)
@pytest.mark.parametrize("raw", DEEP_BODIES.values(), ids=DEEP_BODIES.keys())
def test_deeply_nested_json_is_400_on_every_endpoint(url, raw, world: World, as_user, unchanged):
    """Anonymous login included: nesting past the parser's bound is bad input, with a code."""
    client = as_user(world.assigned if "follow-ups" in url or "notes" in url else world.owner)
    if url.startswith("/auth/"):
        client = as_user(None)
    response = client.post(
        API + url.format(coding=world.coding.pk), data=raw, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "json_too_deep"


HUGE = 2**70


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, body",
    [
        ("/submissions/", lambda w: submission_body(w, question=HUGE)),
        ("/submissions/", lambda w: submission_body(w, stage=HUGE)),
        ("/submissions/", lambda w: submission_body(w, part=HUGE)),
        ("/submissions/", lambda w: submission_body(w, question=-HUGE)),
        ("/stages/{coding}/answers/", lambda w: {"question": HUGE, "text": "mine"}),
    ],
    ids=["question", "stage", "part", "negative", "answer-question"],
)
def test_huge_integers_are_400_not_an_overflow(url, body, world: World, as_user, unchanged):
    """`question: 2**70` raised OverflowError in the database lookup (a 500)."""
    response = as_user(world.owner).post(
        API + url.format(coding=world.coding.pk), data=body(world), format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "invalid"
    assert response.json()["errors"]


@pytest.mark.django_db
def test_a_huge_id_in_the_path_is_404_not_an_overflow(world: World, as_user):
    response = as_user(world.owner).get(f"{API}/stages/{HUGE}/")
    assert response.status_code == 404, response.content[:300]


def test_an_overflow_the_serializers_missed_is_still_a_400():
    """The handler's net for numbers no serializer bounded (a lookup raising OverflowError)."""
    from interviews.api.errors import exception_handler

    response = exception_handler(OverflowError("Python int too large"), {})
    assert response.status_code == 400
    assert response.data["code"] == "number_out_of_range"


@pytest.mark.django_db
def test_an_unhandled_error_is_a_json_500_without_a_traceback(world: World, as_user, monkeypatch):
    """Whatever breaks, the answer is the error shape: no debug page, no frames, no settings."""
    from interviews.api import accounts

    def broken(self, request):
        raise RuntimeError("secret-detail-from-the-stack")

    monkeypatch.setattr(accounts.MeApi, "get", broken)
    client = as_user(world.owner)
    client.raise_request_exception = False
    response = client.get(f"{API}/me/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "detail": "Server error. The team has been notified.",
        "errors": {},
        "code": "server_error",
    }
    assert b"secret-detail-from-the-stack" not in response.content
    assert b"Traceback" not in response.content
