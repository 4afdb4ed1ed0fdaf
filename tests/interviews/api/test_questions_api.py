"""/api/v1/questions/: admins curate the bank; everyone else reads only what a candidate
may see of published questions. Leak checks search the whole serialized JSON text."""

import json
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from interviews import models as m
from interviews.services.bank_import import bank_import
from tests import factories as f
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db

LIST = "/api/v1/questions/"

# What must never reach a candidate or a coach through this API.
SECRETS = [
    data.HIDDEN_OUTPUT,
    "SENTINEL-REFERENCE",
    data.COACH_NOTES,
    data.LOCKED_PART_PROMPT,
    data.FLAW_EXPLANATION,
    "Now subtract instead.",  # the follow-up prompt: no follow-ups at all for non-admins
]


@dataclass
class Bank:
    adder: m.Question
    review: m.Question
    discussion: m.Question
    draft: m.Question


@pytest.fixture
def bank() -> Bank:
    source = data.bank()
    source["questions"].append({**data.discussion_question("secret-draft"), "status": "draft"})
    bank_import(source, verify=False)
    latest = {q.slug: q for q in m.Question.objects.all()}
    return Bank(latest["adder"], latest["doc-review"], latest["why-here"], latest["secret-draft"])


@pytest.fixture
def users() -> dict:
    return {
        "anonymous": None,
        "candidate": f.UserFactory(),
        "coach": f.CoachFactory(),
        "admin": f.AdminFactory(),
    }


@pytest.fixture
def client(api_client_for, users):
    return lambda role: api_client_for(users[role])


def _detail(question: m.Question) -> str:
    return f"{LIST}{question.pk}/"


def _write_requests(bank: Bank) -> list[tuple[str, str, dict | None]]:
    return [
        ("post", LIST, data.discussion_question("brand-new")),
        ("put", _detail(bank.discussion), data.discussion_question()),
        ("patch", _detail(bank.discussion), {"title": "Renamed"}),
        ("delete", _detail(bank.discussion), None),
        ("post", f"{_detail(bank.discussion)}publish/", None),
        ("post", f"{_detail(bank.adder)}verify/", None),
    ]


# --- authorisation -----------------------------------------------------------------------


def test_anonymous_gets_401_everywhere(client, bank):
    anonymous = client("anonymous")
    assert anonymous.get(LIST).status_code == 401
    assert anonymous.get(_detail(bank.adder)).status_code == 401
    for method, url, body in _write_requests(bank):
        response = getattr(anonymous, method)(url, body, format="json")
        assert response.status_code == 401, (method, url)
        assert response.json()["detail"]


@pytest.mark.parametrize("role", ["candidate", "coach"])
def test_non_admins_cannot_write(client, bank, role):
    for method, url, body in _write_requests(bank):
        response = getattr(client(role), method)(url, body, format="json")
        assert response.status_code == 403, (method, url)
        assert response.json()["detail"] == "Only admins may change the question bank."
    assert m.Question.objects.count() == 4
    assert m.Question.objects.get(pk=bank.discussion.pk).status == "published"


@pytest.mark.parametrize("role", ["candidate", "coach"])
def test_non_admins_read_published_questions_only(client, bank, role):
    response = client(role).get(LIST)
    assert response.status_code == 200
    assert sorted(q["slug"] for q in response.json()) == ["adder", "doc-review", "why-here"]
    assert client(role).get(_detail(bank.draft)).status_code == 404
    assert client(role).get(f"{LIST}999999/").status_code == 404
    assert client(role).get(_detail(bank.adder)).status_code == 200


# --- what a candidate may see ------------------------------------------------------------


@pytest.mark.parametrize("role", ["candidate", "coach"])
def test_no_secret_reaches_a_non_admin(client, bank, role):
    bodies = [client(role).get(LIST).content.decode()]
    for question in (bank.adder, bank.review, bank.discussion):
        bodies.append(client(role).get(_detail(question)).content.decode())
    for body in bodies:
        for secret in SECRETS:
            assert secret not in body
        assert '"follow_ups"' not in body
        assert '"reference"' not in body
        assert '"flaws"' not in body
        assert '"hidden":' not in body


