"""The automatic scorecard: fixed, explainable rules from what the candidate did in a
stage to a level 1–4 per rubric dimension, each with the evidence that produced it.

Solo practice has no coach, so this is the feedback a solo candidate reads. Every rule is
a pure function of facts gathered by `interviews.selectors.scorecards` (no database, no
viewer here), so the same stage always gets the same card and a test can pin each rule.

How a card is built:

1. **Signals.** Each stage kind's facts give named *signals*, each a level (or None:
   nothing to measure) with the evidence lines behind it:
   - coding / challenge (`coding_signals`): `correctness` (hidden tests passed, best
     submit per open part), `coverage` (open parts accepted; the challenge also per
     question), `testing` (samples or custom input run before the first submit of a
     part; failed submits), `performance` (open parts accepted within the time limit
     and not far slower than the reference solution's run time, stored by its
     verification: unsolved and unsubmitted parts count against it, so one solved part
     of four is not "100 %");
   - review (`review_signals`): `finds` (planted flaws whose lines a comment points at,
     whatever its category), `severity` (high-severity flaws found), `precision` (today's
     review precision), `fixes` (comments on a flaw that propose a change);
   - discussion rounds (`key_point_signals`): per rubric dimension, the share of its key
     points the answers cover.
2. **Levels from shares** (`level_from_share`): ≥ 85 % → 4, ≥ 60 % → 3, ≥ 30 % → 2,
   else 1.
3. **Dimensions.** Each rubric dimension takes the first signal whose name pattern it
   matches (`CODING_DIMENSIONS`, `REVIEW_DIMENSIONS`; key points name their dimension).
   A dimension no rule measures is left unscored — reported as "not measured
   automatically", and left out of the overall as `feedback.scoring` leaves out any
   unscored dimension.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, TypedDict

import opencc

from interviews.feedback.scoring import StageScore, stage_score
from interviews.models import Dimension

# --- shared --------------------------------------------------------------------------------


class Evidence(TypedDict):
    rule: str
    text: str


@dataclass
class Signal:
    """A measured quality of the stage: its level (None: nothing to measure), the rule
    that set it and the evidence lines."""

    name: str
    level: int | None
    rule: str
    evidence: list[Evidence] = field(default_factory=list)


#: (least share, level), highest first.
LEVEL_THRESHOLDS: tuple[tuple[float, int], ...] = ((0.85, 4), (0.6, 3), (0.3, 2))


def level_from_share(share: float) -> int:
    """A share 0–1 on the 1–4 scale (`LEVEL_THRESHOLDS`)."""
    for least, level in LEVEL_THRESHOLDS:
        if share >= least:
            return level
    return 1


def _share_rule(what: str, done: int, total: int) -> str:
    share = done / total if total else 0.0
    return f"{what}: {done}/{total} = {share:.0%} → level {level_from_share(share)}"


def _evidence(rule: str, text: str) -> Evidence:
    return {"rule": rule, "text": text}


# --- coding and challenge ------------------------------------------------------------------


@dataclass(frozen=True)
class PartFacts:
    number: int
    title: str
    hidden_tests: int
    open: bool


@dataclass(frozen=True)
class SubmissionFacts:
    part: int
    mode: Literal["run", "submit"]
    custom_input: bool
    verdict: str
    passed: int
    total: int
    at: datetime
    auto: bool = False
    language: str = ""
    #: The CPU time of its slowest test (`Submission.max_time_ms`).
    max_time_ms: int = 0


@dataclass(frozen=True)
class CodingQuestionFacts:
    label: str  # "Q1"
    title: str
    parts: Sequence[PartFacts]
    submissions: Sequence[SubmissionFacts]
    #: The reference solution's slowest hidden test per language and part, from its
    #: verification (`Question.reference_time_ms`: {"python": {"1": 90}}).
    reference_time_ms: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


class PartOutcome(TypedDict):
    part: int
    title: str
    hidden_tests: int
    best_passed: int
    accepted: bool
    minutes_to_accept: float | None
    submits: int
    failed_submits: int
    ran_before_submit: bool | None
    timed_out: bool
    #: The fastest accepted submit's slowest test, and its language (None: not accepted).
    slowest_test_ms: int | None
    language: str


def _judged(submission: SubmissionFacts) -> bool:
    return bool(submission.verdict)


def part_outcome(
    part: PartFacts, submissions: Iterable[SubmissionFacts], started_at: datetime | None
) -> PartOutcome:
    """What happened on one part: the best submit, when it was first accepted, how many
    submits failed, and whether a run (samples or custom input) came before the first
    submit (None: never submitted)."""
    mine = sorted(
        (s for s in submissions if s.part == part.number and _judged(s)), key=lambda s: s.at
    )
    submits = [s for s in mine if s.mode == "submit"]
    runs = [s for s in mine if s.mode == "run"]
    accepted = [s for s in submits if s.verdict == "accepted"]
    best = max(submits, key=lambda s: (s.passed, s.verdict == "accepted"), default=None)
    minutes = None
    if accepted and started_at is not None:
        minutes = round(max(0.0, (accepted[0].at - started_at).total_seconds()) / 60, 1)
    ran_before = None
    if submits:
        ran_before = any(run.at <= submits[0].at for run in runs)
    fastest = min(accepted, key=lambda s: s.max_time_ms, default=None)
    return {
        "part": part.number,
        "title": part.title,
        "hidden_tests": part.hidden_tests,
        "best_passed": min(best.passed, part.hidden_tests) if best else 0,
        "accepted": bool(accepted),
        "minutes_to_accept": minutes,
        "submits": len(submits),
        "failed_submits": sum(1 for s in submits if s.verdict != "accepted"),
        "ran_before_submit": ran_before,
        "timed_out": best is not None and best.verdict == "time_limit",
        "slowest_test_ms": fastest.max_time_ms if fastest else None,
        "language": fastest.language if fastest else "",
    }


class QuestionOutcome(TypedDict):
    label: str
    title: str
    parts: list[PartOutcome]
    parts_open: int
    parts_accepted: int
    summary: str


def question_outcome(question: CodingQuestionFacts, started_at: datetime | None) -> QuestionOutcome:
    """One question's open parts and the one-line summary ("Q1 3/3 parts", "Q2 unsolved")."""
    parts = [
        part_outcome(part, question.submissions, started_at) for part in question.parts if part.open
    ]
    accepted = sum(1 for p in parts if p["accepted"])
    attempted = any(p["submits"] for p in parts)
    if accepted:
        summary = f"{question.label} {accepted}/{len(parts)} parts"
    elif attempted:
        summary = f"{question.label} unsolved"
    else:
        summary = f"{question.label} not attempted"
    return {
        "label": question.label,
        "title": question.title,
        "parts": parts,
        "parts_open": len(parts),
        "parts_accepted": accepted,
        "summary": summary,
    }


