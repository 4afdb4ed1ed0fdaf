"""Design-doc review: the candidate's line comments, their score against the planted
flaws, and the coach's overrides of the automatic matching."""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Literal, TypedDict

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate, access_stage_as_coach
from interviews.bankfile.translations import child_translation, translation_of
from interviews.models import (
    PlantedFlaw,
    Question,
    ReviewComment,
    ReviewMatchOverride,
    Stage,
    StageQuestion,
)
from interviews.models.bank import FlawCategory, QuestionKind
from interviews.realtime.events import emit

from .errors import InvalidInput, NotAllowed, NotFound, StateConflict


def document_line_count(document: str) -> int:
    return len(document.splitlines())


def _review_question(stage: Stage, question: Question | None) -> Question:
    reviews = [
        link.question
        for link in StageQuestion.objects.filter(stage=stage, question__kind=QuestionKind.REVIEW)
        .select_related("question")
        .order_by("position")
    ]
    if question is None:
        if len(reviews) != 1:
            raise InvalidInput(
                errors={"question": [_("This stage has no single design doc; name the question.")]}
            )
        return reviews[0]
    if question not in reviews:
        raise InvalidInput(errors={"question": [_("Not a design doc of this stage.")]})
    return question


@transaction.atomic
def review_comment_create(
    *,
    stage: Stage,
    author: AbstractBaseUser,
    line_start: int,
    line_end: int,
    category: str,
    text: str,
    question: Question | None = None,
) -> ReviewComment:
    """Comment on lines `[line_start, line_end]` (1-based, inclusive) of the stage's doc."""
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    access_stage_as_candidate(
        author, stage, refusal=_("Only the stage's candidate comments on the design doc.")
    )
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(
            _("Comments can be added only while the stage is live."), code="stage_not_live"
        )
    question = _review_question(stage, question)
    if category not in FlawCategory.values:
        raise InvalidInput(
            errors={
                "category": [_('"%(category)s" is not a known category.') % {"category": category}]
            }
        )
    lines = document_line_count(question.document)
    if line_start < 1 or line_end < line_start or line_end > lines:
        raise InvalidInput(
            errors={
                "lines": [
                    _("Give [first, last] with 1 <= first <= last <= %(lines)s.") % {"lines": lines}
                ]
            }
        )
    comment = ReviewComment.objects.create(
        stage=stage,
        question=question,
        author=author,
        line_start=line_start,
        line_end=line_end,
        category=category,
        text=text,
    )
    emit(
        stage,
        "review_comment",
        {
            "id": comment.pk,
            "question": question.pk,
            "lines": [line_start, line_end],
            "category": category,
            "text": text,
        },
        actor=author,
    )
    return comment


def _comment_payload(comment: ReviewComment) -> dict:
    return {
        "id": comment.pk,
        "question": comment.question_id,
        "lines": [comment.line_start, comment.line_end],
        "category": comment.category,
        "text": comment.text,
    }


def _own_live_comment(
    stage: Stage, author: AbstractBaseUser, comment_id: int, *, refusal: str
) -> tuple[Stage, ReviewComment]:
    """The candidate's own comment of a live stage, with the stage locked: comments are
    the review's answer, so they change only while the clock runs, and only by whoever
    wrote them."""
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    access_stage_as_candidate(author, stage, refusal=refusal)
    comment = ReviewComment.objects.filter(stage=stage, pk=comment_id).first()
    if comment is None:
        raise NotFound(_("Review comment not found."))
    if comment.author_id != author.pk:
        raise NotAllowed(_("Only the comment's author changes it."), code="not_comment_author")
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(
            _("Comments can be changed only while the stage is live."), code="stage_not_live"
        )
    return stage, comment


