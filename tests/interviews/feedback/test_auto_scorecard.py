"""The automatic scorecard's rules, one by one: levels from shares, coding outcomes per
part and question, the four coding signals, the review signals with their
comment-by-comment explanations, deep-dive dimensions from the checklist, and the mapping
of rubric dimensions to signals (unmeasured ones left out of the overall)."""

from datetime import UTC, datetime, timedelta

from interviews import models as m
from interviews.feedback.auto_scorecard import (
    CODING_DIMENSIONS,
    NOT_MEASURED,
    REVIEW_DIMENSIONS,
    CodingQuestionFacts,
    CommentFacts,
    FlawFacts,
    PartFacts,
    SubmissionFacts,
    auto_scorecard,
    coding_signals,
    deep_dive_signal,
    dimension_signal,
    level_from_share,
    part_outcome,
    question_outcome,
    review_signals,
    scores_for,
)
from interviews.feedback.deep_dive import answer_feedback

T0 = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def run(part: int, minute: float, custom: bool = False) -> SubmissionFacts:
    return SubmissionFacts(part, "run", custom, "accepted", 1, 1, at(minute))


def submit(part: int, minute: float, passed: int, total: int, verdict: str | None = None):
    verdict = verdict or ("accepted" if passed == total else "wrong_answer")
    return SubmissionFacts(part, "submit", False, verdict, passed, total, at(minute))


PARTS = [PartFacts(1, "Fixed", 3, True), PartFacts(2, "Deadline", 2, True)]


def test_levels_come_from_shares():
    assert [level_from_share(x) for x in (0.0, 0.29, 0.3, 0.59, 0.6, 0.84, 0.85, 1.0)] == [
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]


def test_a_part_records_time_to_accept_runs_first_and_failed_submits():
    outcome = part_outcome(
        PARTS[0], [run(1, 2), submit(1, 5, 1, 3), submit(1, 12, 3, 3)], started_at=T0
    )
    assert outcome["accepted"] and outcome["minutes_to_accept"] == 12.0
    assert (outcome["best_passed"], outcome["submits"], outcome["failed_submits"]) == (3, 2, 1)
    assert outcome["ran_before_submit"] is True


def test_a_submit_without_a_run_first_is_noticed():
    outcome = part_outcome(PARTS[0], [submit(1, 3, 3, 3), run(1, 4)], started_at=T0)
    assert outcome["ran_before_submit"] is False
    assert part_outcome(PARTS[0], [run(1, 1)], started_at=T0)["ran_before_submit"] is None


def test_unjudged_submissions_do_not_count():
    queued = SubmissionFacts(1, "submit", False, "", 0, 0, at(1))
    assert part_outcome(PARTS[0], [queued], started_at=T0)["submits"] == 0


def test_questions_are_summarised_by_parts_accepted():
    solved = CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3), submit(2, 9, 2, 2)])
    tried = CodingQuestionFacts("Q2", "B", PARTS, [submit(1, 3, 0, 3)])
    untouched = CodingQuestionFacts("Q3", "C", PARTS, [])
    assert [question_outcome(q, T0)["summary"] for q in (solved, tried, untouched)] == [
        "Q1 2/2 parts",
        "Q2 unsolved",
        "Q3 not attempted",
    ]


def test_locked_parts_are_not_counted():
    parts = [PARTS[0], PartFacts(2, "Locked", 5, False)]
    outcome = question_outcome(CodingQuestionFacts("Q1", "A", parts, [submit(1, 3, 3, 3)]), T0)
    assert (outcome["parts_open"], outcome["summary"]) == (1, "Q1 1/1 parts")


def test_correctness_is_hidden_tests_passed_by_the_best_submit():
    question = CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3), submit(2, 9, 0, 2)])
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["correctness"].level == 3  # 3/5 = 60 %
    assert "3/5" in signals["correctness"].rule
    texts = [e["text"] for e in signals["correctness"].evidence]
    assert texts[0] == 'Q1 part 1 "Fixed": 3/3 hidden tests — accepted after 3 min'