def test_the_public_view_of_a_coding_question(client, bank):
    body = client("candidate").get(_detail(bank.adder)).json()
    assert body["coding"] == {
        "languages": ["python", "javascript"],
        "io": "stdio",
        "entrypoint": "",
        "time_limit_ms": 1000,
        "memory_limit_mb": 128,
        "checker": "exact",
        "starter": {"python": "import sys\n"},
        "parts": [  # part 2 is unlocked by a follow-up: not shown
            {
                "number": 1,
                "title": "Sum",
                "prompt": "Print the sum.\n",
                "samples": [{"input": "1 2\n", "output": "3\n"}],
                "hidden_count": 2,
                "language": "en",
                "fallback_fields": [],
            }
        ],
    }
    assert body["review"] is None
    assert body["rubric"] == "code-rubric"


def test_the_public_view_of_a_review_question_has_the_document_only(client, bank):
    body = client("candidate").get(_detail(bank.review)).json()
    assert body["review"] == {"document": data.DOCUMENT}
    assert body["coding"] is None


def test_admins_see_everything_in_the_bank_file_shape(client, bank):
    response = client("admin").get(_detail(bank.adder))
    body = response.json()
    text = response.content.decode()
    for secret in SECRETS[:4]:
        assert secret in text
    assert (body["id"], body["version"], body["status"], body["verified_at"]) == (
        bank.adder.pk,
        1,
        "published",
        None,
    )
    expected = data.coding_question()
    for key in ("slug", "kind", "title", "prompt", "follow_ups", "rubric"):
        assert body[key] == expected[key]
    assert body["coding"]["parts"] == [
        {**part, "prompt": part["prompt"]} for part in expected["coding"]["parts"]
    ]
    flaws = client("admin").get(_detail(bank.review)).json()["review"]["flaws"]
    assert flaws[0]["explanation"] == data.FLAW_EXPLANATION


def test_admin_list_has_drafts_and_filters(client, bank):
    slugs = [q["slug"] for q in client("admin").get(LIST).json()]
    assert slugs == ["adder", "doc-review", "secret-draft", "why-here"]
    assert [q["slug"] for q in client("admin").get(LIST, {"kind": "review"}).json()] == [
        "doc-review"
    ]
    assert [q["slug"] for q in client("admin").get(LIST, {"status": "draft"}).json()] == [
        "secret-draft"
    ]

    changed = data.bank()
    changed["questions"][2]["title"] = "Why here, v2"
    bank_import(changed, verify=False)
    versions = client("admin").get(LIST, {"slug": "why-here", "all_versions": "1"}).json()
    assert [(q["version"], q["title"]) for q in versions] == [(2, "Why here, v2"), (1, "Why here?")]
    [latest] = client("candidate").get(LIST, {"slug": "why-here"}).json()
    assert latest["version"] == 2


SUMMARY_KEYS = {
    "id",
    "slug",
    "version",
    "kind",
    "title",
    "difficulty",
    "tags",
    "status",
    "verified_at",
    "verification_state",
    "part_count",
    "sample_count",
    "hidden_count",
    "follow_up_count",
    "flaw_count",
    "created_at",
}
PUBLIC_KEYS = {
    "id",
    "slug",
    "version",
    "kind",
    "title",
    "difficulty",
    "tags",
    "prompt",
    "rubric",
    "coding",
    "review",
    "language",
    "fallback_fields",
}