#: A part "failed submits often" past this many failed submits in the whole stage.
FAILED_SUBMITS_PENALTY_AT = 3


def coding_signals(
    questions: Sequence[CodingQuestionFacts], *, started_at: datetime | None
) -> tuple[dict[str, Signal], list[QuestionOutcome]]:
    """The four coding signals (module docstring) and each question's outcome."""
    outcomes = [question_outcome(q, started_at) for q in questions]
    parts = [(o, p) for o in outcomes for p in o["parts"]]

    def where(outcome: QuestionOutcome, part: PartOutcome) -> str:
        return f'{outcome["label"]} part {part["part"]} "{part["title"]}"'

    # correctness: hidden tests passed by the best submit of each open part.
    hidden = sum(p["hidden_tests"] for _, p in parts)
    passed = sum(p["best_passed"] for _, p in parts)
    correctness = Signal(
        "correctness",
        level_from_share(passed / hidden) if hidden else None,
        _share_rule("hidden tests passed (best submit per part)", passed, hidden)
        if hidden
        else "no hidden tests in the open parts",
    )
    for outcome, part in parts:
        text = f"{where(outcome, part)}: {part['best_passed']}/{part['hidden_tests']} hidden tests"
        if part["accepted"]:
            text += " — accepted"
            if part["minutes_to_accept"] is not None:
                text += f" after {part['minutes_to_accept']:g} min"
        elif not part["submits"]:
            text += " — not submitted"
        correctness.evidence.append(_evidence("coding.hidden-tests", text))

    # coverage: open parts accepted; one line per question.
    accepted = sum(1 for _, p in parts if p["accepted"])
    coverage = Signal(
        "coverage",
        level_from_share(accepted / len(parts)) if parts else None,
        _share_rule("open parts accepted", accepted, len(parts)) if parts else "no open parts",
    )
    for outcome in outcomes:
        times = [
            f"part {p['part']} at {p['minutes_to_accept']:g} min"
            for p in outcome["parts"]
            if p["minutes_to_accept"] is not None
        ]
        coverage.evidence.append(
            _evidence(
                "coding.parts-accepted",
                f"{outcome['summary']} ({outcome['title']})"
                + (f": {', '.join(times)}" if times else ""),
            )
        )

    # testing: a run before the first submit of each open part; failed submits. A part
    # never submitted shows no testing, so it counts against the share (as in performance):
    # one tested question of four is not "always tests".
    submitted = [(o, p) for o, p in parts if p["submits"]]
    ran = sum(1 for _, p in submitted if p["ran_before_submit"])
    failed = sum(p["failed_submits"] for _, p in parts)
    testing = Signal("testing", None, "nothing was submitted")
    if submitted:
        level = level_from_share(ran / len(parts))
        rule = _share_rule(
            "open parts run on samples or custom input before submitting", ran, len(parts)
        )
        if failed >= FAILED_SUBMITS_PENALTY_AT and level > 1:
            level -= 1
            rule += f"; {failed} failed submits (≥ {FAILED_SUBMITS_PENALTY_AT}): −1 → level {level}"
        testing = Signal("testing", level, rule)
        for outcome, part in parts:
            if not part["submits"]:
                text = "not submitted, so no testing to credit"
            else:
                text = (
                    "ran before submitting"
                    if part["ran_before_submit"]
                    else "submitted without a run first"
                ) + f"; {part['failed_submits']} failed of {part['submits']} submits"
            testing.evidence.append(
                _evidence("coding.ran-before-submit", f"{where(outcome, part)}: {text}")
            )

    performance = performance_signal(questions, outcomes)
    return (
        {s.name: s for s in (correctness, coverage, testing, performance)},
        outcomes,
    )


