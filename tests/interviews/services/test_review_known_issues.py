"""Review scoring that does not punish strong reviewers: a comment on one of the doc's
known valid issues (not a planted flaw) is neutral, as is one the coach accepts as valid;
a comment under a neighbouring category still finds its flaw, with a note. Known issues
are part of the bank format (validation, export round-trip)."""

import copy

import pytest
import yaml

from interviews import models as m
from interviews.bankfile.format import BankValidationError
from interviews.bankfile.validation import bank_load, question_validate
from interviews.selectors.bank import question_prefetch, question_to_dict
from interviews.services.bank_import import bank_import
from interviews.services.reviews import (
    review_comment_create,
    review_match_override_set,
    review_score,
)
from tests.interviews import bank_data as data
from tests.paths import SHIPPED_BANK_DIR

API = "/api/v1"
KNOWN = {"category": "other", "lines": [14, 15], "explanation": "A real problem, not planted."}


@pytest.fixture
def live_review(world):
    """The world's review doc (flaws: spof 3-5, timeouts 10-12) with one known issue."""
    m.Question.objects.filter(pk=world.review_q.pk).update(known_issues=[KNOWN])
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


def test_a_comment_on_a_known_issue_is_neutral_not_a_false_alarm(live_review):
    comment(live_review, 4, 4)  # the spof flaw: a hit
    known = comment(live_review, 15, 15, category="other")
    comment(live_review, 20, 20, category="security")  # nothing there: a miss
    score = review_score(stage=live_review.review)
    assert (score["hits"], score["misses"], score["valid"]) == (1, 1, 1)
    assert score["precision"] == 0.5  # 1 / (1 + 1): the valid finding is left out
    match = next(m for m in score["comment_matches"] if m["comment"] == known.pk)
    assert match["status"] == "valid" and "known issue" in match["note"]


def test_the_coach_accepts_a_comment_as_valid(live_review, as_user):
    comment(live_review, 4, 4)
    odd = comment(live_review, 20, 20, category="security")
    assert review_score(stage=live_review.review)["precision"] == 0.5
    response = as_user(live_review.assigned).put(
        f"{API}/stages/{live_review.review.pk}/review-matches/",
        {"comment": odd.pk, "flaw": None, "valid": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["precision"], body["valid"], body["misses"]) == (1.0, 1, 0)
    match = next(m for m in body["comment_matches"] if m["comment"] == odd.pk)
    assert (match["status"], match["source"]) == ("valid", "coach")


def test_valid_with_a_flaw_is_refused(live_review):
    odd = comment(live_review, 20, 20, category="security")
    flaw = live_review.review_q.flaws.first()
    with pytest.raises(Exception, match="not valid|Invalid|hit already"):
        review_match_override_set(
            stage=live_review.review,
            coach=live_review.assigned,
            comment_id=odd.pk,
            flaw_id=flaw.pk,
            valid=True,
        )


def test_a_neighbouring_category_finds_the_flaw_with_a_note(live_review):
    m.PlantedFlaw.objects.filter(question=live_review.review_q, category="timeouts").update(
        category="concurrency"
    )
    near = comment(live_review, 11, 11, category="consistency")
    score = review_score(stage=live_review.review)
    match = next(m for m in score["comment_matches"] if m["comment"] == near.pk)
    assert match["status"] == "hit"
    assert "neighbour" in match["note"]
    assert score["recall"] == 0.5


# --- the bank format -------------------------------------------------------------------


def test_known_issues_validate_and_round_trip(db):
    question = copy.deepcopy(data.review_question("known-doc"))
    question["review"]["known_issues"] = [dict(KNOWN)]
    bank_import({"questions": [question]}, verify=False)
    stored = question_prefetch(m.Question.objects.filter(slug="known-doc")).get()
    assert stored.known_issues == [KNOWN]
    assert question_to_dict(stored)["review"]["known_issues"] == [KNOWN]
    again = bank_import({"questions": [question]}, verify=False)
    assert again.created == []  # unchanged

    broken = copy.deepcopy(question)
    broken["review"]["known_issues"] = [{"category": "vibes", "lines": [99, 100]}]
    with pytest.raises(BankValidationError) as problems:
        question_validate(broken)
    paths = set(problems.value.errors)
    assert {
        "review.known_issues[0].category",
        "review.known_issues[0].lines",
        "review.known_issues[0].explanation",
    } <= paths


def test_the_shipped_serving_doc_lists_its_eight_known_issues(db):
    bank = bank_load(SHIPPED_BANK_DIR)
    (doc,) = [e.spec for e in bank.questions if e.spec["slug"] == "serving-doc-review"]
    issues = doc["review"]["known_issues"]
    assert len(issues) == 8
    text = yaml.safe_dump(issues)
    for words in (
        "P99",
        "fairness",
        "idempotent",
        "output",
        "duplicate tokens",
        "billed",
        "rollback",
        "sharded",
    ):
        assert words in text
