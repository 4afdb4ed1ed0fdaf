"""Scorecard arithmetic: levels normalised, rubric weights, unscored dimensions left out,
the loop's overall as the mean of scored stages, and the loop recommendation with its
strong-no cap."""

import pytest

from interviews import models as m
from interviews.feedback.scoring import (
    level_normalised,
    loop_overall,
    loop_recommendation,
    stage_score,
)


def dims(*pairs) -> list[m.Dimension]:
    return [
        m.Dimension(name=name, weight=weight, position=i) for i, (name, weight) in enumerate(pairs)
    ]


def test_levels_normalise_to_zero_one():
    assert [level_normalised(level) for level in (1, 2, 3, 4)] == [0.0, 1 / 3, 2 / 3, 1.0]


def test_weighted_overall_uses_the_rubric_weights():
    score = stage_score(
        scores=[
            {"dimension": "Design", "level": 4, "comment": "clean"},
            {"dimension": "Testing", "level": 1, "comment": ""},
        ],
        dimensions=dims(("Design", 3), ("Testing", 1)),
    )
    assert score["overall"] == 0.75  # (3×1 + 1×0) / 4
    assert (score["percent"], score["level"], score["complete"]) == (75.0, 3.25, True)
    assert score["explanation"] == "(3×1.00 + 1×0.00) / 4 = 0.75"
    assert [row["comment"] for row in score["dimensions"]] == ["clean", ""]


def test_unscored_dimensions_are_missing_not_zero():
    score = stage_score(
        scores=[{"dimension": "Design", "level": 3}],
        dimensions=dims(("Design", 1), ("Testing", 2)),
    )
    assert score["missing"] == ["Testing"] and not score["complete"]
    assert score["overall"] == round(2 / 3, 4)
    assert "not scored, left out: Testing" in score["explanation"]
    assert score["dimensions"][1] == {
        "dimension": "Testing",
        "label": "Testing",
        "weight": 2.0,
        "in_rubric": True,
        "level": None,
        "normalised": None,
        "comment": "",
    }


def test_dimensions_outside_the_rubric_weigh_one():
    score = stage_score(
        scores=[{"dimension": "Design", "level": 4}, {"dimension": "Old name", "level": 1}],
        dimensions=dims(("Design", 3)),
    )
    assert score["dimensions"][1]["in_rubric"] is False
    assert score["dimensions"][1]["weight"] == 1.0
    assert score["overall"] == 0.75


def test_without_a_rubric_every_dimension_weighs_one():
    score = stage_score(
        scores=[{"dimension": "Humility", "level": 4}, {"dimension": "Risk", "level": 2}],
        dimensions=None,
    )
    assert score["overall"] == round((1 + 1 / 3) / 2, 4)
    assert score["complete"]


@pytest.mark.parametrize(
    ("scores", "dimensions"),
    [
        ([], dims(("Design", 1))),
        ([{"dimension": "Design", "level": 4}], dims(("Design", 0))),
    ],
)
def test_no_overall_without_a_positive_weight_scored(scores, dimensions):
    score = stage_score(scores=scores, dimensions=dimensions)
    assert (score["overall"], score["percent"], score["level"]) == (None, None, None)


def test_loop_overall_is_the_mean_of_scored_stages():
    overall = loop_overall([0.5, None, 1.0])
    assert (overall["overall"], overall["stages_scored"], overall["stages_unscored"]) == (
        0.75,
        2,
        1,
    )
    assert overall["explanation"] == "(0.50 + 1.00) / 2 = 0.75"
    assert loop_overall([None, None])["overall"] is None
    assert loop_overall([])["stages_scored"] == 0


@pytest.mark.parametrize(
    ("recommendations", "expected"),
    [
        ([], None),
        (["yes"], "yes"),
        (["yes", "strong_yes"], "strong_yes"),  # 3.5 rounds half up
        (["yes", "no"], "yes"),  # 2.5
        (["no", "no", "yes"], "no"),  # 2.33
        (["strong_no", "strong_no"], "strong_no"),
        (["strong_yes", "strong_yes", "strong_no"], "no"),  # 3.0 → yes, capped at no
    ],
)
def test_loop_recommendation(recommendations, expected):
    result = loop_recommendation(recommendations)
    assert result["recommendation"] == expected
    if "strong_no" in recommendations and expected == "no":
        assert "capped" in result["explanation"]