def test_admin_list_is_a_summary_with_counts_and_state(client, bank):
    m.Question.objects.filter(pk=bank.adder.pk).update(
        verification={"state": "failed", "done": 2, "total": 2, "failures": ["SENTINEL-F"]}
    )
    response = client("admin").get(LIST)
    rows = {q["slug"]: q for q in response.json()}
    assert all(set(row) == SUMMARY_KEYS for row in rows.values())
    adder = rows["adder"]
    assert {k: v for k, v in adder.items() if k != "created_at"} == {
        "id": bank.adder.pk,
        "slug": "adder",
        "version": 1,
        "kind": "coding",
        "title": "Add numbers",
        "difficulty": "easy",
        "tags": ["warm-up"],
        "status": "published",
        "verified_at": None,
        "verification_state": "failed",
        "part_count": 2,
        "sample_count": 2,
        "hidden_count": 3,
        "follow_up_count": 1,
        "flaw_count": 0,
    }
    assert adder["created_at"]
    review = rows["doc-review"]
    assert (review["part_count"], review["hidden_count"], review["flaw_count"]) == (0, 0, 1)
    assert (review["verification_state"], rows["secret-draft"]["status"]) == (None, "draft")

    # Nothing the editor loads per question: no prompt, tests, reference, notes or flaws.
    text = response.content.decode()
    for secret in [*SECRETS, "SENTINEL-F", "Add the numbers.", "Print the sum."]:
        assert secret not in text
    for key in ('"coding":', '"follow_ups":', '"review":', '"prompt":', '"verification":'):
        assert key not in text
    # ... which the detail still has, for the editor.
    detail = client("admin").get(_detail(bank.adder)).content.decode()
    assert data.HIDDEN_OUTPUT in detail and "SENTINEL-F" in detail


@pytest.mark.parametrize("role", ["candidate", "coach"])
def test_non_admins_get_the_public_view_not_the_summary(client, bank, role):
    """The admin-only state (status, verification, counts of hidden content) is not theirs,
    and the admin filters do not widen what they see."""
    rows = client(role).get(LIST, {"status": "draft", "all_versions": "1"}).json()
    assert sorted(q["slug"] for q in rows) == ["adder", "doc-review", "why-here"]
    for row in rows:
        assert set(row) == PUBLIC_KEYS
    [adder] = [q for q in rows if q["slug"] == "adder"]
    assert [p["number"] for p in adder["coding"]["parts"]] == [1]  # the locked part is not listed


def test_admin_summary_list_is_one_query_however_many_questions(client, users):
    """Constant in the number of questions (1 vs 6, with parts, tests, follow-ups, flaws),
    and test bodies, references and flaw keys are never read from the database."""
    bank_import({"questions": [data.discussion_question()]}, verify=False)
    api = client("admin")
    api.get(LIST)  # warm up (role lookup, content types)
    with CaptureQueriesContext(connection) as one:
        assert len(api.get(LIST).json()) == 1
    source = data.bank()
    for i in range(3):
        source["questions"].append(data.coding_question(f"more-{i}"))
    bank_import(source, verify=False)
    with CaptureQueriesContext(connection) as several:
        assert len(api.get(LIST).json()) == 6
    with CaptureQueriesContext(connection) as every_version:
        api.get(LIST, {"all_versions": "1"})
    assert len(one) == len(several) == len(every_version)
    listing = [q["sql"] for q in several if "interviews_question" in q["sql"]]
    assert len(listing) == 1
    for column in ('"input"', '"output"', '"reference"', '"explanation"', '"coach_notes"'):
        assert column not in listing[0]


@pytest.mark.parametrize("role", ["candidate", "admin"])
def test_listing_uses_a_constant_number_of_queries(client, bank, role):
    api = client(role)
    api.get(LIST)  # warm up (role lookup, content types)
    with CaptureQueriesContext(connection) as few:
        api.get(LIST)
    source = data.bank()
    for i in range(5):
        source["questions"].append(data.coding_question(f"more-{i}"))
    bank_import(source, verify=False)
    with CaptureQueriesContext(connection) as many:
        response = api.get(LIST)
    assert len(response.json()) >= 8
    assert len(many) == len(few)


# --- admin writes ------------------------------------------------------------------------


def test_admin_creates_a_question_as_a_draft(client, bank):
    response = client("admin").post(LIST, data.discussion_question("brand-new"), format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["slug"], body["version"], body["status"]) == ("brand-new", 1, "draft")
    created = m.Question.objects.get(pk=body["id"])
    assert created.follow_ups.count() == 1


