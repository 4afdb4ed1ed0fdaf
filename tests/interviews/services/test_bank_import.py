"""Bank import: one transaction, versions instead of mutation, in-place rubrics and loops,
and reference verification in the sandbox (through `interviews.judging.verification`)."""

from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from interviews import models as m
from interviews.judging.verification import VerificationUnavailable
from interviews.selectors.bank import question_prefetch, question_to_dict
from interviews.services.bank_import import BankVerificationError, bank_import
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db


def _dict_of(question: m.Question) -> dict:
    return question_to_dict(question_prefetch(m.Question.objects.filter(pk=question.pk)).get())


def test_import_creates_everything_published_and_unverified_without_verify():
    result = bank_import(data.bank(), verify=False)

    assert [(q.slug, q.version) for q in result.created] == [
        ("adder", 1),
        ("doc-review", 1),
        ("why-here", 1),
    ]
    adder = m.Question.objects.get(slug="adder")
    assert adder.status == "published"
    assert adder.verified_at is None
    assert adder.rubric.slug == "code-rubric"
    assert adder.fingerprint
    assert [(p.position, p.title) for p in adder.parts.order_by("position")] == [
        (1, "Sum"),
        (2, "Difference"),
    ]
    assert adder.parts.get(position=1).tests.filter(visibility="hidden").count() == 2
    follow_up = adder.follow_ups.get()
    assert (follow_up.position, follow_up.unlocks_part, follow_up.trigger) == (
        1,
        2,
        "on_part_passed",
    )
    flaw = m.PlantedFlaw.objects.get()
    assert (flaw.line_start, flaw.line_end, flaw.category, flaw.position) == (3, 5, "spof", 1)
    template = m.LoopTemplate.objects.get(slug="mini-loop")
    assert [(s.position, s.kind, s.question_slugs) for s in template.stages.all()] == [
        (1, "screen", ["why-here"]),
        (2, "coding", ["adder"]),
        (3, "review", ["doc-review"]),
    ]
    assert result.rubrics["created"] == ["code-rubric"]
    assert result.loops["created"] == ["mini-loop"]


def test_reimporting_identical_content_creates_no_version():
    bank_import(data.bank(), verify=False)
    result = bank_import(data.bank(), verify=False)
    assert result.created == []
    assert len(result.unchanged) == 3
    assert result.rubrics["unchanged"] == ["code-rubric"]
    assert result.loops["unchanged"] == ["mini-loop"]
    assert m.Question.objects.count() == 3


def test_changed_content_becomes_a_new_version_and_the_old_one_is_untouched():
    bank_import(data.bank(), verify=False)
    v1 = m.Question.objects.get(slug="adder")
    v1_dict, v1_fingerprint = _dict_of(v1), v1.fingerprint
    v1_test_ids = sorted(m.TestCase.objects.filter(part__question=v1).values_list("id", flat=True))

    changed = data.bank()
    changed["questions"][0]["coding"]["parts"][0]["hidden"][1]["output"] = "zero\n"
    result = bank_import(changed, verify=False)

    assert [(q.slug, q.version) for q in result.created] == [("adder", 2)]
    v1.refresh_from_db()
    assert _dict_of(v1) == v1_dict
    assert v1.fingerprint == v1_fingerprint
    assert sorted(m.TestCase.objects.filter(part__question=v1).values_list("id", flat=True)) == (
        v1_test_ids
    )
    v2 = m.Question.objects.get(slug="adder", version=2)
    assert v2.fingerprint != v1.fingerprint
    assert _dict_of(v2)["coding"]["parts"][0]["hidden"][1]["output"] == "zero\n"


def test_status_comes_from_the_file_and_does_not_make_a_version():
    """Status is not content: a file that only changes a status creates no version (so a
    re-import of the shipped bank never undoes an admin's archive)."""
    bank = data.bank()
    bank["questions"][2]["status"] = "draft"
    bank_import(bank, verify=False)
    assert m.Question.objects.get(slug="why-here").status == "draft"

    result = bank_import(data.bank(), verify=False)
    assert result.created == []
    assert m.Question.objects.get(slug="why-here").status == "draft"


