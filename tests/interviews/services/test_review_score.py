"""Review scoring: a comment matches a planted flaw when the category is the same and the
line ranges overlap; recall over flaws, precision over comments."""

import pytest

from interviews import models as m
from interviews.services.errors import InvalidInput, StateConflict
from interviews.services.reviews import review_comment_create, review_score


@pytest.fixture
def live_review(world):
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    m.Stage.objects.filter(pk=world.review.pk).update(status="live")
    world.review.refresh_from_db()
    return world


def comment(world, first, last, category="spof"):
    return review_comment_create(
        stage=world.review,
        author=world.owner,
        line_start=first,
        line_end=last,
        category=category,
        text="here",
    )


def test_no_comments_scores_zero(live_review):
    score = review_score(stage=live_review.review)
    assert (score["recall"], score["precision"], score["comments"]) == (0.0, 0.0, 0)
    assert [f["category"] for f in score["missed"]] == ["spof", "timeouts"]
    assert score["matched"] == []


def test_matching_rules(live_review):
    w = live_review  # flaws: spof 3-5, timeouts 10-12
    hit = comment(w, 5, 7)  # overlaps 3-5 at line 5
    comment(w, 6, 9)  # right category, no overlap
    comment(w, 10, 10, category="spof")  # overlap, wrong category
    also_hit = comment(w, 1, 3)  # overlaps at line 3
    score = review_score(stage=w.review)
    assert score["recall"] == 0.5
    assert score["precision"] == 0.5
    assert score["comments"] == 4
    (matched,) = score["matched"]
    assert matched["category"] == "spof" and matched["lines"] == [3, 5]
    assert sorted(matched["comments"]) == sorted([hit.pk, also_hit.pk])
    assert [f["category"] for f in score["missed"]] == ["timeouts"]


def test_perfect_review(live_review):
    comment(live_review, 4, 4)
    comment(live_review, 12, 20, category="timeouts")
    score = review_score(stage=live_review.review)
    assert (score["recall"], score["precision"], score["missed"]) == (1.0, 1.0, [])


def test_comment_validation(live_review):
    w = live_review
    for first, last in [(0, 1), (5, 4), (30, 31)]:
        with pytest.raises(InvalidInput):
            comment(w, first, last)
    with pytest.raises(InvalidInput):
        comment(w, 1, 1, category="vibes")
    assert comment(w, 30, 30).line_end == 30  # the last line of the 30-line doc
    with pytest.raises(InvalidInput):
        review_comment_create(
            stage=w.review,
            author=w.owner,
            question=w.coding_q,
            line_start=1,
            line_end=1,
            category="spof",
            text="x",
        )


def test_comments_only_while_live(world):
    with pytest.raises(StateConflict):
        comment(world, 3, 4)