#: An accepted part is "slow" when its slowest test took more than this many times the
#: reference's slowest hidden test in the same language …
SLOW_RATIO = 3.0
#: … and more than this many ms longer: below it, the ratio of two small CPU times is noise.
SLOW_MARGIN_MS = 50


def _ratio_text(mine: int, reference: int) -> str:
    return f"{mine / reference:.1f}×" if reference > 0 else "the reference took under 1 ms"


def performance_signal(
    questions: Sequence[CodingQuestionFacts], outcomes: Sequence[QuestionOutcome]
) -> Signal:
    """Open parts accepted within the time limit and not slow against the reference
    (`SLOW_RATIO`, `SLOW_MARGIN_MS`), over every open part: a part not solved has no
    speed worth the name, so it counts against the share instead of leaving it."""
    parts = [
        (outcome, question, part)
        for outcome, question in zip(outcomes, questions, strict=True)
        for part in outcome["parts"]
    ]
    if not parts:
        return Signal("performance", None, "no open parts")
    if not any(part["submits"] for _, _, part in parts):
        return Signal("performance", None, "nothing was submitted, so speed was not measured")
    fast = 0
    evidence: list[Evidence] = []
    for outcome, question, part in parts:
        where = f'{outcome["label"]} part {part["part"]} "{part["title"]}"'
        if part["timed_out"]:
            evidence.append(_evidence("coding.time-limit", f"{where}: best submit ran out of time"))
            continue
        if not part["accepted"]:
            evidence.append(
                _evidence(
                    "coding.unsolved-part",
                    f"{where}: "
                    + ("not accepted" if part["submits"] else "not submitted")
                    + ", so counted as not fast",
                )
            )
            continue
        mine = part["slowest_test_ms"] or 0
        reference = question.reference_time_ms.get(part["language"], {}).get(str(part["part"]))
        if reference is None:
            fast += 1
            evidence.append(
                _evidence(
                    "coding.no-reference-time",
                    f"{where}: your slowest test {mine} ms, within the time limit; no "
                    f"{part['language'] or 'reference'} run time of the reference to compare",
                )
            )
            continue
        slow = mine > reference * SLOW_RATIO and mine - reference > SLOW_MARGIN_MS
        fast += not slow
        evidence.append(
            _evidence(
                "coding.slow-vs-reference" if slow else "coding.vs-reference",
                f"{where}: your slowest test {mine} ms vs reference {reference} ms: "
                f"{_ratio_text(mine, reference)}"
                + (f" (over {SLOW_RATIO:g}×: counted as slow)" if slow else ""),
            )
        )
    return Signal(
        "performance",
        level_from_share(fast / len(parts)),
        _share_rule(
            f"open parts accepted within the time limit and at most {SLOW_RATIO:g}× the "
            "reference's run time",
            fast,
            len(parts),
        ),
        evidence,
    )


