"""The scorecard a viewer reads for a stage: the coach's, or for a finished stage without
one the automatic scorecard (`interviews.feedback.auto_scorecard`), computed on read from
the stage's rows in a fixed number of queries whatever the number of stages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Count

from interviews import bank_cache
from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.feedback.auto_scorecard import (
    CODING_DIMENSIONS,
    REVIEW_DIMENSIONS,
    AutoScorecard,
    CodingQuestionFacts,
    CommentFacts,
    FlawFacts,
    KeyPointFacts,
    PartFacts,
    Signal,
    SubmissionFacts,
    auto_scorecard,
    coding_signals,
    deep_dive_signal,
    dimension_signal,
    key_point_coverage,
    key_point_signals,
    review_signals,
    scores_for,
    signal_scores,
)
from interviews.feedback.deep_dive import deep_dive_feedback_for_stages
from interviews.models import (
    Answer,
    ReviewComment,
    Rubric,
    Scorecard,
    Stage,
    StageFollowUp,
    StageQuestion,
    Submission,
    TestCase,
)
from interviews.selectors.rubrics import ScoringRubric, rubrics_for_stages
from interviews.selectors.stages import open_part_numbers, scorecard_of
from interviews.services.errors import NotFound
from interviews.services.reviews import review_scores_for_stages
from interviews.stage_kinds import stage_kind_get


def stage_rubrics(stages: Sequence[Stage]) -> dict[int, ScoringRubric | None]:
    """Each stage's scoring rubric — the version pinned when its loop started (see
    `selectors.rubrics`, the one place a rubric version is resolved) — with dimensions
    in order, in a fixed number of queries."""
    return rubrics_for_stages(stages)


def _room(stage: Stage) -> str:
    spec = stage_kind_get(stage.kind)
    return spec.room if spec is not None else "discussion"


class _StageLinks:
    """The stages' questions in order and the follow-ups pushed into them, loaded once
    for the coding and the discussion cards (two queries); the questions' translations
    into the language bank text is served in, for the text the cards quote."""

    def __init__(self, stage_ids: Sequence[int]):
        rows = list(
            StageQuestion.objects.filter(stage_id__in=stage_ids)
            .order_by("stage_id", "position")
            .values_list(
                "stage_id",
                "question_id",
                "question__slug",
                "question__title",
                "question__key_points",
                "question__reference_time_ms",
                "question__i18n",
            )
        )
        self.translations: dict[int, Translation] = {row[1]: translation_of(row[6]) for row in rows}
        self.links = [row[:4] for row in rows]
        self.question_key_points: dict[int, list[dict]] = {row[1]: row[4] or [] for row in rows}
        self.reference_time_ms: dict[int, dict] = {row[1]: row[5] or {} for row in rows}
        self.pushed = list(
            StageFollowUp.objects.filter(stage_id__in=stage_ids).values_list(
                "stage_id", "question_id", "follow_up_id", "unlocks_part"
            )
        )

    def of(self, stage_ids: Sequence[int]) -> list[tuple[int, int, str, str]]:
        wanted = set(stage_ids)
        return [link for link in self.links if link[0] in wanted]


def _coding_facts(
    stages: Sequence[Stage], stage_links: _StageLinks
) -> dict[int, list[CodingQuestionFacts]]:
    """Each coding stage's questions: open parts with their hidden-test counts and the
    judged submissions (never their code or test data)."""
    stage_ids = [stage.pk for stage in stages]
    links = stage_links.of(stage_ids)
    question_ids = {question_id for _, question_id, _, _ in links}
    structures = bank_cache.question_structures(question_ids)
    hidden_counts = dict(
        TestCase.objects.filter(
            part__question_id__in=question_ids, visibility=TestCase.Visibility.HIDDEN
        )
        .values("part_id")
        .annotate(n=Count("id"))
        .values_list("part_id", "n")
    )
    parts: dict[int, list[tuple[int, str, int]]] = {
        question_id: [
            (part.position, part.title, hidden_counts.get(part.pk, 0)) for part in structure.parts
        ]
        for question_id, structure in structures.items()
    }
    unlocks: dict[int, list[int | None]] = {
        question_id: [f.unlocks_part for f in structure.follow_ups]
        for question_id, structure in structures.items()
    }
    pushed: dict[tuple[int, int], list[int]] = defaultdict(list)
    for stage_id, question_id, _, unlocks_part in stage_links.pushed:
        if unlocks_part is not None:
            pushed[(stage_id, question_id)].append(unlocks_part)
    submissions: dict[tuple[int, int], list[SubmissionFacts]] = defaultdict(list)
    for row in (
        Submission.objects.filter(stage_id__in=stage_ids)
        .exclude(verdict="")
        .values(
            "stage_id",
            "question_id",
            "part",
            "mode",
            "stdin",
            "verdict",
            "passed",
            "total",
            "created_at",
            "auto",
            "language",
            "max_time_ms",
        )
    ):
        submissions[(row["stage_id"], row["question_id"])].append(
            SubmissionFacts(
                part=row["part"],
                mode=row["mode"],
                custom_input=row["stdin"] is not None,
                verdict=row["verdict"],
                passed=row["passed"],
                total=row["total"],
                at=row["created_at"],
                auto=row["auto"],
                language=row["language"],
                max_time_ms=row["max_time_ms"],
            )
        )
    facts: dict[int, list[CodingQuestionFacts]] = defaultdict(list)
    for stage_id, question_id, slug, title in links:
        translation = stage_links.translations[question_id]
        numbers = [position for position, _, _ in parts[question_id]]
        open_numbers = open_part_numbers(
            numbers, unlocks[question_id], pushed[(stage_id, question_id)]
        )
        index = len(facts[stage_id]) + 1
        facts[stage_id].append(
            CodingQuestionFacts(
                label=f"Q{index}",
                title=f"{translation.text('title', title)} ({slug})",
                parts=[
                    PartFacts(
                        number=position,
                        title=child_translation(translation, "parts", position).text(
                            "title", part_title
                        ),
                        hidden_tests=hidden,
                        open=position in open_numbers,
                    )
                    for position, part_title, hidden in parts[question_id]
                ],
                submissions=submissions[(stage_id, question_id)],
                reference_time_ms=stage_links.reference_time_ms.get(question_id, {}),
            )
        )
    return facts


def _coding_card(
    stage: Stage, rubric: Rubric | None, questions: list[CodingQuestionFacts]
) -> AutoScorecard:
    signals, outcomes = coding_signals(questions, started_at=stage.started_at)
    dimensions = list(rubric.dimensions.all()) if rubric else []
    correctness = signals["correctness"]
    summary = "; ".join(o["summary"] for o in outcomes) or "No questions."
    if correctness.level is not None:
        summary += f". {correctness.rule.split(' → ')[0].capitalize()}."
    return auto_scorecard(
        stage_id=stage.pk,
        kind=stage.kind,
        dimensions=dimensions,
        scores=scores_for(
            dimensions, lambda name: dimension_signal(name, CODING_DIMENSIONS, signals)
        )
        if dimensions
        else signal_scores(signals),
        summary=summary,
        questions=outcomes,
    )


def _review_cards(
    stages: Sequence[Stage],
    rubrics: dict[int, Rubric | None],
    scores: dict[int, dict],
) -> dict[int, AutoScorecard]:
    stage_ids = [stage.pk for stage in stages]
    # The review score names each flaw of the stage's docs, matched or missed.
    doc_ids: dict[int, set[int]] = defaultdict(set)
    for stage_id, score in scores.items():
        for flaw in [*score["matched"], *score["missed"]]:
            doc_ids[stage_id].add(flaw["question"])
    structures = bank_cache.question_structures(
        set().union(*doc_ids.values()) if doc_ids else set()
    )
    flaws = [
        (f.pk, f.question_id, f.category, f.line_start, f.line_end, f.severity)
        for structure in structures.values()
        for f in structure.flaws
    ]
    comments: dict[int, list[CommentFacts]] = defaultdict(list)
    for pk, stage_id, line_start, line_end, category, text in (
        ReviewComment.objects.filter(stage_id__in=stage_ids)
        .order_by("line_start", "id")
        .values_list("pk", "stage_id", "line_start", "line_end", "category", "text")
    ):
        comments[stage_id].append(CommentFacts(pk, (line_start, line_end), category, text))
    cards: dict[int, AutoScorecard] = {}
    for stage in stages:
        stage_flaws = [
            FlawFacts(pk, category, (line_start, line_end), severity)
            for pk, question_id, category, line_start, line_end, severity in flaws
            if question_id in doc_ids[stage.pk]
        ]
        score = scores.get(stage.pk) or {}
        signals = review_signals(flaws=stage_flaws, comments=comments[stage.pk], score=score)
        rubric = rubrics.get(stage.pk)
        dimensions = list(rubric.dimensions.all()) if rubric else []
        finds = signals["finds"]
        cards[stage.pk] = auto_scorecard(
            stage_id=stage.pk,
            kind=stage.kind,
            dimensions=dimensions,
            scores=scores_for(
                dimensions, lambda name, s=signals: dimension_signal(name, REVIEW_DIMENSIONS, s)
            )
            if dimensions
            else signal_scores(signals),
            summary=f"{finds.rule.split(' → ')[0].capitalize()}; "
            f"{len(comments[stage.pk])} comment(s).",
        )
    return cards


def _answer_text(text: str, notes: Any) -> str:
    """An answer's text and its design notes' text values, as one text to match."""
    parts = [text or ""]
    if isinstance(notes, dict):
        parts += [str(value) for value in notes.values() if isinstance(value, str)]
    return "\n".join(parts)


def _key_points(
    stages: Sequence[Stage], stage_links: _StageLinks
) -> dict[int, list[KeyPointFacts]]:
    """Each stage's key points: its questions' own and those of the follow-ups that were
    asked in it (a follow-up never asked is not held against the candidate)."""
    stage_ids = [stage.pk for stage in stages]
    links = stage_links.of(stage_ids)
    structures = bank_cache.question_structures({question_id for _, question_id, _, _ in links})
    asked = {(stage_id, follow_up_id) for stage_id, _, follow_up_id, _ in stage_links.pushed}
    points: dict[int, list[KeyPointFacts]] = defaultdict(list)
    labels: dict[int, int] = defaultdict(int)
    for stage_id, question_id, _, _ in links:
        labels[stage_id] += 1
        label = f"Q{labels[stage_id]}"
        translation = stage_links.translations[question_id]
        for number, item in enumerate(stage_links.question_key_points.get(question_id, []), 1):
            points[stage_id].append(
                _key_point(item, label, child_translation(translation, "key_points", number))
            )
        for follow_up in structures[question_id].follow_ups:
            if (stage_id, follow_up.pk) not in asked:
                continue
            owner = child_translation(translation, "follow_ups", follow_up.position)
            for number, item in enumerate(follow_up.key_points, start=1):
                points[stage_id].append(
                    _key_point(
                        item,
                        f"{label} follow-up {follow_up.position}",
                        child_translation(owner, "key_points", number),
                    )
                )
    return points


def _key_point(item: dict, source: str, translation: Translation) -> KeyPointFacts:
    """A key point to match (by its patterns, in either language) and to show (its text
    in the language bank text is served in)."""
    point = translation.text("point", item["point"])
    return KeyPointFacts(
        point, item["patterns"], item["dimension"], source, language=translation.language
    )


def _discussion_cards(
    stages: Sequence[Stage],
    rubrics: dict[int, Rubric | None],
    deep_dives: dict[int, dict],
    stage_links: _StageLinks,
) -> dict[int, AutoScorecard]:
    points = _key_points(stages, stage_links)
    texts: dict[int, list[str]] = defaultdict(list)
    with_points = [stage.pk for stage in stages if points.get(stage.pk)]
    if with_points:
        for stage_id, text, notes in Answer.objects.filter(stage_id__in=with_points).values_list(
            "stage_id", "text", "notes"
        ):
            texts[stage_id].append(_answer_text(text, notes))
    cards: dict[int, AutoScorecard] = {}
    for stage in stages:
        rubric = rubrics.get(stage.pk)
        dimensions = list(rubric.dimensions.all()) if rubric else []
        feedback = deep_dives.get(stage.pk)
        coverage = key_point_coverage(points.get(stage.pk, []), "\n".join(texts[stage.pk]))
        by_point = key_point_signals(coverage)

        def pick(
            name: str, feedback: dict | None = feedback, by_point: dict = by_point
        ) -> Signal | None:
            if name in by_point:
                return by_point[name]
            return deep_dive_signal(name, feedback) if feedback is not None else None

        scores = scores_for(dimensions, pick) if dimensions else signal_scores(by_point)
        measured = sum(1 for s in scores if s["level"] is not None)
        covered = sum(1 for item in coverage if item["covered"])
        summary = f"{measured} of {len(scores)} dimensions measured from your answers"
        if coverage:
            summary += f"; {covered} of {len(coverage)} key points covered"
        cards[stage.pk] = auto_scorecard(
            stage_id=stage.pk,
            kind=stage.kind,
            dimensions=dimensions,
            scores=scores,
            summary=summary + ".",
            key_points=coverage,
        )
    return cards


def auto_scorecards_for_stages(
    stages: Sequence[Stage],
    rubrics: dict[int, Rubric | None],
    *,
    reviews: dict[int, dict] | None = None,
    deep_dives: dict[int, dict] | None = None,
) -> dict[int, AutoScorecard]:
    """The automatic scorecard of each finished stage (`rubrics`: each stage's rubric with
    its dimensions, as `stage_rubrics` loads them). A caller that has the stages' review
    scores or deep-dive feedback already (the loop report) passes them in."""
    done = [stage for stage in stages if stage.status == Stage.Status.DONE]
    by_room: dict[str, list[Stage]] = defaultdict(list)
    for stage in done:
        by_room[_room(stage)].append(stage)
    cards: dict[int, AutoScorecard] = {}
    others = by_room["discussion"] + by_room["design"]
    stage_links = _StageLinks([s.pk for s in by_room["coding"] + others])
    if by_room["coding"]:
        facts = _coding_facts(by_room["coding"], stage_links)
        for stage in by_room["coding"]:
            cards[stage.pk] = _coding_card(stage, rubrics.get(stage.pk), facts.get(stage.pk, []))
    if by_room["review"]:
        if reviews is None:
            reviews = review_scores_for_stages([s.pk for s in by_room["review"]])
        cards.update(_review_cards(by_room["review"], rubrics, reviews))
    if others:
        if deep_dives is None:
            deep_dives = deep_dive_feedback_for_stages(
                [
                    s.pk
                    for s in others
                    if (spec := stage_kind_get(s.kind)) and spec.deep_dive_feedback
                ]
            )
        cards.update(_discussion_cards(others, rubrics, deep_dives, stage_links))
    return cards


def stage_scorecard(stage: Stage) -> Scorecard | AutoScorecard | None:
    """What the stage's scorecard endpoint shows (the caller has checked the viewer with
    `access.access_scorecard`): the coach's scorecard, else for a finished stage the
    automatic one, else None."""
    try:
        return scorecard_of(stage)
    except NotFound:
        pass
    if stage.status != Stage.Status.DONE:
        return None
    return auto_scorecards_for_stages([stage], stage_rubrics([stage])).get(stage.pk)
