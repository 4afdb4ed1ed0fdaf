"""Arithmetic of scorecards: a stage's weighted overall, a loop's overall and its
recommendation. Pure functions of their inputs, so reports, progress and calibration all
count the same way.

- A level (1–4) is normalised to 0–1: (level − 1) / 3, so 1 → 0.0, 4 → 1.0.
- A stage's overall is the weighted mean of its scored dimensions' normalised levels,
  with the weights of the stage's rubric. A rubric dimension left unscored is *missing*:
  reported, and left out of the mean (it is not a zero). A scored dimension that is not in
  the rubric (the rubric was edited since, or the stage has none) weighs 1. Dimensions of
  weight 0 are shown but do not count; with no positive weight there is no overall.
- A loop's overall is the plain mean of the overalls of its scored stages: every round
  counts the same, as every interviewer's vote does in a real loop. Stages without a
  scorecard are listed, not counted.
- The loop's recommendation: the mean of the stages' recommendations on the scale
  strong_no 1, no 2, yes 3, strong_yes 4, rounded to the nearest (halves up); then any
  strong_no caps it at "no" — one interviewer's strong concern is not averaged away.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from interviews.models import Dimension

LEVEL_MIN = 1
LEVEL_MAX = 4
RECOMMENDATIONS = ["strong_no", "no", "yes", "strong_yes"]
RECOMMENDATION_VALUE = {name: index + 1 for index, name in enumerate(RECOMMENDATIONS)}


def level_normalised(level: int) -> float:
    return (level - LEVEL_MIN) / (LEVEL_MAX - LEVEL_MIN)


def level_of(normalised: float) -> float:
    """Back from 0–1 to the 1–4 scale (for "3.2 / 4" displays)."""
    return round(LEVEL_MIN + normalised * (LEVEL_MAX - LEVEL_MIN), 2)


class DimensionScore(TypedDict):
    dimension: str
    #: The dimension's name to show: the rubric's translation where it has one.
    label: str
    weight: float
    in_rubric: bool
    level: int | None
    normalised: float | None
    comment: str


class StageScore(TypedDict):
    dimensions: list[DimensionScore]
    missing: list[str]
    complete: bool
    overall: float | None
    percent: float | None
    level: float | None
    explanation: str


def stage_score(
    *, scores: Iterable[dict[str, Any]], dimensions: Sequence[Dimension] | None
) -> StageScore:
    """A scorecard's `scores` ([{dimension, level, comment}]) against its rubric's
    dimensions (None: the stage has no rubric)."""
    by_name = {score["dimension"]: score for score in scores}
    rows: list[DimensionScore] = []
    for dimension in dimensions or []:
        score = by_name.pop(dimension.name, None)
        level = score["level"] if score else None
        rows.append(
            {
                "dimension": dimension.name,
                "label": getattr(dimension, "label", "") or dimension.name,
                "weight": float(dimension.weight),
                "in_rubric": True,
                "level": level,
                "normalised": round(level_normalised(level), 4) if level else None,
                "comment": score.get("comment", "") if score else "",
            }
        )
    for name, score in by_name.items():
        rows.append(
            {
                "dimension": name,
                "label": name,
                "weight": 1.0,
                "in_rubric": False,
                "level": score["level"],
                "normalised": round(level_normalised(score["level"]), 4),
                "comment": score.get("comment", ""),
            }
        )
    missing = [row["dimension"] for row in rows if row["level"] is None]
    counted = [row for row in rows if row["level"] is not None and row["weight"] > 0]
    total_weight = sum(row["weight"] for row in counted)
    if not counted or total_weight <= 0:
        overall = None
        explanation = "No scored dimension with a positive weight."
    else:
        weighted = sum(row["weight"] * level_normalised(row["level"]) for row in counted)
        overall = round(weighted / total_weight, 4)
        terms = " + ".join(
            f"{row['weight']:g}×{level_normalised(row['level']):.2f}" for row in counted
        )
        explanation = f"({terms}) / {total_weight:g} = {overall:.2f}"
        if missing:
            explanation += f"; not scored, left out: {', '.join(missing)}"
    return {
        "dimensions": rows,
        "missing": missing,
        "complete": not missing,
        "overall": overall,
        "percent": round(overall * 100, 1) if overall is not None else None,
        "level": level_of(overall) if overall is not None else None,
        "explanation": explanation,
    }


class LoopOverall(TypedDict):
    overall: float | None
    percent: float | None
    level: float | None
    stages_scored: int
    stages_unscored: int
    explanation: str


def loop_overall(stage_overalls: Sequence[float | None]) -> LoopOverall:
    scored = [value for value in stage_overalls if value is not None]
    if not scored:
        return {
            "overall": None,
            "percent": None,
            "level": None,
            "stages_scored": 0,
            "stages_unscored": len(stage_overalls),
            "explanation": "No stage has been scored yet.",
        }
    overall = round(sum(scored) / len(scored), 4)
    terms = " + ".join(f"{value:.2f}" for value in scored)
    return {
        "overall": overall,
        "percent": round(overall * 100, 1),
        "level": level_of(overall),
        "stages_scored": len(scored),
        "stages_unscored": len(stage_overalls) - len(scored),
        "explanation": f"({terms}) / {len(scored)} = {overall:.2f}",
    }


class LoopRecommendation(TypedDict):
    recommendation: str | None
    explanation: str


def loop_recommendation(recommendations: Sequence[str]) -> LoopRecommendation:
    values = [RECOMMENDATION_VALUE[r] for r in recommendations if r in RECOMMENDATION_VALUE]
    if not values:
        return {"recommendation": None, "explanation": "No stage has a recommendation yet."}
    mean = sum(values) / len(values)
    index = min(len(RECOMMENDATIONS), max(1, math.floor(mean + 0.5)))
    result = RECOMMENDATIONS[index - 1]
    explanation = f"mean of {len(values)} on strong_no=1 … strong_yes=4: {mean:.2f} → {result}"
    if "strong_no" in recommendations and RECOMMENDATION_VALUE[result] > RECOMMENDATION_VALUE["no"]:
        result = "no"
        explanation += "; capped at no: a stage says strong_no"
    return {"recommendation": result, "explanation": explanation}