#: Rubric dimension name pattern → coding signal; the first pattern that matches wins, so
#: "Correctness and edge cases" is correctness.
CODING_DIMENSIONS: tuple[tuple[str, str], ...] = (
    (r"triage|coverage|adapt|follow-up|progress", "coverage"),
    (r"correct|hidden|problem[- ]solving|\bsolv", "correctness"),
    (r"edge case|testing|\btests?\b", "testing"),
    (r"performance|complexity|efficien|speed", "performance"),
)


# --- review --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlawFacts:
    id: int
    category: str
    lines: tuple[int, int]
    severity: str


@dataclass(frozen=True)
class CommentFacts:
    id: int
    lines: tuple[int, int]
    category: str
    text: str


#: A comment proposes a fix when it says what to change.
FIX_PATTERN = re.compile(
    r"\b(?:should|instead|add|use|replace|fix|move|make|introduce|cap|limit"
    r"|bound|set|switch|split|shard|cache|persist|dedupe|idempotency key|timeout)\b",
    re.IGNORECASE,
)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]) + 1)


def _lines(lines: Sequence[int]) -> str:
    return f"{lines[0]}–{lines[1]}" if lines[0] != lines[1] else str(lines[0])


def comment_explanations(
    flaws: Sequence[FlawFacts], comments: Sequence[CommentFacts], matches: Sequence[dict]
) -> list[Evidence]:
    """Comment by comment, why it counted: matched a flaw (`review_score`'s match, by
    category and lines, or the coach's ruling), pointed at a flaw's lines with another
    category (counted as found here, not in today's precision), or matched nothing."""
    by_id = {flaw.id: flaw for flaw in flaws}
    by_comment = {match["comment"]: match for match in matches}
    lines: list[Evidence] = []
    for comment in comments:
        match = by_comment.get(comment.id, {})
        flaw = by_id.get(match.get("flaw")) if match.get("flaw") else None
        where = f"your comment on {_lines(comment.lines)}"
        if flaw is not None:
            how = (
                "the coach's ruling"
                if match.get("source") == "coach"
                else "same category, lines overlap"
            )
            status = (
                "a repeat of a flaw already found"
                if match.get("status") == "duplicate"
                else "counted"
            )
            lines.append(
                _evidence("review.matched", f"{where} matched {flaw.category} ({how}); {status}")
            )
            continue
        near = [f for f in flaws if _overlap(comment.lines, f.lines)]
        if near:
            best = max(near, key=lambda f: _overlap(comment.lines, f.lines))
            lines.append(
                _evidence(
                    "review.located",
                    f"{where} pointed at {best.category} (lines {_lines(best.lines)}); category "
                    f"differed ({comment.category}), counted as found",
                )
            )
        else:
            lines.append(
                _evidence("review.no-flaw", f"{where} ({comment.category}) matched no planted flaw")
            )
    return lines


