"""The whole shipped bank imports *with* verification: every coding reference passes
every hidden test of every part in the real Docker sandbox (a failing reference fails
this test). Progress is printed per question (run pytest with -s to watch it)."""

import time

import pytest

from interviews.bankfile.validation import bank_load
from interviews.models import Question
from interviews.services import verification
from interviews.services.bank_import import bank_import
from tests.paths import SHIPPED_BANK_DIR

pytestmark = pytest.mark.integration


def test_the_shipped_bank_imports_with_every_reference_verified(transactional_db, monkeypatch):
    coding = [
        e.spec["slug"] for e in bank_load(SHIPPED_BANK_DIR).questions if e.spec["kind"] == "coding"
    ]
    original = verification.question_verify
    started = time.monotonic()
    seen: list[str] = []

    def verify_with_progress(question, *, on_progress=None):
        seen.append(question.slug)
        t0 = time.monotonic()
        prefix = f"[bank {len(seen)}/{len(coding)}] {question.slug}"

        def progress(done: int, total: int) -> None:
            print(f"{prefix}: {done}/{total} hidden tests", flush=True)
            if on_progress:
                on_progress(done, total)

        result = original(question, on_progress=progress)
        state = "passed" if result.ok else f"FAILED {result.failures[:5]}"
        print(f"{prefix}: {state} in {time.monotonic() - t0:.1f}s", flush=True)
        return result

    monkeypatch.setattr(verification, "question_verify", verify_with_progress)
    result = bank_import(SHIPPED_BANK_DIR, verify=True)
    print(f"[bank] verified {len(result.verified)} questions in {time.monotonic() - started:.1f}s")

    assert sorted(seen) == sorted(coding)
    assert sorted(q.slug for q in result.verified) == sorted(coding)
    for question in Question.objects.filter(kind="coding"):
        assert question.verified_at is not None, question.slug
        assert question.verification["state"] == "passed", question.verification
        assert question.verification["total"] >= 12 * question.parts.count()
        assert question.status == "published"
