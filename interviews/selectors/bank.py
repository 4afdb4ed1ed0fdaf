"""The bank read back: prefetches for the question views, listings, and questions,
rubrics and loop templates as canonical bank-file dicts (export)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from interviews.bankfile.format import DEFAULT_OUTPUT_LIMIT_MB, bank_dump, canonical_number
from interviews.bankfile.translations import translations_from_json
from interviews.models import (
    Answer,
    FollowUp,
    LoopTemplate,
    Part,
    PlantedFlaw,
    Question,
    ReviewComment,
    Rubric,
    StageFollowUp,
    StageQuestion,
    StageTemplate,
    StudyPlan,
    Submission,
    TestCase,
)
from interviews.models.bank import IoMode, QuestionKind, QuestionStatus


def question_prefetch(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Everything `question_to_dict` reads, in a constant number of queries."""
    return questions.select_related("rubric").prefetch_related(
        Prefetch("parts", queryset=Part.objects.order_by("position").prefetch_related("tests")),
        Prefetch("follow_ups", queryset=FollowUp.objects.order_by("position")),
        Prefetch("flaws", queryset=PlantedFlaw.objects.order_by("position")),
    )


def question_public_prefetch(questions: QuerySet[Question]) -> QuerySet[Question]:
    """What a candidate may see of questions, and nothing more: `open_parts` (parts no
    follow-up unlocks, with `sample_tests` and a `hidden_count`). Hidden tests, locked
    parts, follow-ups and flaws are never loaded."""
    gated = FollowUp.objects.filter(
        question=OuterRef("question"), unlocks_part=OuterRef("position")
    )
    sample_tests = TestCase.objects.filter(visibility=TestCase.Visibility.SAMPLE).order_by(
        "position"
    )
    parts = (
        Part.objects.filter(Q(position=1) | ~Exists(gated))
        .annotate(
            hidden_count=Count("tests", filter=Q(tests__visibility=TestCase.Visibility.HIDDEN))
        )
        .order_by("position")
        .prefetch_related(Prefetch("tests", queryset=sample_tests, to_attr="sample_tests"))
    )
    return questions.select_related("rubric").prefetch_related(
        Prefetch("parts", queryset=parts, to_attr="open_parts")
    )


#: The columns a question summary reads; the large ones (prompt, reference, starter,
#: review document, verification failures) stay in the database.
SUMMARY_FIELDS = (
    "id",
    "slug",
    "version",
    "kind",
    "title",
    "difficulty",
    "tags",
    "status",
    "verified_at",
    "created_at",
)