def review_signals(
    *,
    flaws: Sequence[FlawFacts],
    comments: Sequence[CommentFacts],
    score: dict,
) -> dict[str, Signal]:
    """The review signals from the planted flaws, the comments and today's `review_score`
    (its recall, precision and comment matches)."""
    matches = score.get("comment_matches", [])
    matched_flaw_ids = {m["flaw"] for m in matches if m.get("flaw")}
    located = {
        f.id
        for f in flaws
        if f.id in matched_flaw_ids or any(_overlap(c.lines, f.lines) for c in comments)
    }
    explanations = comment_explanations(flaws, comments, matches)

    finds = Signal(
        "finds",
        level_from_share(len(located) / len(flaws)) if flaws else None,
        _share_rule("planted flaws a comment points at (any category)", len(located), len(flaws))
        if flaws
        else "the doc has no planted flaws",
        [
            _evidence(
                "review.recall",
                f"Recall {score.get('recall', 0):.0%}, precision {score.get('precision', 0):.0%} "
                "(matching by category and lines)",
            ),
            *explanations,
        ],
    )
    finds.evidence.extend(
        _evidence(
            "review.missed", f"missed: {f.category} on lines {_lines(f.lines)} ({f.severity})"
        )
        for f in flaws
        if f.id not in located
    )

    high = [f for f in flaws if f.severity == "high"]
    high_found = [f for f in high if f.id in located]
    severity = Signal(
        "severity",
        level_from_share(len(high_found) / len(high)) if high else None,
        _share_rule("high-severity flaws found", len(high_found), len(high))
        if high
        else "the doc has no high-severity flaw",
        [
            _evidence(
                "review.high-severity",
                f"{f.category} on lines {_lines(f.lines)}: "
                + ("found" if f.id in located else "missed"),
            )
            for f in high
        ],
    )

    hits = score.get("hits", 0)
    misses = score.get("misses", 0)
    precision = Signal(
        "precision",
        level_from_share(score.get("precision", 0.0)) if hits + misses else None,
        _share_rule("comments that hit a flaw (duplicates left out)", hits, hits + misses)
        if hits + misses
        else "no comments",
        [_evidence("review.precision", line) for line in score.get("explanation", [])],
    )

    on_flaw = [c for c in comments if any(_overlap(c.lines, f.lines) for f in flaws)]
    proposing = [c for c in on_flaw if FIX_PATTERN.search(c.text)]
    fixes = Signal(
        "fixes",
        level_from_share(len(proposing) / len(on_flaw)) if on_flaw else None,
        _share_rule("comments on a flaw that propose a change", len(proposing), len(on_flaw))
        if on_flaw
        else "no comment points at a flaw",
        [
            _evidence(
                "review.proposes-fix",
                f"your comment on {_lines(c.lines)} "
                + (
                    f'proposes a change ("{FIX_PATTERN.search(c.text).group(0)}")'
                    if c in proposing
                    else "names the problem but no change"
                ),
            )
            for c in on_flaw
        ],
    )
    return {s.name: s for s in (finds, severity, precision, fixes)}


REVIEW_DIMENSIONS: tuple[tuple[str, str], ...] = (
    (r"find|defect|flaw|detect", "finds"),
    (r"severity|priorit", "severity"),
    (r"fix|remed|propos", "fixes"),
    (r"precision|noise|communicat", "precision"),
)


# --- key points (screen, hiring-manager, design, deep dive, values) ------------------------


@dataclass(frozen=True)
class KeyPointFacts:
    point: str
    patterns: dict[str, list[str]]
    dimension: str
    source: str  # "Q1", "Q1 follow-up 2"
    #: The language `point` is written in (the bank's translation shown, else English).
    language: str = "en"


class KeyPointCoverage(TypedDict):
    point: str
    dimension: str
    source: str
    covered: bool
    sentence: str
    pattern: str
    language: str


#: English marks end a sentence before whitespace (so "0.33 MB" stays whole); Chinese
#: marks end one wherever they are.
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])\s*|\n+")


