"""The admin's verbs on one question, and the building of a question version (shared
with the bank import).

A `Question` row is one version of a slug. Import never changes an existing version:
identical content is left alone, changed content becomes `version + 1`. The admin API
edits a version in place only while nothing (stage, submission, answer, comment) uses it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from interviews.bankfile.anchors import range_text, reanchor
from interviews.bankfile.format import (
    DEFAULT_MEMORY_LIMIT_MB,
    DEFAULT_OUTPUT_LIMIT_MB,
    DEFAULT_TIME_LIMIT_MS,
    BankIssue,
    BankValidationError,
    question_fingerprint,
)
from interviews.bankfile.translations import translations_from_json
from interviews.bankfile.validation import QUESTION_READ_ONLY_FIELDS, question_validate
from interviews.models import FollowUp, Part, PlantedFlaw, Question, TestCase
from interviews.models.bank import IoMode, QuestionKind, QuestionStatus
from interviews.selectors.bank import (
    question_is_unverified,
    question_is_used,
    question_prefetch,
    question_to_dict,
    rubrics_by_slug,
)
from interviews.services.audit import audit_record
from interviews.services.errors import StateConflict


class QuestionNotVerified(StateConflict):
    """A coding question can only be published once its reference passed every hidden test."""

    code = "question_not_verified"


class FlawsNeedReanchoring(StateConflict):
    """A document edit changed the text some planted flaws point at: the editor shows
    where each would move (`flaws`) and saves again with `confirm_reanchor`."""

    code = "flaw_reanchor_needed"

    def __init__(self, proposals: list[dict[str, Any]]):
        count = len(proposals)
        super().__init__(
            f"The document edit changed the text of {count} planted "
            f"flaw{'s' if count != 1 else ''}: check where "
            f"{'they' if count != 1 else 'it'} should point, then save again.",
            errors={
                f"review.flaws[{p['index']}].lines": [
                    f"lines {p['lines_before'][0]}–{p['lines_before'][1]} changed; proposed "
                    f"{p['lines_after'][0]}–{p['lines_after'][1]}"
                ]
                for p in proposals
            },
        )
        self.extra = {"flaws": proposals}


# --- versions -------------------------------------------------------------------------


def question_latest_locked(slug: str) -> Question | None:
    """The newest version of a slug, row-locked, so two writers cannot both add the same
    next version."""
    return Question.objects.select_for_update().filter(slug=slug).order_by("-version").first()


def question_content_fingerprint(question: Question) -> str:
    """The fingerprint of what the version holds now, read from its rows rather than the
    stored `fingerprint`: a row changed outside these services (a shell, a raw SQL fix)
    must not make a re-import of the old content read as "unchanged"."""
    fresh = question_prefetch(Question.objects.filter(pk=question.pk)).get()
    return question_fingerprint(question_to_dict(fresh))


def question_translations_replace(question: Question, i18n: dict) -> bool:
    """Store new translations on the version in place (they are not part of what is
    judged, so a used or verified version takes them as it is); True if they changed."""
    if translations_from_json(question.i18n or {}) == i18n:
        return False
    question.i18n = i18n
    question.save(update_fields=["i18n"])
    return True


def question_version_create(spec: dict, *, version: int, fingerprint: str, actor) -> Question:
    """A new Question row (one version) with its parts, tests, follow-ups and flaws."""
    question = Question(slug=spec["slug"], version=version, created_by=actor)
    _question_fill(question, spec, fingerprint=fingerprint)
    question.save()
    _question_children_create(question, spec)
    return question


def _question_fill(question: Question, spec: dict, *, fingerprint: str) -> None:
    coding = spec.get("coding") or {}
    question.kind = spec["kind"]
    question.status = spec.get("status", QuestionStatus.PUBLISHED)
    question.title = spec["title"]
    question.difficulty = spec["difficulty"]
    question.tags = spec["tags"]
    question.prompt = spec["prompt"]
    question.rubric = rubrics_by_slug([spec.get("rubric")]).get(spec.get("rubric"))
    question.languages = coding.get("languages", [])
    question.io = coding.get("io", IoMode.STDIO)
    question.entrypoint = coding.get("entrypoint", "")
    question.time_limit_ms = coding.get("time_limit_ms", DEFAULT_TIME_LIMIT_MS)
    question.memory_limit_mb = coding.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB)
    question.output_limit_mb = coding.get("output_limit_mb", DEFAULT_OUTPUT_LIMIT_MB)
    question.checker = coding.get("checker", "exact")
    question.starter = coding.get("starter", {})
    question.reference = coding.get("reference", {})
    question.document = (spec.get("review") or {}).get("document", "")
    question.known_issues = (spec.get("review") or {}).get("known_issues", [])
    question.key_points = spec.get("key_points", [])
    question.i18n = spec.get("i18n", {})
    question.fingerprint = fingerprint
    question.verified_at = None
    question.verification = {}
    question.reference_time_ms = {}


def _question_children_create(question: Question, spec: dict) -> None:
    coding = spec.get("coding") or {}
    tests = []
    for number, part_spec in enumerate(coding.get("parts", []), start=1):
        part = Part.objects.create(
            question=question, position=number, title=part_spec["title"], prompt=part_spec["prompt"]
        )
        for visibility, key in (
            (TestCase.Visibility.SAMPLE, "samples"),
            (TestCase.Visibility.HIDDEN, "hidden"),
        ):
            tests += [
                TestCase(
                    part=part,
                    visibility=visibility,
                    position=index,
                    input=test["input"],
                    output=test["output"],
                )
                for index, test in enumerate(part_spec[key])
            ]
    TestCase.objects.bulk_create(tests)
    FollowUp.objects.bulk_create(
        FollowUp(
            question=question,
            position=number,
            prompt=item["prompt"],
            unlocks_part=item.get("unlocks_part"),
            trigger=item["trigger"],
            after_minutes=item.get("after_minutes"),
            coach_notes=item.get("coach_notes", ""),
            key_points=item.get("key_points", []),
        )
        for number, item in enumerate(spec.get("follow_ups", []), start=1)
    )
    PlantedFlaw.objects.bulk_create(
        PlantedFlaw(
            question=question,
            position=number,
            category=flaw["category"],
            line_start=flaw["lines"][0],
            line_end=flaw["lines"][1],
            severity=flaw["severity"],
            explanation=flaw["explanation"],
            anchor_text=range_text(question.document, flaw["lines"]),
        )
        for number, flaw in enumerate((spec.get("review") or {}).get("flaws", []), start=1)
    )


# --- the admin's verbs on one question ------------------------------------------------


def _ensure_publishable(question: Question, status: str) -> None:
    if status == QuestionStatus.PUBLISHED and question_is_unverified(question):
        if (question.verification or {}).get("state") == "failed":
            raise QuestionNotVerified(
                _(
                    "%(slug)s v%(version)s failed verification: its reference solution did not "
                    "pass every sample and hidden test in the sandbox. Fix the reference or the "
                    "tests, verify again, then publish."
                )
                % {"slug": question.slug, "version": question.version}
            )
        raise QuestionNotVerified(
            _(
                "%(slug)s v%(version)s is not verified yet: its reference solution must pass "
                "every sample and hidden test in the sandbox before it can be published."
            )
            % {"slug": question.slug, "version": question.version}
        )


def _new_content_not_publishable(spec: dict) -> QuestionNotVerified:
    return QuestionNotVerified(
        _(
            "%(slug)s is a coding question with new, unverified content: save it as a draft, "
            "verify its reference solution in the sandbox, then publish it."
        )
        % {"slug": spec["slug"]}
    )


def _with_status(spec: dict, status: str) -> dict:
    """The canonical dict with `status` (which it names only when not published)."""
    spec = {key: value for key, value in spec.items() if key != "status"}
    if status == QuestionStatus.PUBLISHED:
        return spec
    ordered = {"slug": spec["slug"], "kind": spec["kind"], "status": status}
    ordered.update(spec)
    return ordered


@transaction.atomic
def question_create(*, data: Any, actor=None) -> Question:
    """A new question (version 1) from a bank-file question dict; `status` defaults to
    draft, and a coding question cannot start out published (it is not verified yet)."""
    spec = question_validate(data)
    if Question.objects.filter(slug=spec["slug"]).exists():
        raise BankValidationError(
            [BankIssue("", "", "slug", "a question with this slug exists; edit it instead")]
        )
    published = spec.get("status", QuestionStatus.PUBLISHED) == QuestionStatus.PUBLISHED
    if spec["kind"] == QuestionKind.CODING and published:
        raise _new_content_not_publishable(spec)
    question = question_version_create(
        spec, version=1, fingerprint=question_fingerprint(spec), actor=actor
    )
    audit_record(actor=actor, action="question.create", target=question, status=question.status)
    return question


def _merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: mappings merge recursively, `null` removes, the rest
    replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = _merge_patch(result.get(key), value)
    return result


@transaction.atomic
def question_update(
    *, question: Question, data: Any, partial: bool = False, actor=None
) -> tuple[Question, bool]:
    """Edit a question version from a bank-file dict (`partial`: a JSON merge patch onto
    its current dict). Returns `(version, created)`.

    Same content, other status → the status changes in place. Changed content → the
    version is rewritten in place while nothing uses it, else a new version is created
    (the used one never changes). Changed content is unverified again; when the body does
    not name a status, a changed coding question becomes a draft rather than an
    unverified published question."""
    if not isinstance(data, Mapping):
        raise BankValidationError([BankIssue("", "", "", "must be a JSON object")])
    # Lock the row alone: FOR UPDATE may not reach the nullable side of the rubric join.
    Question.objects.select_for_update().filter(pk=question.pk).values_list("pk").get()
    question = question_prefetch(Question.objects.filter(pk=question.pk)).get()
    current = question_to_dict(question)
    body = {k: v for k, v in data.items() if k not in QUESTION_READ_ONLY_FIELDS}
    merged = _merge_patch(current, body) if partial else body
    # Before validation: a flaw's old lines may lie past the end of a shortened document.
    merged = _flaws_reanchored(
        question, current, merged, confirmed=bool(data.get("confirm_reanchor"))
    )
    spec = question_validate(merged, default_status=question.status)
    if spec["slug"] != question.slug:
        raise BankValidationError(
            [BankIssue("", "", "slug", "cannot change; create a new question instead")]
        )
    status = spec.get("status", QuestionStatus.PUBLISHED)
    fingerprint = question_fingerprint(spec)
    if fingerprint == question_content_fingerprint(question):
        if question_translations_replace(question, spec.get("i18n", {})):
            audit_record(actor=actor, action="question.translate", target=question)
        if status != question.status:
            _ensure_publishable(question, status)
            question.status = status
            question.save(update_fields=["status"])
            audit_record(actor=actor, action="question.status", target=question, status=status)
        return question, False

    if spec["kind"] == QuestionKind.CODING and status == QuestionStatus.PUBLISHED:
        if "status" in body:
            raise _new_content_not_publishable(spec)
        spec = _with_status(spec, QuestionStatus.DRAFT)

    if question_is_used(question):
        newest = question_latest_locked(question.slug)
        created = question_version_create(
            spec, version=newest.version + 1, fingerprint=fingerprint, actor=actor
        )
        audit_record(
            actor=actor, action="question.new_version", target=created, previous=question.pk
        )
        return created, True
    _question_fill(question, spec, fingerprint=fingerprint)
    question.save()
    question.parts.all().delete()
    question.follow_ups.all().delete()
    question.flaws.all().delete()
    _question_children_create(question, spec)
    audit_record(actor=actor, action="question.update", target=question)
    return question, False


def _flaws_reanchored(question: Question, current: dict, spec: Any, *, confirmed: bool) -> Any:
    """Planted flaws moved through an edit of the review document (`spec`: the raw body,
    before validation): each flaw the body leaves as it was, its lines still counted in
    the old document, follows the lines it covers. A flaw whose text changed is moved only
    once the editor `confirmed` the proposal (`FlawsNeedReanchoring` lists them); a flaw
    the body changed is taken as given."""
    old_document = (current.get("review") or {}).get("document", "")
    review = spec.get("review") if isinstance(spec, Mapping) else None
    if not isinstance(review, Mapping) or not isinstance(review.get("flaws", []), list):
        return spec  # not a review body: validation says what is wrong
    new_document = review.get("document", "")
    if (
        current.get("kind") != QuestionKind.REVIEW
        or not old_document
        or not isinstance(new_document, str)
        or new_document == old_document
    ):
        return spec
    old_flaws = (current.get("review") or {}).get("flaws", [])
    anchors = [f.anchor_text for f in sorted(question.flaws.all(), key=lambda f: f.position)]
    flaws = copy.deepcopy(review.get("flaws", []))
    proposals: list[dict[str, Any]] = []
    for index, flaw in enumerate(flaws):
        if index >= len(old_flaws) or flaw != old_flaws[index]:
            continue
        anchor = anchors[index] if index < len(anchors) and anchors[index] else None
        moved = reanchor(old_document, new_document, tuple(flaw["lines"]), anchor_text=anchor)
        if moved.text_changed:
            proposals.append(
                {
                    "index": index,
                    "category": flaw["category"],
                    "lines_before": list(moved.lines_before),
                    "lines_after": list(moved.lines_after),
                    "text_before": moved.text_before,
                    "text_after": moved.text_after,
                    "deleted": moved.deleted,
                }
            )
        flaw["lines"] = list(moved.lines_after)
    if proposals and not confirmed:
        raise FlawsNeedReanchoring(proposals)
    return {**spec, "review": {**review, "flaws": flaws}}


@transaction.atomic
def question_publish(*, question: Question, actor=None) -> Question:
    """Publish one version; a coding question must have passed verification first."""
    _ensure_publishable(question, QuestionStatus.PUBLISHED)
    if question.status != QuestionStatus.PUBLISHED:
        question.status = QuestionStatus.PUBLISHED
        question.save(update_fields=["status"])
        audit_record(actor=actor, action="question.publish", target=question)
    return question


@transaction.atomic
def question_archive(*, question: Question, actor=None) -> int:
    """Take the question (every version of its slug) out of the bank. Stages that use a
    version keep it; new loops no longer find it. Returns how many versions changed."""
    changed = (
        Question.objects.filter(slug=question.slug)
        .exclude(status=QuestionStatus.ARCHIVED)
        .update(status=QuestionStatus.ARCHIVED)
    )
    audit_record(actor=actor, action="question.archive", target=question, versions=changed)
    return changed
