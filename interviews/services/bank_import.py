"""Importing bank files (all or nothing, new versions only for changed content), with
their reference solutions verified in the sandbox (on the judge worker, or here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import ngettext

from interviews.bankfile.format import (
    BankIssue,
    BankValidationError,
    bank_parse_text,
    question_fingerprint,
)
from interviews.bankfile.validation import BankEntry, bank_load
from interviews.judging.verification import (
    LocalRunner,
    ReferenceRunner,
    question_verify,
)
from interviews.judging.worker import WorkerRunner, verification_request
from interviews.models import (
    Dimension,
    LoopTemplate,
    Question,
    Rubric,
    StageTemplate,
    StudyPlan,
)
from interviews.models.bank import QuestionStatus
from interviews.selectors.bank import (
    loop_template_to_dict,
    question_is_unverified,
    rubric_to_dict,
    rubrics_by_slug,
    study_plan_to_dict,
)
from interviews.services.audit import audit_record
from interviews.services.questions import (
    question_content_fingerprint,
    question_latest_locked,
    question_translations_replace,
    question_version_create,
)


class BankVerificationError(BankValidationError):
    """A reference solution failed a hidden test in the sandbox; the import was rolled back."""


# --- import ---------------------------------------------------------------------------


@dataclass
class BankImportResult:
    created: list[Question] = field(default_factory=list)
    unchanged: list[Question] = field(default_factory=list)
    verified: list[Question] = field(default_factory=list)
    rubrics: dict[str, list[str]] = field(
        default_factory=lambda: {"created": [], "updated": [], "unchanged": []}
    )
    loops: dict[str, list[str]] = field(
        default_factory=lambda: {"created": [], "updated": [], "unchanged": []}
    )
    plans: dict[str, list[str]] = field(
        default_factory=lambda: {"created": [], "updated": [], "unchanged": []}
    )

    def summary(self) -> str:
        def counts(states: dict[str, list[str]]) -> str:
            return ", ".join(f"{len(slugs)} {state}" for state, slugs in states.items())

        lines = [
            f"questions: {len(self.created)} new version{'s' if len(self.created) != 1 else ''}"
            f", {len(self.unchanged)} unchanged, {len(self.verified)} verified",
            f"rubrics: {counts(self.rubrics)}",
            f"loops: {counts(self.loops)}",
            f"plans: {counts(self.plans)}",
        ]
        for q in self.created:
            unverified = ", unverified" if question_is_unverified(q) else ""
            lines.append(f"  + {q.slug} v{q.version} ({q.status}{unverified})")
        return "\n".join(lines)


def bank_import(
    source: str | Path | Mapping[str, Any],
    *,
    verify: bool = True,
    verify_here: bool = False,
    actor=None,
    label: str = "",
) -> BankImportResult:
    """Import a bank file, a directory of bank files, or a parsed bank dict: all or nothing.

    Rubrics and loop templates are updated in place by slug; a question whose content
    differs from its newest version becomes a new version (identical content: nothing
    happens). With `verify`, every imported coding version that is not verified yet has
    its reference run on every hidden test in the sandbox; one failure rolls back the
    whole import (`BankVerificationError`). The references run on the judge worker, or
    with `verify_here` in this process's own sandbox (a machine with the Docker engine
    and no worker running yet, as in `make run`'s set-up)."""
    with transaction.atomic():
        bank = bank_load(source, label=label)
        result = BankImportResult()
        for entry in bank.rubrics:
            state = _rubric_upsert(entry.spec)
            result.rubrics[state].append(entry.spec["slug"])
        entry_of: dict[int, BankEntry] = {}
        for entry in bank.questions:
            question, created = _question_import(entry.spec, actor=actor)
            (result.created if created else result.unchanged).append(question)
            entry_of[question.pk] = entry
        for entry in bank.loops:
            state = _loop_template_upsert(entry.spec)
            result.loops[state].append(entry.spec["slug"])
        for entry in bank.plans:
            state = _plan_upsert(entry.spec)
            result.plans[state].append(entry.spec["slug"])
        if verify:
            pending = [q for q in (*result.created, *result.unchanged) if question_is_unverified(q)]
            runner = LocalRunner() if verify_here else WorkerRunner()
            result.verified = _bank_verify(pending, entry_of, runner)
        if (
            result.created
            or any(result.rubrics[k] for k in ("created", "updated"))
            or any(result.loops[k] for k in ("created", "updated"))
            or any(result.plans[k] for k in ("created", "updated"))
        ):
            audit_record(
                actor=actor,
                action="bank.import",
                source=label or str(source)[:200],
                created=[str(q) for q in result.created],
                verified=len(result.verified),
            )
    return result


def bank_import_text(
    text: str, *, verify: bool = True, actor=None, label: str = "upload"
) -> BankImportResult:
    """`bank_import` of a bank file's YAML text (an upload): YAML errors and a document
    that is not a mapping are reported like any other problem, with `label` as the file."""
    return bank_import(bank_parse_text(text, label=label), verify=verify, actor=actor, label=label)