def sentences(text: str) -> list[str]:
    """The text cut into sentences (English and Chinese end marks, and line breaks)."""
    return [part.strip() for part in _SENTENCE_SPLIT.split(text) if part and part.strip()]


_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@functools.cache
def _simplified() -> opencc.OpenCC:
    """Traditional (Taiwan phrases too: 記憶體 → 内存) → Simplified, as the bank's Chinese
    patterns are written."""
    return opencc.OpenCC("tw2sp")


def _readings(sentence: str) -> tuple[str, ...]:
    """The sentence, and its Simplified form when it has Chinese that differs: an answer
    in Traditional Chinese covers the same points as one in Simplified."""
    if not _CJK_RE.search(sentence):
        return (sentence,)
    simplified = _simplified().convert(sentence)
    return (sentence,) if simplified == sentence else (sentence, simplified)


def key_point_coverage(points: Sequence[KeyPointFacts], text: str) -> list[KeyPointCoverage]:
    """Each key point is covered by the first sentence one of its patterns (English or
    Chinese — Simplified or Traditional — case-insensitive) matches, whatever language
    the question was read in; that sentence, as written, is the evidence."""
    cut = [(sentence, _readings(sentence)) for sentence in sentences(text)]
    result: list[KeyPointCoverage] = []
    for point in points:
        hit: tuple[str, str] | None = None
        for pattern in [p for language in ("en", "zh") for p in point.patterns.get(language, [])]:
            compiled = re.compile(pattern, re.IGNORECASE)
            sentence = next(
                (s for s, readings in cut if any(compiled.search(r) for r in readings)), None
            )
            if sentence is not None:
                hit = (sentence, pattern)
                break
        result.append(
            {
                "point": point.point,
                "dimension": point.dimension,
                "source": point.source,
                "covered": hit is not None,
                "sentence": hit[0] if hit else "",
                "pattern": hit[1] if hit else "",
                "language": point.language,
            }
        )
    return result


def key_point_signals(coverage: Sequence[KeyPointCoverage]) -> dict[str, Signal]:
    """One signal per dimension the key points name: the share of its points covered."""
    by_dimension: dict[str, list[KeyPointCoverage]] = {}
    for item in coverage:
        by_dimension.setdefault(item["dimension"], []).append(item)
    signals: dict[str, Signal] = {}
    for dimension, items in by_dimension.items():
        covered = sum(1 for item in items if item["covered"])
        signals[dimension] = Signal(
            dimension,
            level_from_share(covered / len(items)),
            _share_rule("key points covered", covered, len(items)),
            [
                _evidence(
                    "key-point.covered" if item["covered"] else "key-point.not-covered",
                    f'covered ({item["source"]}): {item["point"]} — "{item["sentence"]}"'
                    if item["covered"]
                    else f"not covered ({item['source']}): {item['point']}",
                )
                for item in items
            ],
        )
    return signals


# --- project deep dive ---------------------------------------------------------------------

#: Rubric dimension name pattern → the deep-dive checklist parts (`feedback.deep_dive`) it
#: reads; the first pattern that matches wins.
DEEP_DIVE_DIMENSIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"metric|roi|impact", ("metrics",)),
    (r"extension|10x|scal", ("extension",)),
    (r"fail|learn|incident", ("failure",)),
    (r"owner", ("ownership",)),
    (r"architect|trade", ("architecture", "trade-off")),
    (r"context|problem", ("context",)),
)