def test_coverage_is_open_parts_accepted():
    question = CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3)])
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["coverage"].level == 2  # 1/2
    assert signals["coverage"].evidence[0]["text"].startswith("Q1 1/2 parts (A): part 1 at 3 min")


def test_testing_rewards_runs_before_submitting_and_docks_many_failed_submits():
    both = [run(2, 8), submit(2, 9, 2, 2)]
    careful = CodingQuestionFacts("Q1", "A", PARTS, [run(1, 1), submit(1, 3, 3, 3), *both])
    signals, _ = coding_signals([careful], started_at=T0)
    assert signals["testing"].level == 4
    flailing = CodingQuestionFacts(
        "Q1", "A", PARTS, [run(1, 1)] + [submit(1, 2 + i, 0, 3) for i in range(3)] + both
    )
    signals, _ = coding_signals([flailing], started_at=T0)
    assert signals["testing"].level == 3
    assert "3 failed submits" in signals["testing"].rule
    nothing, _ = coding_signals([CodingQuestionFacts("Q1", "A", PARTS, [])], started_at=T0)
    assert nothing["testing"].level is None


def test_testing_counts_a_part_never_submitted_against_the_share():
    """One tested part of two is not "always tests": an untouched part shows no testing
    (before, the share was over submitted parts only and read 1/1 = 100% → level 4)."""
    half = CodingQuestionFacts("Q1", "A", PARTS, [run(1, 1), submit(1, 3, 3, 3)])
    signals, _ = coding_signals([half], started_at=T0)
    assert signals["testing"].level == 2
    assert "1/2" in signals["testing"].rule
    texts = [e["text"] for e in signals["testing"].evidence]
    assert texts[1] == 'Q1 part 2 "Deadline": not submitted, so no testing to credit'


def timed_submit(part: int, minute: float, ms: int, language: str = "python"):
    return SubmissionFacts(
        part, "submit", False, "accepted", 3, 3, at(minute), language=language, max_time_ms=ms
    )


def test_performance_counts_time_limits():
    question = CodingQuestionFacts(
        "Q1", "A", PARTS, [submit(1, 3, 3, 3), submit(2, 5, 1, 2, verdict="time_limit")]
    )
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["performance"].level == 2  # 1 of 2 parts within the limit
    rules = [e["rule"] for e in signals["performance"].evidence]
    assert rules == ["coding.no-reference-time", "coding.time-limit"]


def test_performance_compares_the_slowest_test_with_the_reference():
    """The reference's run time (stored by its verification) is compared, in the
    candidate's language, part by part."""
    question = CodingQuestionFacts(
        "Q1",
        "A",
        PARTS,
        [timed_submit(1, 3, 140), timed_submit(2, 6, 900)],
        reference_time_ms={"python": {"1": 90, "2": 100}},
    )
    signals, _ = coding_signals([question], started_at=T0)
    texts = [e["text"] for e in signals["performance"].evidence]
    assert texts[0] == 'Q1 part 1 "Fixed": your slowest test 140 ms vs reference 90 ms: 1.6×'
    assert "900 ms vs reference 100 ms: 9.0× (over 3×: counted as slow)" in texts[1]
    assert signals["performance"].level == 2  # 1 of 2 parts fast enough


def test_performance_needs_the_reference_in_the_same_language():
    question = CodingQuestionFacts(
        "Q1",
        "A",
        PARTS[:1],
        [timed_submit(1, 3, 900, language="javascript")],
        reference_time_ms={"python": {"1": 10}},
    )
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["performance"].level == 4
    assert signals["performance"].evidence[0]["rule"] == "coding.no-reference-time"


def test_performance_ignores_small_differences_in_cpu_time():
    """4× of a few ms is noise, not slowness (`SLOW_MARGIN_MS`)."""
    question = CodingQuestionFacts(
        "Q1", "A", PARTS[:1], [timed_submit(1, 3, 40)], reference_time_ms={"python": {"1": 10}}
    )
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["performance"].level == 4
    assert signals["performance"].evidence[0]["rule"] == "coding.vs-reference"


