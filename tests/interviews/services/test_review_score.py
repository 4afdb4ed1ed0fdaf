"""Review scoring: a comment matches a planted flaw when the category is the same and the
line ranges overlap (one flaw per comment, the best overlap); recall over flaws, precision
over hits and misses with duplicates left out; the coach's overrides win."""

import pytest

from interviews import models as m
from interviews.services.errors import InvalidInput, NotAllowed, NotFound, StateConflict
from interviews.services.reviews import (
    review_comment_create,
    review_match_override_clear,
    review_match_override_set,
    review_score,
    review_score_compute,
)
from tests import factories as f


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
    also_hit = comment(w, 1, 3)  # overlaps at line 3: a duplicate of `hit`
    score = review_score(stage=w.review)
    assert score["recall"] == 0.5
    # 1 hit, 2 misses; the duplicate counts on neither side.
    assert (score["hits"], score["misses"], score["duplicates"]) == (1, 2, 1)
    assert score["precision"] == 0.3333
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


def statuses(score) -> dict[int, tuple[str, int | None, str]]:
    return {m["comment"]: (m["status"], m["flaw"], m["source"]) for m in score["comment_matches"]}


def flaw_id(world, category, line_start=None):
    flaws = m.PlantedFlaw.objects.filter(question=world.review_q, category=category)
    return flaws.get(line_start=line_start or {"spof": 3, "timeouts": 10}[category]).pk


def test_exact_match(live_review):
    """A comment on exactly the flaw's lines, same category, finds it."""
    exact = comment(live_review, 10, 12, category="timeouts")
    score = review_score(stage=live_review.review)
    assert statuses(score) == {exact.pk: ("hit", flaw_id(live_review, "timeouts"), "auto")}
    assert score["comment_matches"][0]["overlap"] == 3
    assert (score["recall"], score["precision"]) == (0.5, 1.0)


def test_partial_overlap_is_enough(live_review):
    """One shared line is a match; the overlap is reported."""
    wide = comment(live_review, 1, 3)  # spof flaw is 3-5
    score = review_score(stage=live_review.review)
    assert statuses(score)[wide.pk] == ("hit", flaw_id(live_review, "spof"), "auto")
    assert score["comment_matches"][0]["overlap"] == 1


def test_wrong_category_does_not_match(live_review):
    wrong = comment(live_review, 3, 5, category="security")
    score = review_score(stage=live_review.review)
    assert statuses(score)[wrong.pk] == ("miss", None, "auto")
    assert (score["recall"], score["precision"], score["misses"]) == (0.0, 0.0, 1)
    assert len(score["missed"]) == 2


def test_duplicates_count_once_and_do_not_inflate_precision(live_review):
    """Three comments on one flaw: recall counts it once; the best overlap is the hit;
    the others are duplicates left out of precision (neither hits nor misses)."""
    w = live_review
    small = comment(w, 5, 5)
    best = comment(w, 3, 5)
    later = comment(w, 4, 9)
    miss = comment(w, 20, 22)
    score = review_score(stage=w.review)
    spof = flaw_id(w, "spof")
    assert statuses(score) == {
        small.pk: ("duplicate", spof, "auto"),
        best.pk: ("hit", spof, "auto"),
        later.pk: ("duplicate", spof, "auto"),
        miss.pk: ("miss", None, "auto"),
    }
    assert score["recall"] == 0.5
    assert score["precision"] == 0.5  # 1 hit / (1 hit + 1 miss)
    # The flaw lists its comments hit first, then by overlap.
    assert score["matched"][0]["comments"] == [best.pk, later.pk, small.pk]
    assert any("duplicate" in line or "already found" in line for line in score["explanation"])
    # Without the duplicates the numbers are the same.
    m.ReviewComment.objects.filter(pk__in=[small.pk, later.pk]).delete()
    again = review_score(stage=w.review)
    assert (again["recall"], again["precision"]) == (0.5, 0.5)


def test_a_comment_matches_only_its_best_flaw(live_review):
    """A comment spanning two same-category flaws matches the one it shares most lines
    with; ties go to the tighter fit, then to the lower flaw position."""
    w = live_review
    near = f.PlantedFlawFactory(
        question=w.review_q, position=3, category="spof", line_start=7, line_end=9
    )
    spanning = comment(w, 5, 8)  # 1 line of 3-5, 2 lines of 7-9
    score = review_score(stage=w.review)
    assert statuses(score)[spanning.pk] == ("hit", near.pk, "auto")
    assert score["recall"] == round(1 / 3, 4)
    tie = comment(w, 5, 7)  # 1 line each, same union: the lower position (spof 3-5) wins
    score = review_score(stage=w.review)
    assert statuses(score)[tie.pk] == ("hit", flaw_id(w, "spof"), "auto")
    assert score["recall"] == round(2 / 3, 4)