def test_admin_creates_a_coding_question(client, bank):
    question = data.coding_question("adder-2", status="draft")
    response = client("admin").post(LIST, question, format="json")
    assert response.status_code == 201
    assert response.json()["coding"]["parts"][0]["hidden"][0]["output"] == data.HIDDEN_OUTPUT

    published = data.coding_question("adder-3", status="published")
    response = client("admin").post(LIST, published, format="json")
    assert response.status_code == 409
    assert "unverified" in response.json()["detail"]


def test_create_reports_every_problem_by_path(client, bank):
    question = data.coding_question("broken")
    question["coding"]["parts"][0]["hidden"][0].pop("output")
    question["coding"]["checker"] = "close-enough"
    question["mood"] = "happy"
    response = client("admin").post(LIST, question, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == {
        "mood": ["unknown field"],
        "coding.checker": [
            "must be exact, tokens, unordered-lines or float:<eps> (e.g. float:1e-6)"
        ],
        "coding.parts[0].hidden[0].output": ["missing"],
    }
    assert body["detail"] == "mood: unknown field"
    assert not m.Question.objects.filter(slug="broken").exists()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("[1, 2]", "application/json"),
        ("{not json", "application/json"),
        ('"a string"', "application/json"),
    ],
)
def test_create_rejects_bodies_that_are_not_question_objects(client, bank, body, content_type):
    response = client("admin").post(LIST, body, content_type=content_type)
    assert response.status_code == 400
    assert response.json()["detail"]


def test_create_refuses_an_existing_slug(client, bank):
    response = client("admin").post(LIST, data.discussion_question(), format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "slug": ["a question with this slug exists; edit it instead"]
    }


def test_put_on_an_unused_version_changes_it_in_place(client, bank):
    question = {**data.discussion_question(), "title": "Why us, really?"}
    response = client("admin").put(_detail(bank.discussion), question, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["version"], body["title"]) == (
        bank.discussion.pk,
        1,
        "Why us, really?",
    )
    assert m.Question.objects.filter(slug="why-here").count() == 1