def test_rubrics_and_loop_templates_are_updated_in_place():
    bank_import(data.bank(), verify=False)
    rubric_id = m.Rubric.objects.get().pk
    template_id = m.LoopTemplate.objects.get().pk

    bank = data.bank()
    bank["rubrics"][0]["dimensions"] = [
        {"name": "Only one", "weight": 0.5, "levels": ["1", "2", "3", "4"]}
    ]
    bank["loops"][0]["stages"] = bank["loops"][0]["stages"][:1]
    bank["loops"][0]["title"] = "Renamed"
    result = bank_import(bank, verify=False)

    assert result.rubrics["updated"] == ["code-rubric"]
    assert result.loops["updated"] == ["mini-loop"]
    rubric = m.Rubric.objects.get()
    assert rubric.pk == rubric_id
    assert list(rubric.dimensions.values_list("name", "weight")) == [("Only one", 0.5)]
    template = m.LoopTemplate.objects.get()
    assert (template.pk, template.title, template.stages.count()) == (template_id, "Renamed", 1)


def test_a_failure_late_in_the_import_rolls_everything_back(monkeypatch):
    """All or nothing, even when the problem shows up after rows were written."""
    from interviews.services import bank_import as bank_service

    def explode(spec):
        raise RuntimeError("disk full")

    monkeypatch.setattr(bank_service, "_loop_template_upsert", explode)
    with pytest.raises(RuntimeError):
        bank_import(data.bank(), verify=False)
    assert m.Question.objects.count() == 0
    assert m.Rubric.objects.count() == 0


# --- verification ------------------------------------------------------------------------


@dataclass
class FakeResult:
    ok: bool
    failures: list[str] = field(default_factory=list)


def _install_verifier(monkeypatch, verdicts: dict[str, FakeResult]) -> list[str]:
    """A stand-in for the sandbox verification service: `verdicts` by slug."""
    calls: list[str] = []

    def question_verify(question, *, runner):
        calls.append(question.slug)
        result = verdicts.get(question.slug, FakeResult(ok=True))
        if result.ok:
            question.verified_at = timezone.now()
        return result

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)
    return calls


def test_verify_runs_every_new_coding_version_and_marks_it_verified(monkeypatch):
    calls = _install_verifier(monkeypatch, {})
    result = bank_import(data.bank(), verify=True)
    assert calls == ["adder"]
    assert [q.slug for q in result.verified] == ["adder"]
    assert m.Question.objects.get(slug="adder").verified_at is not None


def test_verify_also_covers_unchanged_versions_that_were_never_verified(monkeypatch):
    bank_import(data.bank(), verify=False)
    calls = _install_verifier(monkeypatch, {})
    result = bank_import(data.bank(), verify=True)
    assert result.created == []
    assert calls == ["adder"]
    assert m.Question.objects.get(slug="adder").verified_at is not None

    calls.clear()
    bank_import(data.bank(), verify=True)
    assert calls == []  # verified already: nothing to run


def test_a_failing_reference_refuses_the_whole_import_with_paths(monkeypatch):
    bank = data.bank()
    bank["questions"].append(data.coding_question("second"))
    _install_verifier(
        monkeypatch,
        {
            "adder": FakeResult(ok=False, failures=["python: hidden[1] wrong_answer"]),
            "second": FakeResult(ok=False, failures=["part 2 has no hidden tests"]),
        },
    )
    with pytest.raises(BankVerificationError) as exc:
        bank_import(bank, verify=True, label="bank.yaml")
    assert [str(issue) for issue in exc.value.issues] == [
        "bank.yaml: adder.coding.reference.python: hidden[1] wrong_answer",
        "bank.yaml: second.coding.reference: part 2 has no hidden tests",
    ]
    assert m.Question.objects.count() == 0
    assert m.Rubric.objects.count() == 0


def _nothing_can_verify(monkeypatch) -> None:
    def question_verify(question, *, runner):
        raise VerificationUnavailable("No judge worker answered.")

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)


def test_verify_when_nothing_can_run_the_references_is_refused(monkeypatch):
    _nothing_can_verify(monkeypatch)
    with pytest.raises(VerificationUnavailable):
        bank_import(data.bank(), verify=True)
    assert m.Question.objects.count() == 0


def test_verify_is_not_needed_without_coding_questions(monkeypatch):
    _nothing_can_verify(monkeypatch)
    bank = {"questions": [data.discussion_question()]}
    assert len(bank_import(bank, verify=True).created) == 1