def _count_of(rows: QuerySet, *, per: str) -> Coalesce:
    """How many `rows` belong to the outer question (`per` is the path to its id), as a
    correlated subquery: counting several relations through joins would multiply rows."""
    counted = (
        rows.filter(**{per: OuterRef("pk")})
        .order_by()
        .values(per)
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def question_summary_annotate(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Question rows for a bank listing, in one query however many there are: the
    identity and state columns plus counts of parts, tests, follow-ups and flaws and the
    verification state. Test data, references, prompts and flaw keys are never loaded."""
    tests = TestCase.objects.all()
    return questions.only(*SUMMARY_FIELDS).annotate(
        part_count=_count_of(Part.objects.all(), per="question"),
        sample_count=_count_of(
            tests.filter(visibility=TestCase.Visibility.SAMPLE), per="part__question"
        ),
        hidden_count=_count_of(
            tests.filter(visibility=TestCase.Visibility.HIDDEN), per="part__question"
        ),
        follow_up_count=_count_of(FollowUp.objects.all(), per="question"),
        flaw_count=_count_of(PlantedFlaw.objects.all(), per="question"),
        verification_state=KT("verification__state"),
    )


def question_list_latest(*, status: str | None = None) -> QuerySet[Question]:
    """The newest version of every slug (the newest with `status`, when given)."""
    versions = Question.objects.all() if status is None else Question.objects.filter(status=status)
    newest = versions.filter(slug=OuterRef("slug")).order_by("-version").values("version")[:1]
    return versions.filter(version=Subquery(newest)).order_by("slug")


def question_is_used(question: Question) -> bool:
    """Whether anything that happened refers to this version (then it must not change)."""
    used_by = (
        StageQuestion.objects.filter(question=question),
        Submission.objects.filter(question=question),
        Answer.objects.filter(question=question),
        ReviewComment.objects.filter(question=question),
        StageFollowUp.objects.filter(question=question),
    )
    return any(qs.exists() for qs in used_by)


def question_is_unverified(question: Question) -> bool:
    """A coding version whose reference has not passed the sandbox (it may not be published)."""
    return question.kind == QuestionKind.CODING and question.verified_at is None


def rubrics_by_slug(slugs: Iterable[str | None]) -> dict[str, Rubric]:
    """The named rubrics in one query (blank names skipped)."""
    wanted = {slug for slug in slugs if slug}
    return {r.slug: r for r in Rubric.objects.filter(slug__in=wanted)} if wanted else {}


# --- canonical dicts from the database ------------------------------------------------


def question_to_dict(question: Question) -> dict[str, Any]:
    """The question version as it appears in a bank file (canonical: same keys, order
    and defaults as validation produces)."""
    spec: dict[str, Any] = {"slug": question.slug, "kind": question.kind}
    if question.status != QuestionStatus.PUBLISHED:
        spec["status"] = question.status
    spec.update(
        title=question.title,
        difficulty=question.difficulty,
        tags=list(question.tags),
        prompt=question.prompt,
    )
    if question.kind == QuestionKind.CODING:
        coding: dict[str, Any] = {"languages": list(question.languages), "io": question.io}
        if question.io == IoMode.FUNCTION:
            coding["entrypoint"] = question.entrypoint
        coding["time_limit_ms"] = question.time_limit_ms
        coding["memory_limit_mb"] = question.memory_limit_mb
        if question.output_limit_mb != DEFAULT_OUTPUT_LIMIT_MB:
            coding["output_limit_mb"] = question.output_limit_mb
        coding["checker"] = question.checker
        coding["starter"] = dict(question.starter)
        coding["reference"] = dict(question.reference)
        parts = []
        for part in sorted(question.parts.all(), key=lambda p: p.position):
            tests = sorted(part.tests.all(), key=lambda t: t.position)
            parts.append(
                {
                    "title": part.title,
                    "prompt": part.prompt,
                    "samples": [
                        {"input": t.input, "output": t.output}
                        for t in tests
                        if t.visibility == TestCase.Visibility.SAMPLE
                    ],
                    "hidden": [
                        {"input": t.input, "output": t.output}
                        for t in tests
                        if t.visibility == TestCase.Visibility.HIDDEN
                    ],
                }
            )
        coding["parts"] = parts
        spec["coding"] = coding
    follow_ups = []
    for follow_up in sorted(question.follow_ups.all(), key=lambda f: f.position):
        item: dict[str, Any] = {"prompt": follow_up.prompt}
        if follow_up.unlocks_part is not None:
            item["unlocks_part"] = follow_up.unlocks_part
        item["trigger"] = follow_up.trigger
        if follow_up.trigger == FollowUp.Trigger.AFTER_MINUTES:
            item["after_minutes"] = follow_up.after_minutes
        if follow_up.coach_notes:
            item["coach_notes"] = follow_up.coach_notes
        if follow_up.key_points:
            item["key_points"] = list(follow_up.key_points)
        follow_ups.append(item)
    if follow_ups:
        spec["follow_ups"] = follow_ups
    if question.key_points:
        spec["key_points"] = list(question.key_points)
    if question.kind == QuestionKind.REVIEW:
        spec["review"] = {
            "document": question.document,
            "flaws": [
                {
                    "category": flaw.category,
                    "lines": [flaw.line_start, flaw.line_end],
                    "severity": flaw.severity,
                    "explanation": flaw.explanation,
                }
                for flaw in sorted(question.flaws.all(), key=lambda f: f.position)
            ],
        }
        if question.known_issues:
            spec["review"]["known_issues"] = [dict(issue) for issue in question.known_issues]
    if question.rubric_id:
        spec["rubric"] = question.rubric.slug
    if question.i18n:
        spec["i18n"] = translations_from_json(question.i18n)
    return spec


def rubric_to_dict(rubric: Rubric) -> dict[str, Any]:
    spec: dict[str, Any] = {"slug": rubric.slug}
    if rubric.title:
        spec["title"] = rubric.title
    spec["dimensions"] = [
        {"name": d.name, "weight": canonical_number(d.weight), "levels": list(d.levels)}
        for d in sorted(rubric.dimensions.all(), key=lambda d: d.position)
    ]
    if rubric.i18n:
        spec["i18n"] = translations_from_json(rubric.i18n)
    return spec


def loop_template_to_dict(template: LoopTemplate) -> dict[str, Any]:
    spec: dict[str, Any] = {"slug": template.slug, "title": template.title}
    if template.description:
        spec["description"] = template.description
    if template.status != QuestionStatus.PUBLISHED:
        spec["status"] = template.status
    stages = []
    for stage in sorted(template.stages.all(), key=lambda s: s.position):
        item: dict[str, Any] = {
            "kind": stage.kind,
            "title": stage.title,
            "minutes": stage.minutes,
            "questions": list(stage.question_slugs),
        }
        if stage.rubric_id:
            item["rubric"] = stage.rubric.slug
        stages.append(item)
    spec["stages"] = stages
    if template.i18n:
        spec["i18n"] = translations_from_json(template.i18n)
    return spec


def study_plan_to_dict(plan: StudyPlan) -> dict[str, Any]:
    spec: dict[str, Any] = {"slug": plan.slug, "title": plan.title}
    if plan.description:
        spec["description"] = plan.description
    if plan.status != QuestionStatus.PUBLISHED:
        spec["status"] = plan.status
    spec["days"] = [dict(day) for day in plan.days]
    if plan.translations:
        spec["i18n"] = plan.translations
    return spec


# --- export ---------------------------------------------------------------------------


def bank_export(
    *,
    questions: Iterable[Question] | None = None,
    rubrics: Iterable[Rubric] | None = None,
    loops: Iterable[LoopTemplate] | None = None,
    plans: Iterable[StudyPlan] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The bank as a file dict. Defaults: the newest version of every question, every
    rubric, every loop template, every study plan. Empty sections are left out."""
    if questions is None:
        questions = question_list_latest()
    if isinstance(questions, QuerySet):
        questions = question_prefetch(questions)
    if rubrics is None:
        rubrics = Rubric.objects.all()
    if isinstance(rubrics, QuerySet):
        rubrics = rubrics.prefetch_related("dimensions")
    if loops is None:
        loops = LoopTemplate.objects.all()
    if isinstance(loops, QuerySet):
        loops = loops.prefetch_related(
            Prefetch("stages", queryset=StageTemplate.objects.select_related("rubric"))
        )
    if plans is None:
        plans = StudyPlan.objects.all()
    data: dict[str, list[dict[str, Any]]] = {}
    sections = (
        ("questions", [question_to_dict(q) for q in sorted(questions, key=lambda q: q.slug)]),
        ("rubrics", [rubric_to_dict(r) for r in sorted(rubrics, key=lambda r: r.slug)]),
        ("loops", [loop_template_to_dict(t) for t in sorted(loops, key=lambda t: t.slug)]),
        ("plans", [study_plan_to_dict(p) for p in sorted(plans, key=lambda p: p.slug)]),
    )
    for name, items in sections:
        if items:
            data[name] = items
    return data


def bank_export_yaml(**kwargs: Any) -> str:
    return bank_dump(bank_export(**kwargs))


#: Questions dumped per chunk of a streamed export: a bounded slice of a large bank (its
#: hidden tests are most of it) in memory at a time.
EXPORT_BATCH = 20


def bank_export_chunks(
    *, sections: Iterable[str] = ("questions", "rubrics", "loops", "plans")
) -> Iterator[str]:
    """The bank file `bank_export_yaml()` writes, as YAML text chunks of a few questions
    each, so a large bank is streamed rather than built in memory at once (the same bytes,
    joined). `sections` leaves the others out."""
    sections = set(sections)
    if "questions" in sections:
        ids = list(question_list_latest().values_list("pk", flat=True))
        for start in range(0, len(ids), EXPORT_BATCH):
            batch = question_prefetch(
                Question.objects.filter(pk__in=ids[start : start + EXPORT_BATCH])
            )
            items = [question_to_dict(q) for q in sorted(batch, key=lambda q: q.slug)]
            yield _section_chunk("questions", items, first=start == 0)
    small = bank_export(
        questions=[],
        rubrics=None if "rubrics" in sections else Rubric.objects.none(),
        loops=None if "loops" in sections else LoopTemplate.objects.none(),
        plans=None if "plans" in sections else StudyPlan.objects.none(),
    )
    for name in ("rubrics", "loops", "plans"):
        if name in small:
            yield bank_dump({name: small[name]})


def _section_chunk(name: str, items: list[dict[str, Any]], *, first: bool) -> str:
    """`items` as they appear inside the section's list (the header only for the first)."""
    text = bank_dump({name: items})
    return text if first else text.split("\n", 1)[1]
