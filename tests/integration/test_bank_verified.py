"""The whole shipped bank imports *with* verification through the real judge worker:
every coding reference passes every sample and hidden test of every part in the real
Docker sandbox (a failing reference fails this test). Progress is printed per question
(run pytest with -s to watch it)."""

import time

import pytest

from interviews.bankfile.validation import bank_load
from interviews.judging.worker import WorkerRunner
from interviews.models import Question
from interviews.services import bank_import as bank
from interviews.services.bank_import import bank_import
from tests.paths import SHIPPED_BANK_DIR

pytestmark = pytest.mark.integration


def test_the_shipped_bank_imports_with_every_reference_verified(celery_worker, monkeypatch):
    coding = [
        e.spec["slug"] for e in bank_load(SHIPPED_BANK_DIR).questions if e.spec["kind"] == "coding"
    ]
    original = bank.question_verify
    started = time.monotonic()
    seen: list[str] = []

    def verify_with_progress(question, *, runner, on_progress=None):
        assert isinstance(runner, WorkerRunner), "the import sends its jobs to the worker"
        seen.append(question.slug)
        t0 = time.monotonic()
        prefix = f"[bank {len(seen)}/{len(coding)}] {question.slug}"

        def progress(done: int, total: int) -> None:
            print(f"{prefix}: {done}/{total} hidden tests", flush=True)
            if on_progress:
                on_progress(done, total)

        result = original(question, runner=runner, on_progress=progress)
        state = "passed" if result.ok else f"FAILED {result.failures[:5]}"
        print(f"{prefix}: {state} in {time.monotonic() - t0:.1f}s", flush=True)
        return result

    monkeypatch.setattr(bank, "question_verify", verify_with_progress)
    result = bank_import(SHIPPED_BANK_DIR, verify=True)
    print(f"[bank] verified {len(result.verified)} questions in {time.monotonic() - started:.1f}s")

    assert sorted(seen) == sorted(coding)
    assert sorted(q.slug for q in result.verified) == sorted(coding)
    for question in Question.objects.filter(kind="coding"):
        assert question.verified_at is not None, question.slug
        assert question.verification["state"] == "passed", question.verification
        assert question.verification["total"] >= 12 * question.parts.count()
        assert question.status == "published"