def _rubric_upsert(spec: dict) -> str:
    rubric = Rubric.objects.filter(slug=spec["slug"]).prefetch_related("dimensions").first()
    if rubric is not None and rubric_to_dict(rubric) == spec:
        return "unchanged"
    state = "updated" if rubric else "created"
    if rubric is None:
        rubric = Rubric(slug=spec["slug"])
    rubric.title = spec.get("title", "")
    rubric.i18n = spec.get("i18n", {})
    rubric.save()
    rubric.dimensions.all().delete()
    Dimension.objects.bulk_create(
        Dimension(rubric=rubric, position=i, name=d["name"], weight=d["weight"], levels=d["levels"])
        for i, d in enumerate(spec["dimensions"], start=1)
    )
    return state


def _loop_template_upsert(spec: dict) -> str:
    template = (
        LoopTemplate.objects.filter(slug=spec["slug"])
        .prefetch_related(
            Prefetch("stages", queryset=StageTemplate.objects.select_related("rubric"))
        )
        .first()
    )
    if template is not None and loop_template_to_dict(template) == spec:
        return "unchanged"
    state = "updated" if template else "created"
    if template is None:
        template = LoopTemplate(slug=spec["slug"])
    template.title = spec["title"]
    template.description = spec.get("description", "")
    template.status = spec.get("status", QuestionStatus.PUBLISHED)
    template.i18n = spec.get("i18n", {})
    template.save()
    template.stages.all().delete()
    rubrics = rubrics_by_slug(s.get("rubric") for s in spec["stages"])
    StageTemplate.objects.bulk_create(
        StageTemplate(
            loop_template=template,
            position=i,
            kind=stage["kind"],
            title=stage["title"],
            minutes=stage["minutes"],
            question_slugs=stage["questions"],
            rubric=rubrics.get(stage.get("rubric")),
        )
        for i, stage in enumerate(spec["stages"], start=1)
    )
    return state


def _plan_upsert(spec: dict) -> str:
    """A study plan is updated in place by slug (progress is read from stages, never
    from the plan's rows)."""
    plan = StudyPlan.objects.filter(slug=spec["slug"]).first()
    if plan is not None and study_plan_to_dict(plan) == spec:
        return "unchanged"
    state = "updated" if plan else "created"
    if plan is None:
        plan = StudyPlan(slug=spec["slug"])
    plan.title = spec["title"]
    plan.description = spec.get("description", "")
    plan.status = spec.get("status", QuestionStatus.PUBLISHED)
    plan.days = spec["days"]
    plan.translations = spec.get("i18n", {})
    plan.save()
    return state


def _question_import(spec: dict, *, actor) -> tuple[Question, bool]:
    fingerprint = question_fingerprint(spec)
    latest = question_latest_locked(spec["slug"])
    if latest is not None and question_content_fingerprint(latest) == fingerprint:
        question_translations_replace(latest, spec.get("i18n", {}))
        return latest, False
    version = latest.version + 1 if latest else 1
    return question_version_create(
        spec, version=version, fingerprint=fingerprint, actor=actor
    ), True


# --- verification ---------------------------------------------------------------------


def question_verify_reference(*, question: Question, actor=None) -> Question:
    """Queue the question's reference on every sample and hidden test, on the worker;
    the question's `verification` shows the progress and the outcome."""
    return verification_request(question=question, actor=actor)


def _bank_verify(
    questions: list[Question], entry_of: dict[int, BankEntry], runner: ReferenceRunner
) -> list[Question]:
    if not questions:
        return []
    issues: list[BankIssue] = []
    for question in questions:
        result = question_verify(question, runner=runner)
        entry = entry_of[question.pk]
        if result.ok:
            if question.verified_at is None:
                question.verified_at = timezone.now()
            question.save(update_fields=["verified_at", "verification", "reference_time_ms"])
            continue
        for failure in result.failures or ["the reference solution failed"]:
            path, message = _reference_failure_path(question, str(failure))
            issues.append(BankIssue(entry.file, entry.owner, path, message))
    if issues:
        raise BankVerificationError(
            issues,
            ngettext(
                "%(count)s reference failure in the sandbox; nothing was imported.",
                "%(count)s reference failures in the sandbox; nothing was imported.",
                len(issues),
            )
            % {"count": len(issues)},
        )
    return questions


def _reference_failure_path(question: Question, failure: str) -> tuple[str, str]:
    """`python: hidden[3] wrong_answer` → (`coding.reference.python`, `hidden[3] wrong_answer`)."""
    language, sep, rest = failure.partition(":")
    if sep and language.strip() in question.reference:
        return f"coding.reference.{language.strip()}", rest.strip()
    return "coding.reference", failure