@transaction.atomic
def review_comment_update(
    *,
    stage: Stage,
    author: AbstractBaseUser,
    comment_id: int,
    line_start: int | None = None,
    line_end: int | None = None,
    category: str | None = None,
    text: str | None = None,
) -> ReviewComment:
    """Change the lines, category or text of one's own comment while the stage is live
    (only what is given changes; lines come as a pair)."""
    stage, comment = _own_live_comment(
        stage, author, comment_id, refusal=_("Only the stage's candidate edits review comments.")
    )
    if (line_start is None) != (line_end is None):
        raise InvalidInput(errors={"lines": [_("Give [first, last].")]})
    if category is not None:
        if category not in FlawCategory.values:
            raise InvalidInput(
                errors={
                    "category": [
                        _('"%(category)s" is not a known category.') % {"category": category}
                    ]
                }
            )
        comment.category = category
    if line_start is not None and line_end is not None:
        lines = document_line_count(comment.question.document)
        if line_start < 1 or line_end < line_start or line_end > lines:
            raise InvalidInput(
                errors={
                    "lines": [
                        _("Give [first, last] with 1 <= first <= last <= %(lines)s.")
                        % {"lines": lines}
                    ]
                }
            )
        comment.line_start, comment.line_end = line_start, line_end
    if text is not None:
        comment.text = text
    comment.save(update_fields=["line_start", "line_end", "category", "text"])
    emit(stage, "review_comment.updated", _comment_payload(comment), actor=author)
    return comment


@transaction.atomic
def review_comment_delete(*, stage: Stage, author: AbstractBaseUser, comment_id: int) -> None:
    """Withdraw one's own comment while the stage is live (a coach's ruling on it goes
    with it)."""
    stage, comment = _own_live_comment(
        stage, author, comment_id, refusal=_("Only the stage's candidate deletes review comments.")
    )
    comment.delete()
    emit(stage, "review_comment.deleted", {"id": comment_id}, actor=author)


# --- scoring -------------------------------------------------------------------------------

MatchStatus = Literal["hit", "duplicate", "miss", "valid"]

#: Categories close enough that a comment filed under one still finds a flaw of the other
#: (with a note): a reviewer who calls a lock-order deadlock a consistency problem saw it.
NEIGHBOUR_CATEGORIES: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("concurrency", "consistency"),
        ("consistency", "idempotency"),
        ("gpu-memory", "prefill-decode"),
    )
)


def categories_neighbour(first: str, second: str) -> bool:
    return frozenset((first, second)) in NEIGHBOUR_CATEGORIES


MatchSource = Literal["auto", "coach"]


class FlawResult(TypedDict):
    id: int
    question: int
    position: int
    category: str
    lines: list[int]
    severity: str
    explanation: str
    comments: list[int]


class CommentMatch(TypedDict):
    comment: int
    question: int
    lines: list[int]
    category: str
    flaw: int | None
    status: MatchStatus
    source: MatchSource
    overlap: int
    note: str


class ReviewScore(TypedDict):
    recall: float
    precision: float
    comments: int
    flaws: int
    hits: int
    duplicates: int
    misses: int
    valid: int
    matched: list[FlawResult]
    missed: list[FlawResult]
    comment_matches: list[CommentMatch]
    explanation: list[str]


def line_overlap(first_a: int, last_a: int, first_b: int, last_b: int) -> int:
    """How many lines two inclusive ranges share (0 when they are apart)."""
    return max(0, min(last_a, last_b) - max(first_a, first_b) + 1)


def comment_matches_flaw(
    comment: ReviewComment, flaw: PlantedFlaw, *, neighbours: bool = False
) -> bool:
    """Same doc, same category (or, with `neighbours`, a neighbouring one), overlapping
    line ranges."""
    return (
        comment.question_id == flaw.question_id
        and (
            comment.category == flaw.category
            or (neighbours and categories_neighbour(comment.category, flaw.category))
        )
        and line_overlap(comment.line_start, comment.line_end, flaw.line_start, flaw.line_end) > 0
    )


def comment_matches_known_issue(comment: ReviewComment, question_id: int, issue: Mapping) -> bool:
    """A known valid issue of the doc, matched like a flaw (neighbouring categories too)."""
    first, last = issue["lines"]
    return (
        comment.question_id == question_id
        and (
            comment.category == issue["category"]
            or categories_neighbour(comment.category, issue["category"])
        )
        and line_overlap(comment.line_start, comment.line_end, first, last) > 0
    )


