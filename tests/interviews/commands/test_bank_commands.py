"""`import_bank` and `export_bank`: summaries, every error on stderr, non-zero exit."""

import io
import sys

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from interviews import models as m
from interviews.judging.verification import VerificationResult, VerificationUnavailable
from tests.interviews import bank_data as data
from tests.paths import SHIPPED_BANK_DIR

pytestmark = pytest.mark.django_db


def _run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_bank_prints_a_summary(tmp_path):
    path = data.write_yaml(tmp_path / "bank.yaml", data.bank())
    out, _ = _run("import_bank", str(path), "--no-verify")
    assert f"Imported {path}" in out
    assert "questions: 3 new versions, 0 unchanged, 0 verified" in out
    assert "rubrics: 1 created, 0 updated, 0 unchanged" in out
    assert "loops: 1 created, 0 updated, 0 unchanged" in out
    assert "+ adder v1 (published, unverified)" in out

    out, _ = _run("import_bank", str(path), "--no-verify")
    assert "questions: 0 new versions, 3 unchanged, 0 verified" in out


def test_import_bank_reports_every_error_and_fails(tmp_path):
    bank = data.bank()
    bank["questions"][0]["coding"]["parts"][0]["hidden"][1].pop("output")
    bank["questions"][1]["review"]["flaws"][0]["severity"] = "catastrophic"
    bank["loops"][0]["stages"][0]["minutes"] = -5
    path = data.write_yaml(tmp_path / "bank.yaml", bank)

    err = io.StringIO()
    with pytest.raises(CommandError, match="3 problems in the bank; nothing changed"):
        call_command("import_bank", str(path), "--no-verify", stdout=io.StringIO(), stderr=err)
    assert err.getvalue().splitlines() == [
        f"{path}: adder.coding.parts[0].hidden[1].output: missing",
        f"{path}: doc-review.review.flaws[0].severity: must be one of: low, medium, high",
        f"{path}: loops[0] (mini-loop).stages[0].minutes: must be between 1 and 600",
    ]
    assert m.Question.objects.count() == 0


def test_import_bank_exits_non_zero_from_the_command_line(tmp_path):
    """Through `run_from_argv`, a CommandError becomes exit status 1."""
    from django.core.management import ManagementUtility

    path = data.write_yaml(tmp_path / "bad.yaml", {"questions": [{"slug": "x"}]})
    err = io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        with pytest.raises(SystemExit) as exc:
            ManagementUtility(["manage.py", "import_bank", str(path), "--no-verify"]).execute()
    finally:
        sys.stderr = stderr
    assert exc.value.code == 1
    assert f"{path}: x.kind: missing" in err.getvalue()


def test_import_bank_when_nothing_can_verify_says_what_to_do(monkeypatch, tmp_path):
    def question_verify(question, *, runner):
        raise VerificationUnavailable("No judge worker answered.")

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)
    path = data.write_yaml(tmp_path / "bank.yaml", data.bank())
    with pytest.raises(CommandError, match="Rerun with --no-verify"):
        _run("import_bank", str(path))


def test_import_bank_verifies_on_the_worker_or_here(monkeypatch, tmp_path):
    """Without --verify-here the references go to the judge worker (the command may run
    where there is no Docker engine); with it, to this process's sandbox."""
    runners = []

    def question_verify(question, *, runner):
        runners.append(type(runner).__name__)
        question.verified_at = timezone.now()
        return VerificationResult(ok=True, tests=1)

    monkeypatch.setattr("interviews.services.bank_import.question_verify", question_verify)
    path = data.write_yaml(tmp_path / "bank.yaml", data.bank())
    _run("import_bank", str(path))
    m.Question.objects.all().delete()
    _run("import_bank", str(path), "--verify-here")
    assert runners == ["WorkerRunner", "LocalRunner"]


def test_export_bank_to_stdout_and_to_a_file(tmp_path):
    _run("import_bank", str(SHIPPED_BANK_DIR), "--no-verify")
    out, _ = _run("export_bank")
    exported = yaml.safe_load(out)
    assert {"questions", "rubrics", "loops", "plans"} == set(exported)

    target = tmp_path / "export.yaml"
    _, err = _run("export_bank", str(target))
    assert target.read_text() == out
    assert f"Wrote {target}" in err

    out, _ = _run("import_bank", str(target), "--no-verify")
    assert "0 new versions" in out