def test_put_on_a_used_version_creates_a_new_version(client, bank):
    stage = f.StageFactory()
    m.StageQuestion.objects.create(stage=stage, question=bank.adder, position=1)
    before = client("admin").get(_detail(bank.adder)).json()

    changed = data.coding_question()
    changed["coding"]["parts"][0]["hidden"][1]["output"] = "zero\n"
    response = client("admin").put(_detail(bank.adder), changed, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["id"] != bank.adder.pk
    assert (body["version"], body["status"], body["verified_at"]) == (2, "draft", None)
    assert client("admin").get(_detail(bank.adder)).json() == before


def test_patch_is_a_merge_patch(client, bank):
    response = client("admin").patch(
        _detail(bank.adder), {"coding": {"time_limit_ms": 3000}, "tags": None}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["coding"]["time_limit_ms"] == 3000
    assert body["coding"]["parts"][0]["title"] == "Sum"
    assert body["tags"] == []
    # changed coding content is unverified, so it became a draft rather than published
    assert body["status"] == "draft"


def test_patch_that_publishes_changed_coding_content_is_refused(client, bank):
    response = client("admin").patch(
        _detail(bank.adder), {"title": "Adder", "status": "published"}, format="json"
    )
    assert response.status_code == 409
    assert m.Question.objects.get(pk=bank.adder.pk).title == "Add numbers"


def test_patch_status_only_changes_the_version_in_place_even_when_used(client, bank):
    stage = f.StageFactory()
    m.StageQuestion.objects.create(stage=stage, question=bank.discussion, position=1)
    response = client("admin").patch(_detail(bank.discussion), {"status": "draft"}, format="json")
    assert response.status_code == 200
    assert response.json()["id"] == bank.discussion.pk
    assert m.Question.objects.get(pk=bank.discussion.pk).status == "draft"


def test_patch_rejects_unknown_fields_and_slug_changes(client, bank):
    response = client("admin").patch(_detail(bank.discussion), {"colour": "red"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"colour": ["unknown field"]}
    response = client("admin").patch(_detail(bank.discussion), {"slug": "other"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"slug": ["cannot change; create a new question instead"]}


def test_read_only_fields_may_be_sent_back(client, bank):
    current = client("admin").get(_detail(bank.discussion)).json()
    response = client("admin").put(_detail(bank.discussion), current, format="json")
    assert response.status_code == 200
    assert response.json() == current


def test_delete_archives_every_version(client, bank):
    changed = data.bank()
    changed["questions"][2]["title"] = "Why here, v2"
    bank_import(changed, verify=False)
    response = client("admin").delete(_detail(bank.discussion))
    assert response.status_code == 204
    assert set(m.Question.objects.filter(slug="why-here").values_list("status", flat=True)) == {
        "archived"
    }
    assert "why-here" not in [q["slug"] for q in client("candidate").get(LIST).json()]
    assert client("candidate").get(_detail(bank.discussion)).status_code == 404
    assert client("admin").get(_detail(bank.discussion)).json()["status"] == "archived"


# --- publish and verify ------------------------------------------------------------------


def test_publishing_an_unverified_coding_question_is_a_conflict(client, bank):
    m.Question.objects.filter(pk=bank.adder.pk).update(status="draft")
    response = client("admin").post(f"{_detail(bank.adder)}publish/")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "adder v1 is not verified yet" in detail
    assert response.json()["code"] == "question_not_verified"
    assert "/api/" not in detail  # a sentence for people, not a raw API path
    assert m.Question.objects.get(pk=bank.adder.pk).status == "draft"


def test_publishing_after_a_failed_verification_says_it_failed(client, bank):
    m.Question.objects.filter(pk=bank.adder.pk).update(
        status="draft", verification={"state": "failed", "failures": ["python: x"]}
    )
    response = client("admin").post(f"{_detail(bank.adder)}publish/")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "adder v1 failed verification" in detail and "not verified" not in detail
    assert "/api/" not in detail


def test_publishing_verified_and_non_coding_questions(client, bank):
    m.Question.objects.filter(pk=bank.adder.pk).update(status="draft", verified_at=timezone.now())
    response = client("admin").post(f"{_detail(bank.adder)}publish/")
    assert response.status_code == 200
    assert response.json()["status"] == "published"

    response = client("admin").post(f"{_detail(bank.draft)}publish/")
    assert response.status_code == 200
    assert client("candidate").get(_detail(bank.draft)).status_code == 200


def test_publish_takes_no_body(client, bank):
    response = client("admin").post(
        f"{_detail(bank.draft)}publish/", {"force": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"force": ["Unknown field."]}


@pytest.fixture
def worker(monkeypatch):
    """Runs a queued verification at once, as the worker would, with the sandbox run
    replaced by `outcomes` (by slug); the real worker path is tested in
    tests/integration/test_verification_worker.py."""
    from interviews.judging import verification

    outcomes: dict[str, verification.VerificationResult] = {}
    queued: list[int] = []

    def question_verify(question, *, runner):
        assert isinstance(runner, verification.LocalRunner), "the worker runs it locally"
        result = outcomes.get(question.slug, verification.VerificationResult(ok=True, tests=3))
        return verification._finish(question, result)

    def queue_verification(question_id, actor_id):
        queued.append(question_id)
        verification.verification_run(question_id=question_id, actor_id=actor_id)

    monkeypatch.setattr(verification, "question_verify", question_verify)
    monkeypatch.setattr("interviews.judging.worker.queue_verification", queue_verification)
    return outcomes, queued


def test_verify_answers_202_queued_and_the_worker_marks_the_question_verified(
    client, bank, users, worker, django_capture_on_commit_callbacks
):
    _, queued = worker
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client("admin").post(f"{_detail(bank.adder)}verify/")
    assert response.status_code == 202
    body = response.json()
    assert body["verification"] == {"state": "queued", "done": 0, "total": 0}
    assert body["question"]["verification"]["state"] == "queued"
    assert m.Question.objects.get(pk=bank.adder.pk).verification["state"] == "queued"
    assert queued == [], "nothing runs in the web process"
    for callback in callbacks:
        callback()
    assert queued == [bank.adder.pk]
    question = client("admin").get(_detail(bank.adder)).json()
    assert question["verification"]["state"] == "passed"
    assert question["verified_at"]
    entry = m.AuditEntry.objects.get(action="question.verify")
    assert entry.detail["ok"] is True and entry.actor == users["admin"]


def test_verify_failures_land_on_the_question(
    client, bank, worker, django_capture_on_commit_callbacks
):
    from interviews.judging.verification import VerificationResult

    outcomes, _ = worker
    outcomes[bank.adder.slug] = VerificationResult(
        ok=False, failures=["python: parts[0].hidden[0] wrong_answer"], tests=3
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert client("admin").post(f"{_detail(bank.adder)}verify/").status_code == 202
    question = client("admin").get(_detail(bank.adder)).json()
    assert question["verification"]["state"] == "failed"
    assert question["verification"]["failures"] == ["python: parts[0].hidden[0] wrong_answer"]
    assert question["verified_at"] is None


def test_verify_is_refused_to_coaches_and_candidates(client, bank, worker):
    for role in ("coach", "candidate"):
        assert client(role).post(f"{_detail(bank.adder)}verify/").status_code == 403
    assert m.Question.objects.get(pk=bank.adder.pk).verification == {}


def test_verify_is_for_coding_questions(client, bank):
    response = client("admin").post(f"{_detail(bank.discussion)}verify/")
    assert response.status_code == 409


def test_schema_documents_the_questions_api(client, bank):
    response = client("admin").get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    text = response.content.decode()
    if text.lstrip().startswith("{"):
        paths = json.loads(text)["paths"]
        assert "/api/v1/questions/{question_id}/verify/" in paths
    else:
        assert "/api/v1/questions/{question_id}/verify/" in text


# --- key points (the bank editor's key-point forms) -----------------------------------------

KEY_POINTS = [
    {
        "point": "names the lab's mission",
        "patterns": {"en": [r"\bmission\b"], "zh": ["使命"]},
        "dimension": "Specific motivation",
    }
]


def test_key_points_of_a_question_and_its_follow_ups_round_trip(client, bank):
    """What the editor PUTs (the question's key points and each follow-up's) comes back
    unchanged from GET, as the editor reloads it."""
    question = {
        **data.discussion_question(),
        "key_points": KEY_POINTS,
        "follow_ups": [
            {
                "prompt": "Why not elsewhere?",
                "trigger": "after_answer",
                "key_points": [
                    {"point": "compares labs", "patterns": {"en": ["compar"]}, "dimension": "Fit"}
                ],
            }
        ],
    }
    response = client("admin").put(_detail(bank.discussion), question, format="json")
    assert response.status_code == 200, response.content
    body = client("admin").get(_detail(bank.discussion)).json()
    assert body["key_points"] == KEY_POINTS
    assert body["follow_ups"][0]["key_points"] == question["follow_ups"][0]["key_points"]


def test_key_point_problems_are_named_by_path(client, bank):
    question = {
        **data.discussion_question(),
        "key_points": [{"point": "", "patterns": {"en": ["(unclosed"]}, "dimension": "Fit"}],
        "follow_ups": [
            {
                "prompt": "Why not elsewhere?",
                "trigger": "manual",
                "key_points": [{"point": "compares labs", "patterns": {}, "dimension": ""}],
            }
        ],
    }
    response = client("admin").put(_detail(bank.discussion), question, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {
        "key_points[0].point",
        "key_points[0].patterns.en[0]",
        "follow_ups[0].key_points[0].patterns",
        "follow_ups[0].key_points[0].dimension",
    }
    assert "not a regular expression" in errors["key_points[0].patterns.en[0]"][0]