def best_flaw_for(comment: ReviewComment, flaws: Iterable[PlantedFlaw]) -> PlantedFlaw | None:
    """The one flaw a comment matches automatically: among the flaws it matches, the one
    sharing the most lines with it; then the tighter fit (smaller union of the two
    ranges); then the lower flaw position, then the lower id."""

    def key(flaw: PlantedFlaw) -> tuple[int, int, int, int]:
        union = max(comment.line_end, flaw.line_end) - min(comment.line_start, flaw.line_start)
        overlap = line_overlap(comment.line_start, comment.line_end, flaw.line_start, flaw.line_end)
        return (-overlap, union, flaw.position, flaw.pk)

    flaws = list(flaws)
    candidates = [flaw for flaw in flaws if comment_matches_flaw(comment, flaw)]
    if not candidates:  # a neighbouring category still finds it (with a note)
        candidates = [f for f in flaws if comment_matches_flaw(comment, f, neighbours=True)]
    return min(candidates, key=key) if candidates else None


def _ratio(numerator: int, denominator: int) -> float:
    return round(numerator / denominator, 4) if denominator else 0.0


def review_score_compute(
    *,
    flaws: Iterable[PlantedFlaw],
    comments: Iterable[ReviewComment],
    overrides: Mapping[int, int | None] | None = None,
    known_issues: Mapping[int, list[dict]] | None = None,
    accepted: Iterable[int] = (),
) -> ReviewScore:
    """Score review comments against planted flaws (a pure function of its inputs).

    Matching:
    - A comment matches a flaw when both are on the same doc, the categories are equal
      and the line ranges overlap (at least one shared line).
    - One comment matches at most one flaw: the best one by `best_flaw_for` (most shared
      lines, then tightest fit, then flaw position).
    - A coach's override (`overrides[comment id]` = a flaw id, or None for "no flaw")
      replaces the automatic match of that comment, whatever the category or lines.
    - A comment that matches no flaw of its own category still finds one of a
      neighbouring category (`NEIGHBOUR_CATEGORIES`); its match says so in `note`.
    - A comment matching no flaw but one of the doc's known valid issues
      (`known_issues[question id]`, matched the same way), or that the coach `accepted`
      as valid, is *valid*: neutral, neither a hit nor a miss. A strong reviewer who
      finds real problems the doc did not plant is not marked down for them.

    Counting:
    - A flaw is found when at least one comment matches it; several comments on one flaw
      find it once. Recall = found flaws / planted flaws.
    - Of the comments matching one flaw, the one sharing the most lines with it (then the
      earliest) is the *hit*; the others are *duplicates*. A comment matching no flaw is
      a *miss* (a false alarm).
    - Precision = hits / (hits + misses). Duplicates and valid findings are left out of
      both terms: pointing at a real problem is not a false alarm, and must not raise
      precision either (recall is what rewards finding the planted flaws).
    - Either ratio is 0.0 when its denominator is zero; both are rounded to 4 places.
    """
    flaws = list(flaws)
    comments = sorted(comments, key=lambda c: c.pk)
    overrides = overrides or {}
    known_issues = known_issues or {}
    accepted = set(accepted)
    by_id = {flaw.pk: flaw for flaw in flaws}

    chosen: dict[int, tuple[PlantedFlaw | None, MatchSource]] = {}
    for comment in comments:
        if comment.pk in overrides:
            chosen[comment.pk] = (by_id.get(overrides[comment.pk]), "coach")
        else:
            chosen[comment.pk] = (best_flaw_for(comment, flaws), "auto")

    def overlap_with(comment: ReviewComment, flaw: PlantedFlaw | None) -> int:
        if flaw is None:
            return 0
        return line_overlap(comment.line_start, comment.line_end, flaw.line_start, flaw.line_end)

    per_flaw: dict[int, list[ReviewComment]] = defaultdict(list)
    for comment in comments:
        flaw, _ = chosen[comment.pk]
        if flaw is not None:
            per_flaw[flaw.pk].append(comment)
    hit_ids: set[int] = set()
    for flaw_id, matching in per_flaw.items():
        matching.sort(key=lambda c: (-overlap_with(c, by_id[flaw_id]), c.pk))
        hit_ids.add(matching[0].pk)

    comment_matches: list[CommentMatch] = []
    for comment in comments:
        flaw, source = chosen[comment.pk]
        note = ""
        if flaw is None:
            status: MatchStatus = "miss"
            if comment.pk in accepted:
                status, source, note = "valid", "coach", "accepted as valid by the coach"
            elif source == "auto":
                issue = next(
                    (
                        issue
                        for issue in known_issues.get(comment.question_id, [])
                        if comment_matches_known_issue(comment, comment.question_id, issue)
                    ),
                    None,
                )
                if issue is not None:
                    status, note = "valid", f"a known issue of the doc: {issue['explanation']}"
        else:
            status = "hit" if comment.pk in hit_ids else "duplicate"
            if comment.category != flaw.category and source == "auto":
                note = f"filed as {comment.category}, a neighbour of the flaw's {flaw.category}"
        comment_matches.append(
            {
                "comment": comment.pk,
                "question": comment.question_id,
                "lines": [comment.line_start, comment.line_end],
                "category": comment.category,
                "flaw": flaw.pk if flaw else None,
                "status": status,
                "source": source,
                "overlap": overlap_with(comment, flaw),
                "note": note,
            }
        )

    matched: list[FlawResult] = []
    missed: list[FlawResult] = []
    for flaw in sorted(flaws, key=lambda f: (f.question_id, f.line_start, f.position, f.pk)):
        result: FlawResult = {
            "id": flaw.pk,
            "question": flaw.question_id,
            "position": flaw.position,
            "category": flaw.category,
            "lines": [flaw.line_start, flaw.line_end],
            "severity": flaw.severity,
            "explanation": flaw.explanation,
            "comments": [c.pk for c in per_flaw.get(flaw.pk, [])],
        }
        (matched if result["comments"] else missed).append(result)

    hits = len(hit_ids)
    duplicates = sum(1 for m in comment_matches if m["status"] == "duplicate")
    misses = sum(1 for m in comment_matches if m["status"] == "miss")
    valid = sum(1 for m in comment_matches if m["status"] == "valid")
    recall = _ratio(len(matched), len(flaws))
    precision = _ratio(hits, hits + misses)
    explanation = [
        f"recall = {len(matched)} flaws found / {len(flaws)} planted = {recall}",
        f"precision = {hits} hits / ({hits} hits + {misses} misses) = {precision}",
    ]
    if duplicates:
        explanation.append(
            f"{duplicates} comment(s) pointed again at a flaw already found: counted "
            "neither as hits nor as misses"
        )
    if valid:
        explanation.append(
            f"{valid} comment(s) found real problems that are not planted flaws: counted "
            "neither as hits nor as misses"
        )
    overridden = sum(1 for m in comment_matches if m["source"] == "coach")
    if overridden:
        explanation.append(f"{overridden} comment(s) matched by the coach's decision")
    return {
        "recall": recall,
        "precision": precision,
        "comments": len(comments),
        "flaws": len(flaws),
        "hits": hits,
        "duplicates": duplicates,
        "misses": misses,
        "valid": valid,
        "matched": matched,
        "missed": missed,
        "comment_matches": comment_matches,
        "explanation": explanation,
    }