def deep_dive_signal(name: str, feedback: dict) -> Signal | None:
    """A deep-dive dimension from the seven-part checklist of the stage's answers: level
    1 + the number of checklist rules that fired for its parts (at most 3 more); for
    metrics, a checked ROI (it adds up or says it does not) counts as one more rule."""
    parts = next(
        (
            parts
            for pattern, parts in DEEP_DIVE_DIMENSIONS
            if re.search(pattern, name, re.IGNORECASE)
        ),
        None,
    )
    if parts is None:
        return None
    evidence: list[Evidence] = []
    fired: set[str] = set()
    for answer in feedback.get("answers", []):
        for item in answer["checklist"]:
            if item["part"] not in parts:
                continue
            for span in item["evidence"]:
                fired.add(span["rule"])
                evidence.append(
                    _evidence(
                        span["rule"],
                        f'{span["description"]}: "{span["text"]}" (line {span["line"]})',
                    )
                )
            if not item["covered"]:
                evidence.append(
                    _evidence(f"{item['part']}.missing", f"{item['label']}: {item['hint']}")
                )
        if "metrics" in parts and answer["roi"]["status"] in ("adds_up", "does_not_add_up"):
            fired.add("roi.checked")
            evidence.append(_evidence("roi.checked", answer["roi"]["verdict"]))
    level = 1 + min(3, len(fired))
    return Signal(
        name,
        level,
        f"{len(fired)} checklist rule(s) fired for {', '.join(parts)} → level {level} "
        "(1 + one per rule, at most 4)",
        evidence,
    )


# --- the card ------------------------------------------------------------------------------


class AutoScore(TypedDict):
    dimension: str
    level: int | None
    comment: str
    evidence: list[Evidence]


class AutoScorecard(TypedDict):
    source: Literal["auto"]
    stage: int
    kind: str
    summary: str
    scores: list[AutoScore]
    score: StageScore
    questions: list[QuestionOutcome]
    key_points: list[KeyPointCoverage]


NOT_MEASURED = (
    "Not measured automatically: your self-assessment (and a coach, if you ask for one) covers it."
)


def dimension_signal(
    name: str, rules: Sequence[tuple[str, str]], signals: dict[str, Signal]
) -> Signal | None:
    """The signal of the first rule whose pattern matches the dimension's name."""
    for pattern, signal in rules:
        if re.search(pattern, name, re.IGNORECASE) and signal in signals:
            return signals[signal]
    return None


def scores_for(
    dimensions: Sequence[Dimension],
    pick: Callable[[str], Signal | None],
) -> list[AutoScore]:
    scores: list[AutoScore] = []
    for dimension in dimensions:
        signal = pick(dimension.name)
        if signal is None or signal.level is None:
            scores.append(
                {
                    "dimension": dimension.name,
                    "level": None,
                    "comment": signal.rule if signal is not None else NOT_MEASURED,
                    "evidence": list(signal.evidence) if signal is not None else [],
                }
            )
            continue
        scores.append(
            {
                "dimension": dimension.name,
                "level": signal.level,
                "comment": signal.rule,
                "evidence": list(signal.evidence),
            }
        )
    return scores


#: What a signal is called when the stage has no rubric to map it onto.
SIGNAL_LABELS = {
    "correctness": "Correctness on hidden tests",
    "coverage": "Parts solved",
    "testing": "Tests before submitting",
    "performance": "Performance",
    "finds": "Finds the flaws",
    "severity": "High-severity flaws",
    "precision": "Precision of comments",
    "fixes": "Proposes fixes",
}


def signal_scores(signals: dict[str, Signal]) -> list[AutoScore]:
    """Scores straight from the signals, for a stage without a rubric."""
    return [
        {
            "dimension": SIGNAL_LABELS.get(signal.name, signal.name),
            "level": signal.level,
            "comment": signal.rule,
            "evidence": list(signal.evidence),
        }
        for signal in signals.values()
    ]


def auto_scorecard(
    *,
    stage_id: int,
    kind: str,
    dimensions: Sequence[Dimension] | None,
    scores: list[AutoScore],
    summary: str,
    questions: list[QuestionOutcome] | None = None,
    key_points: list[KeyPointCoverage] | None = None,
) -> AutoScorecard:
    """The card: its scores, the weighted overall of the scored ones (`stage_score`)."""
    return {
        "source": "auto",
        "stage": stage_id,
        "kind": kind,
        "summary": summary,
        "scores": scores,
        "score": stage_score(
            scores=[s for s in scores if s["level"] is not None], dimensions=dimensions
        ),
        "questions": questions or [],
        "key_points": key_points or [],
    }