def test_performance_counts_unsolved_and_unsubmitted_parts():
    """A challenge with one question solved out of four is not "1/1 = 100 % → level 4"."""
    four = [
        CodingQuestionFacts(f"Q{n}", "A", PARTS[:1], [submit(1, 3, 3, 3)] if n == 1 else [])
        for n in (1, 2, 3, 4)
    ]
    signals, _ = coding_signals(four, started_at=T0)
    performance = signals["performance"]
    assert performance.level == 1
    assert "1/4 = 25%" in performance.rule
    assert [e["rule"] for e in performance.evidence].count("coding.unsolved-part") == 3


def test_performance_counts_a_wrong_answer_part_as_not_fast():
    question = CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3), submit(2, 4, 0, 2)])
    signals, _ = coding_signals([question], started_at=T0)
    assert signals["performance"].level == 2
    assert "not accepted, so counted as not fast" in signals["performance"].evidence[1]["text"]


def test_performance_is_unmeasured_when_nothing_was_submitted():
    signals, _ = coding_signals([CodingQuestionFacts("Q1", "A", PARTS, [])], started_at=T0)
    assert signals["performance"].level is None


def test_rubric_dimensions_map_to_signals_by_name():
    signals, _ = coding_signals(
        [CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3)])], started_at=T0
    )
    pick = {
        name: getattr(dimension_signal(name, CODING_DIMENSIONS, signals), "name", None)
        for name in (
            "Triage and coverage",
            "Correctness and edge cases",
            "Edge cases",
            "Performance",
            "Communication",
        )
    }
    assert pick == {
        "Triage and coverage": "coverage",
        "Correctness and edge cases": "correctness",
        "Edge cases": "testing",
        "Performance": "performance",
        "Communication": None,
    }


def test_unmeasured_dimensions_are_left_out_of_the_overall():
    signals, _ = coding_signals(
        [CodingQuestionFacts("Q1", "A", PARTS, [submit(1, 3, 3, 3), submit(2, 4, 2, 2)])],
        started_at=T0,
    )
    dims = [
        m.Dimension(name="Correctness", weight=1, position=1),
        m.Dimension(name="Communication", weight=1, position=2),
    ]
    scores = scores_for(dims, lambda name: dimension_signal(name, CODING_DIMENSIONS, signals))
    card = auto_scorecard(stage_id=1, kind="coding", dimensions=dims, scores=scores, summary="")
    assert [s["level"] for s in card["scores"]] == [4, None]
    assert card["scores"][1]["comment"] == NOT_MEASURED
    assert card["score"]["overall"] == 1.0 and card["score"]["missing"] == ["Communication"]
    assert card["source"] == "auto"


# --- review --------------------------------------------------------------------------------

FLAWS = [
    FlawFacts(1, "spof", (3, 5), "high"),
    FlawFacts(2, "idempotency", (51, 53), "high"),
    FlawFacts(3, "observability", (80, 80), "low"),
]


def review_score_of(matches, hits, misses, recall, precision):
    return {
        "comment_matches": matches,
        "hits": hits,
        "misses": misses,
        "recall": recall,
        "precision": precision,
        "explanation": [f"precision = {precision}"],
    }


def test_review_explains_each_comment_and_counts_a_located_flaw_of_another_category():
    comments = [
        CommentFacts(10, (4, 4), "spof", "One router: add a standby."),
        CommentFacts(11, (51, 53), "timeouts", "Retries can double-charge."),
        CommentFacts(12, (90, 91), "security", "Tokens in logs."),
    ]
    matches = [
        {"comment": 10, "flaw": 1, "status": "hit", "source": "auto"},
        {"comment": 11, "flaw": None, "status": "miss", "source": "auto"},
        {"comment": 12, "flaw": None, "status": "miss", "source": "auto"},
    ]
    signals = review_signals(
        flaws=FLAWS, comments=comments, score=review_score_of(matches, 1, 2, 0.33, 0.33)
    )
    texts = [e["text"] for e in signals["finds"].evidence]
    assert "your comment on 4 matched spof (same category, lines overlap); counted" in texts
    assert (
        "your comment on 51–53 pointed at idempotency (lines 51–53); category differed "
        "(timeouts), counted as found" in texts
    )
    assert "your comment on 90–91 (security) matched no planted flaw" in texts
    assert "missed: observability on lines 80 (low)" in texts
    assert signals["finds"].level == 3  # 2 of 3 located
    assert signals["severity"].level == 4  # both high-severity flaws located
    assert signals["precision"].level == 2  # today's precision 0.33
    assert signals["fixes"].level == 2  # 1 of 2 comments on a flaw proposes a change