def review_scores_for_stages(stage_ids: Iterable[int]) -> dict[int, ReviewScore]:
    """The review score of each stage that has a design doc, in four queries whatever the
    number of stages (for reports and progress)."""
    stage_ids = list(stage_ids)
    doc_links = StageQuestion.objects.filter(
        stage_id__in=stage_ids, question__kind=QuestionKind.REVIEW
    ).values_list("stage_id", "question_id", "question__known_issues", "question__i18n")
    questions_of: dict[int, set[int]] = defaultdict(set)
    known_issues: dict[int, list[dict]] = {}
    translations: dict[int, dict] = {}
    for stage_id, question_id, issues, i18n in doc_links:
        questions_of[stage_id].add(question_id)
        known_issues[question_id] = list(issues or [])
        translations[question_id] = i18n or {}
    if not questions_of:
        return {}
    all_questions = set().union(*questions_of.values())
    flaws = list(PlantedFlaw.objects.filter(question_id__in=all_questions))
    comments = list(ReviewComment.objects.filter(stage_id__in=list(questions_of)))
    rulings = ReviewMatchOverride.objects.filter(
        comment__stage_id__in=list(questions_of)
    ).values_list("comment_id", "flaw_id", "valid")
    overrides: dict[int, int | None] = {}
    accepted: set[int] = set()
    for comment_id, flaw_id, valid in rulings:
        overrides[comment_id] = flaw_id
        if valid and flaw_id is None:
            accepted.add(comment_id)
    comments_of: dict[int, list[ReviewComment]] = defaultdict(list)
    for comment in comments:
        comments_of[comment.stage_id].append(comment)
    scores = {
        stage_id: review_score_compute(
            flaws=[f for f in flaws if f.question_id in question_ids],
            comments=comments_of[stage_id],
            overrides={c.pk: overrides[c.pk] for c in comments_of[stage_id] if c.pk in overrides},
            known_issues={q: known_issues.get(q, []) for q in question_ids},
            accepted={c.pk for c in comments_of[stage_id] if c.pk in accepted},
        )
        for stage_id, question_ids in questions_of.items()
    }
    for score in scores.values():
        _flaw_explanations_translate(score, translations)
    return scores


