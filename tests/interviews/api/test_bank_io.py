"""/api/v1/bank/import/ and /api/v1/bank/export/: admins move whole bank documents in and
out over HTTP, with the same all-or-nothing validation (errors by path) as import_bank."""

from dataclasses import dataclass, field

import pytest
import yaml
from django.utils import timezone

from interviews import models as m
from interviews.judging.verification import VerificationUnavailable
from interviews.selectors.bank import bank_export
from interviews.services.bank_import import bank_import
from tests import factories as f
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db

IMPORT = "/api/v1/bank/import/"
EXPORT = "/api/v1/bank/export/"


@pytest.fixture
def admin(api_client_for):
    return api_client_for(f.AdminFactory())


@dataclass
class FakeResult:
    ok: bool
    failures: list[str] = field(default_factory=list)
    tests: int = 2


@pytest.fixture
def sandbox(monkeypatch) -> list[str]:
    """A stand-in verification service: records what it ran; fails slugs named `bad-*`."""
    ran: list[str] = []

    def question_verify(question, *, runner):
        ran.append(question.slug)
        if question.slug.startswith("bad-"):
            return FakeResult(ok=False, failures=["python: parts[0].hidden[1] wrong_answer"])
        question.verified_at = timezone.now()
        return FakeResult(ok=True)

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)
    return ran


def test_import_yaml_text_verifies_and_reports_what_changed(admin, sandbox):
    text = yaml.safe_dump(data.bank(), sort_keys=False)
    response = admin.post(IMPORT, text, content_type="application/yaml")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [q["slug"] for q in body["questions"]["created"]] == ["adder", "doc-review", "why-here"]
    assert body["questions"]["verified"] == ["adder"]
    assert body["rubrics"]["created"] == ["code-rubric"]
    assert body["loops"]["created"] == ["mini-loop"]
    assert "3 new versions" in body["summary"]
    assert sandbox == ["adder"]
    adder = m.Question.objects.get(slug="adder")
    assert adder.verified_at is not None and adder.status == "published"


def test_import_yaml_with_verify_0_skips_the_sandbox(admin, sandbox):
    text = yaml.safe_dump(data.bank())
    response = admin.post(f"{IMPORT}?verify=0", text, content_type="text/yaml")
    assert response.status_code == 200, response.content
    assert sandbox == []
    created = {q["slug"]: q for q in response.json()["questions"]["created"]}
    assert created["adder"]["verified"] is False