def test_review_without_comments_measures_nothing_but_finds():
    signals = review_signals(flaws=FLAWS, comments=[], score=review_score_of([], 0, 0, 0, 0))
    assert signals["finds"].level == 1
    assert (signals["precision"].level, signals["fixes"].level) == (None, None)


def test_review_dimensions_map_by_name():
    signals = review_signals(flaws=FLAWS, comments=[], score=review_score_of([], 0, 0, 0, 0))
    names = ["Finds the defects", "Judges severity", "Proposes fixes", "Systemic view"]
    assert [
        getattr(dimension_signal(n, REVIEW_DIMENSIONS, signals), "name", None) for n in names
    ] == ["finds", "severity", "fixes", None]


# --- deep dive -----------------------------------------------------------------------------


def test_deep_dive_dimensions_level_by_checklist_rules_fired():
    text = (
        "## Metrics\nWe measured p99 latency from 120 ms to 45 ms.\n"
        "## ROI\nIt cost $1M and saved $3M per year.\n"
    )
    feedback = {"answers": [answer_feedback(text)]}
    metrics = deep_dive_signal("Metrics and ROI", feedback)
    assert metrics is not None and metrics.level == 4
    assert "roi.checked" in [e["rule"] for e in metrics.evidence]
    ownership = deep_dive_signal("Ownership", feedback)
    assert ownership is not None and ownership.level == 1
    assert ownership.evidence[0]["rule"] == "ownership.missing"
    assert deep_dive_signal("Humility", feedback) is None


# --- key points ----------------------------------------------------------------------------

from interviews.feedback.auto_scorecard import (  # noqa: E402
    KeyPointFacts,
    key_point_coverage,
    key_point_signals,
    sentences,
)

PREFILL = KeyPointFacts(
    "Prefill is compute-bound",
    {"en": [r"prefill\b.*compute[- ]bound"], "zh": ["预填充.*计算"]},
    "First-principles reasoning",
    "Q1",
)
KV = KeyPointFacts(
    "KV bytes per token", {"en": [r"kv.*per token"]}, "Quantitative estimation", "Q1 follow-up 2"
)


def test_sentences_split_on_english_and_chinese_marks():
    assert sentences("One. Two!\n三。四？") == ["One.", "Two!", "三。", "四？"]
    assert sentences("It is about 0.33 MB per token. Next.") == [
        "It is about 0.33 MB per token.",
        "Next.",
    ]


def test_a_key_point_is_covered_by_the_sentence_its_pattern_matches():
    text = "Decode reads the weights. Prefill is compute-bound because it batches the prompt."
    (item,) = key_point_coverage([PREFILL], text)
    assert item["covered"] and item["sentence"].startswith("Prefill is compute-bound")
    (item,) = key_point_coverage([PREFILL], "Decode is memory-bound.")
    assert not item["covered"] and item["sentence"] == ""


def test_chinese_patterns_match_chinese_answers():
    (item,) = key_point_coverage([PREFILL], "预填充阶段是计算密集的。")
    assert item["covered"] and item["pattern"] == "预填充.*计算"


def test_key_point_signals_level_each_dimension_by_its_share_covered():
    coverage = key_point_coverage([PREFILL, KV], "Prefill is compute bound.")
    signals = key_point_signals(coverage)
    assert signals["First-principles reasoning"].level == 4
    assert signals["Quantitative estimation"].level == 1
    (line,) = signals["Quantitative estimation"].evidence
    assert line["text"] == "not covered (Q1 follow-up 2): KV bytes per token"