def _flaw_explanations_translate(score: ReviewScore, translations: dict[int, dict]) -> None:
    """The planted flaws' explanations in the language bank text is served in (English
    where the question does not translate one)."""
    for result in (*score["matched"], *score["missed"]):
        owner = translation_of(translations.get(result["question"]))
        flaw = child_translation(owner, "flaws", result["position"])
        result["explanation"] = flaw.text("explanation", result["explanation"])


def review_score(*, stage: Stage) -> ReviewScore:
    """The stage's review score (see `review_score_compute` for the rules). A stage without
    a design doc scores 0.0 / 0.0 with nothing matched or missed."""
    return review_scores_for_stages([stage.pk]).get(stage.pk) or review_score_compute(
        flaws=[], comments=[]
    )


# --- coach overrides -----------------------------------------------------------------------


def _stage_comment(stage: Stage, comment_id: int) -> ReviewComment:
    comment = ReviewComment.objects.filter(stage=stage, pk=comment_id).first()
    if comment is None:
        raise InvalidInput(errors={"comment": [_("Not a review comment of this stage.")]})
    return comment


@transaction.atomic
def review_match_override_set(
    *,
    stage: Stage,
    coach: AbstractBaseUser,
    comment_id: int,
    flaw_id: int | None,
    valid: bool = False,
) -> ReviewMatchOverride:
    """The coach rules that the comment matches the flaw (`flaw_id`), or no flaw (None);
    with `valid` (and no flaw) that it is a valid finding all the same, scored neutral
    rather than as a false alarm. The flaw must be planted in the doc the comment is on;
    category and lines need not agree (that is what an override is for). Replaces an
    earlier ruling."""
    if valid and flaw_id is not None:
        raise InvalidInput(errors={"valid": [_("A comment matching a flaw is a hit already.")]})
    access_stage_as_coach(
        coach, stage, refusal=_("Only the stage's coach or an admin overrides review matches.")
    )
    comment = _stage_comment(stage, comment_id)
    flaw = None
    if flaw_id is not None:
        flaw = PlantedFlaw.objects.filter(pk=flaw_id, question_id=comment.question_id).first()
        if flaw is None:
            raise InvalidInput(errors={"flaw": [_("Not a planted flaw of the comment's doc.")]})
    override, _created = ReviewMatchOverride.objects.update_or_create(
        comment=comment, defaults={"flaw": flaw, "coach": coach, "valid": valid}
    )
    emit(
        stage,
        "review_match.set",
        {"comment": comment.pk, "flaw": flaw.pk if flaw else None},
        actor=coach,
        private=True,
    )
    return override


@transaction.atomic
def review_match_override_clear(*, stage: Stage, coach: AbstractBaseUser, comment_id: int) -> None:
    """Drop the coach's ruling on a comment: the automatic match applies again."""
    access_stage_as_coach(
        coach, stage, refusal=_("Only the stage's coach or an admin overrides review matches.")
    )
    comment = ReviewComment.objects.filter(stage=stage, pk=comment_id).first()
    if comment is None:
        raise NotFound(_("Review comment not found."))
    deleted, _by_model = ReviewMatchOverride.objects.filter(comment=comment).delete()
    if deleted:
        emit(
            stage,
            "review_match.cleared",
            {"comment": comment.pk},
            actor=coach,
            private=True,
        )