def test_import_json_bank_dict_with_just_a_loop(admin, sandbox):
    bank_import(data.bank(), verify=False)
    loop = data.loop("builder-loop")
    loop["stages"] = list(reversed(loop["stages"]))
    response = admin.post(IMPORT, {"bank": {"loops": [loop]}, "verify": False}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["loops"]["created"] == ["builder-loop"]
    template = m.LoopTemplate.objects.get(slug="builder-loop")
    assert list(template.stages.order_by("position").values_list("kind", flat=True)) == [
        "review",
        "coding",
        "screen",
    ]
    # A rubric alone replaces the rubric of that slug.
    rubric = data.rubric()
    rubric["dimensions"][0]["weight"] = 3
    body = admin.post(IMPORT, {"bank": {"rubrics": [rubric]}}, format="json").json()
    assert body["rubrics"]["updated"] == ["code-rubric"]
    assert m.Dimension.objects.get(rubric__slug="code-rubric", name="Correctness").weight == 3


def test_import_json_yaml_field(admin, sandbox):
    text = yaml.safe_dump({"rubrics": [data.rubric("r2")]})
    response = admin.post(IMPORT, {"yaml": text, "verify": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["rubrics"]["created"] == ["r2"]


def test_import_lists_every_problem_by_path_and_changes_nothing(admin, sandbox):
    bank = data.bank()
    del bank["questions"][0]["coding"]["parts"][0]["hidden"][1]["output"]
    bank["loops"][0]["stages"][0]["questions"] = ["no-such-question"]
    bank["rubrics"][0]["dimensions"][0]["levels"] = ["only one"]
    response = admin.post(IMPORT, {"bank": bank}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "nothing changed" in body["detail"]
    errors = body["errors"]
    assert errors["adder.coding.parts[0].hidden[1].output"] == ["missing"]
    assert "loops[0] (mini-loop).stages[0].questions[0]" in errors
    assert "rubrics[0] (code-rubric).dimensions[0].levels" in errors
    assert not m.Question.objects.exists()
    assert not m.Rubric.objects.exists()
    assert sandbox == []


def test_import_refuses_a_failing_reference_and_rolls_back(admin, sandbox):
    bank = data.bank()
    bank["questions"][0]["slug"] = "bad-adder"
    bank["loops"][0]["stages"][1]["questions"] = ["bad-adder"]
    response = admin.post(IMPORT, {"bank": bank}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "reference failure" in body["detail"]
    assert body["errors"] == {
        "bad-adder.coding.reference.python": ["parts[0].hidden[1] wrong_answer"]
    }
    assert not m.Question.objects.exists()
    assert not m.LoopTemplate.objects.exists()


def test_import_bad_yaml_and_non_mapping(admin, sandbox):
    def problems(text: str) -> list[str]:
        response = admin.post(IMPORT, text, content_type="application/yaml")
        assert response.status_code == 400
        assert response.json()["detail"] == "1 problem in the bank; nothing changed."
        return response.json()["errors"]["non_field_errors"]

    assert "invalid YAML" in problems("questions: [a\n")[0]
    assert "must be a mapping" in problems("- just\n- a list\n")[0]
    assert "duplicate key" in problems("questions: []\nquestions: []\n")[0]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"yaml": "rubrics: []", "bank": {}},
        {"yaml": 12},
        {"bank": "text"},
        {"yaml": "", "verify": "yes"},
        {"yaml": "", "extra": 1},
    ],
)
def test_import_bad_json_bodies_are_400(admin, sandbox, body):
    response = admin.post(IMPORT, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["detail"]


def test_import_bad_verify_query_is_400(admin, sandbox):
    response = admin.post(f"{IMPORT}?verify=maybe", "rubrics: []\n", content_type="text/yaml")
    assert response.status_code == 400
    assert response.json()["errors"] == {"verify": ["Use 1/true or 0/false."]}


def test_import_without_the_sandbox_is_503(admin, monkeypatch):
    def question_verify(question, *, runner):
        raise VerificationUnavailable("No judge worker answered.")

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)
    response = admin.post(IMPORT, {"bank": data.bank()}, format="json")
    assert response.status_code == 503
    assert not m.Question.objects.exists()


def test_import_too_large_is_413(admin, monkeypatch):
    monkeypatch.setattr("interviews.api.bank_io.BANK_MAX_BYTES", 100)
    response = admin.post(IMPORT, "rubrics: []\n" + "#" * 200, content_type="application/yaml")
    assert response.status_code == 413


def test_export_is_the_bank_file_and_imports_back_unchanged(admin):
    bank_import(data.bank(), verify=False)
    response = admin.get(EXPORT)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert "attachment" in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode()  # streamed
    assert yaml.safe_load(text) == bank_export()
    body = admin.post(f"{IMPORT}?verify=0", text, content_type="application/yaml").json()
    assert body["questions"]["created"] == []
    assert body["rubrics"]["unchanged"] == ["code-rubric"]
    assert body["loops"]["unchanged"] == ["mini-loop"]


def test_export_json_and_only_some_sections(admin):
    bank_import(data.bank(), verify=False)
    body = admin.get(EXPORT, {"as": "json", "only": "rubrics,loops"}).json()
    assert set(body) == {"rubrics", "loops"}
    assert body["loops"][0]["slug"] == "mini-loop"
    assert admin.get(EXPORT, {"only": "everything"}).status_code == 400
    assert admin.get(EXPORT, {"as": "xml"}).status_code == 400


@pytest.mark.parametrize("who", ["anonymous", "candidate", "coach"])
def test_only_admins_move_banks(api_client_for, who):
    user = {"anonymous": None, "candidate": f.UserFactory(), "coach": f.CoachFactory()}[who]
    client = api_client_for(user)
    expected = 401 if user is None else 403
    assert client.get(EXPORT).status_code == expected
    response = client.post(IMPORT, {"bank": data.bank()}, format="json")
    assert response.status_code == expected
    assert not m.Question.objects.exists()