def test_coach_override_feeds_the_score(live_review):
    w = live_review
    off_category = comment(w, 10, 11, category="concurrency")  # really the timeout flaw
    false_hit = comment(w, 3, 3)  # matches spof by the rules; the coach disagrees
    timeouts, spof = flaw_id(w, "timeouts"), flaw_id(w, "spof")
    before = review_score(stage=w.review)
    assert statuses(before)[off_category.pk] == ("miss", None, "auto")
    assert statuses(before)[false_hit.pk] == ("hit", spof, "auto")

    review_match_override_set(
        stage=w.review, coach=w.assigned, comment_id=off_category.pk, flaw_id=timeouts
    )
    review_match_override_set(stage=w.review, coach=w.admin, comment_id=false_hit.pk, flaw_id=None)
    after = review_score(stage=w.review)
    assert statuses(after) == {
        off_category.pk: ("hit", timeouts, "coach"),
        false_hit.pk: ("miss", None, "coach"),
    }
    assert (after["recall"], after["precision"]) == (0.5, 0.5)
    assert [f["category"] for f in after["missed"]] == ["spof"]

    # A new ruling replaces the old one; clearing it restores the automatic match.
    review_match_override_set(
        stage=w.review, coach=w.assigned, comment_id=false_hit.pk, flaw_id=spof
    )
    assert m.ReviewMatchOverride.objects.count() == 2
    review_match_override_clear(stage=w.review, coach=w.assigned, comment_id=off_category.pk)
    cleared = review_score(stage=w.review)
    assert statuses(cleared)[off_category.pk] == ("miss", None, "auto")
    assert statuses(cleared)[false_hit.pk] == ("hit", spof, "coach")


def test_override_validation(live_review):
    w = live_review
    mine = comment(w, 3, 4)
    other_doc_flaw = f.PlantedFlawFactory(category="spof")
    with pytest.raises(InvalidInput) as error:
        review_match_override_set(
            stage=w.review, coach=w.assigned, comment_id=mine.pk, flaw_id=other_doc_flaw.pk
        )
    assert "flaw" in error.value.errors
    with pytest.raises(InvalidInput) as error:
        review_match_override_set(stage=w.coding, coach=w.admin, comment_id=mine.pk, flaw_id=None)
    assert "comment" in error.value.errors
    with pytest.raises(NotAllowed):
        review_match_override_set(stage=w.review, coach=w.coach, comment_id=mine.pk, flaw_id=None)
    with pytest.raises(NotAllowed):
        review_match_override_set(stage=w.review, coach=w.owner, comment_id=mine.pk, flaw_id=None)
    with pytest.raises(NotFound):
        review_match_override_clear(stage=w.review, coach=w.assigned, comment_id=mine.pk + 999)


def test_overrides_are_private_events(live_review):
    w = live_review
    mine = comment(w, 3, 4)
    review_match_override_set(stage=w.review, coach=w.assigned, comment_id=mine.pk, flaw_id=None)
    review_match_override_clear(stage=w.review, coach=w.assigned, comment_id=mine.pk)
    events = list(m.StageEvent.objects.filter(stage=w.review).order_by("seq"))
    assert [(e.type, e.private) for e in events[-2:]] == [
        ("review_match.set", True),
        ("review_match.cleared", True),
    ]


def test_compute_is_pure_and_handles_empty_inputs():
    assert review_score_compute(flaws=[], comments=[])["recall"] == 0.0
    flaw = m.PlantedFlaw(pk=1, question_id=1, position=1, category="spof", line_start=3, line_end=5)
    flaw.severity, flaw.explanation = "high", "x"
    remark = m.ReviewComment(pk=7, question_id=1, line_start=4, line_end=4, category="spof")
    score = review_score_compute(flaws=[flaw], comments=[remark])
    assert (score["recall"], score["precision"], score["hits"]) == (1.0, 1.0, 1)
    # An override naming a flaw that is not there counts as no match.
    score = review_score_compute(flaws=[flaw], comments=[remark], overrides={7: 99})
    assert statuses(score)[7] == ("miss", None, "coach")


API = "/api/v1"


def test_review_matches_endpoint(live_review, as_user):
    w = live_review
    off = comment(w, 10, 10, category="other")
    url = f"{API}/stages/{w.review.pk}/review-matches/"
    body = {"comment": off.pk, "flaw": flaw_id(w, "timeouts")}
    assert as_user(w.owner).put(url, body, format="json").status_code == 403
    assert as_user(w.coach).put(url, body, format="json").status_code == 404
    response = as_user(w.assigned).put(url, body, format="json")
    assert response.status_code == 200
    assert response.json()["recall"] == 0.5
    assert response.json()["comment_matches"][0]["source"] == "coach"
    # Bad input is a 400 with field errors, never a 500.
    for bad in (
        {"comment": off.pk},
        {"comment": "x", "flaw": None},
        {"comment": off.pk, "flaw": 10**9},
        {"comment": 10**9, "flaw": None},
        {"comment": off.pk, "flaw": None, "extra": 1},
    ):
        response = as_user(w.assigned).put(url, bad, format="json")
        assert response.status_code == 400, bad
        assert response.json()["errors"]
    unparseable = as_user(w.assigned).put(url, data="{", content_type="application/json")
    assert unparseable.status_code == 400
    assert as_user(w.assigned).put(url, [1], format="json").status_code == 400
    delete = as_user(w.assigned).delete(f"{url}{off.pk}/")
    assert delete.status_code == 204
    assert as_user(w.assigned).delete(f"{url}{10**9}/").status_code == 404
    assert review_score(stage=w.review)["comment_matches"][0]["source"] == "auto"


def test_flaw_explanations_come_in_the_language_bank_text_is_served_in(live_review):
    from interviews.i18n import content_language_override

    review_q = live_review.review_q
    review_q.i18n = {"zh-Hans": {"flaws": {"1": {"explanation": "路由器是单点故障。"}}}}
    review_q.save(update_fields=["i18n"])
    comment(live_review, 3, 5)  # finds flaw 1; flaw 2 stays missed
    with content_language_override("zh-Hans"):
        score = review_score(stage=live_review.review)
    assert [f["explanation"] for f in score["matched"]] == ["路由器是单点故障。"]
    # Not translated: the English stands in.
    assert "synchronous call without timeout" in score["missed"][0]["explanation"]
    english = review_score(stage=live_review.review)
    assert "single point of failure" in english["matched"][0]["explanation"]
