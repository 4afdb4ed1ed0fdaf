"""Planted flaws re-anchor through a review document edit: each flaw stores the text it
anchors to; an edit above or below a range moves it silently, an edit inside it (or one
that deletes it) is proposed, and the editor confirms."""

import copy

import pytest

from interviews import models as m
from interviews.bankfile.anchors import reanchor
from interviews.selectors.bank import question_prefetch, question_to_dict
from interviews.services.bank_import import bank_import
from interviews.services.questions import FlawsNeedReanchoring, question_update
from tests.interviews import bank_data as data

DOC = "\n".join(f"line {n}" for n in range(1, 11)) + "\n"
LINES = DOC.splitlines()


def _doc(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("new_lines", "moved", "changed"),
    [
        (["top"] + LINES, (4, 5), False),  # insert above
        (LINES[1:], (2, 3), False),  # delete above
        (LINES[:2] + ["L3 edited"] + LINES[3:], (3, 4), True),  # edit inside
        (LINES[:3] + ["inserted"] + LINES[3:], (3, 5), True),  # insert inside
        (LINES[:3] + LINES[4:], (3, 3), True),  # delete inside
        (LINES[:5] + ["below"] + LINES[5:], (3, 4), False),  # insert below
        (LINES[:4] + LINES[6:], (3, 4), False),  # delete below
        (LINES[:2] + ["x", "y"] + LINES[4:], (3, 4), True),  # replaced whole
    ],
)
def test_ranges_move_through_inserts_deletes_and_edits(new_lines, moved, changed):
    result = reanchor(DOC, _doc(new_lines), (3, 4))
    assert result.lines_after == moved
    assert result.text_changed is changed
    assert result.text_before == "line 3\nline 4"


def test_a_deleted_range_is_flagged_with_the_nearest_line():
    result = reanchor(DOC, _doc(LINES[:2] + LINES[4:]), (3, 4))
    assert result.deleted and result.text_changed
    assert result.lines_after == (3, 3)


def test_a_range_that_had_drifted_from_its_anchor_is_flagged():
    result = reanchor(DOC, _doc(["top"] + LINES), (3, 4), anchor_text="what it was planted on")
    assert result.lines_after == (4, 5) and result.text_changed


# --- through the editor's service ------------------------------------------------------


@pytest.fixture
def review(db) -> m.Question:
    question = data.review_question("reanchor-doc")
    question["review"]["flaws"].append(
        {"category": "timeouts", "lines": [10, 12], "severity": "low", "explanation": "No timeout."}
    )
    bank_import({"questions": [question]}, verify=False)
    return m.Question.objects.get(slug="reanchor-doc")


def _current(question: m.Question) -> dict:
    return question_to_dict(question_prefetch(m.Question.objects.filter(pk=question.pk)).get())


def _edited(question: m.Question, edit) -> dict:
    body = copy.deepcopy(_current(question))
    lines = body["review"]["document"].splitlines()
    body["review"]["document"] = _doc(edit(lines))
    return body


def test_each_flaw_stores_the_text_it_anchors_to(review):
    flaws = list(review.flaws.order_by("position"))
    assert (
        flaws[0].anchor_text == "line 3 of the design\nline 4 of the design\nline 5 of the design"
    )
    assert flaws[1].anchor_text.splitlines()[0] == "line 10 of the design"


def test_a_line_inserted_at_the_top_moves_every_flaw_silently(review):
    body = _edited(review, lambda lines: ["# A new title", *lines])
    saved, _ = question_update(question=review, data=body)
    flaws = list(saved.flaws.order_by("position"))
    assert [(f.line_start, f.line_end) for f in flaws] == [(4, 6), (11, 13)]
    document = saved.document.splitlines()
    for flaw in flaws:
        assert "\n".join(document[flaw.line_start - 1 : flaw.line_end]) == flaw.anchor_text


def test_an_edit_inside_a_range_asks_and_a_confirmation_moves_it(review):
    def edit(lines):
        lines[3] = "line 4, rewritten"
        return ["# A new title", *lines]

    body = _edited(review, edit)
    with pytest.raises(FlawsNeedReanchoring) as refused:
        question_update(question=review, data=body)
    assert refused.value.code == "flaw_reanchor_needed"
    (proposal,) = refused.value.extra["flaws"]
    assert proposal["index"] == 0
    assert proposal["lines_before"] == [3, 5] and proposal["lines_after"] == [4, 6]
    assert "line 4, rewritten" in proposal["text_after"]
    assert "review.flaws[0].lines" in refused.value.errors
    assert _current(review)["review"]["document"] == data.DOCUMENT  # nothing saved

    saved, _ = question_update(question=review, data={**body, "confirm_reanchor": True})
    flaws = list(saved.flaws.order_by("position"))
    assert [(f.line_start, f.line_end) for f in flaws] == [(4, 6), (11, 13)]
    assert "line 4, rewritten" in flaws[0].anchor_text


def test_a_shortened_document_moves_flaws_before_validating_their_lines(review):
    body = _edited(review, lambda lines: lines[5:])  # lines 1-5 gone: flaw 1 deleted
    with pytest.raises(FlawsNeedReanchoring) as refused:
        question_update(question=review, data=body)
    (proposal,) = refused.value.extra["flaws"]
    assert proposal["deleted"] and proposal["index"] == 0
    saved, _ = question_update(question=review, data={**body, "confirm_reanchor": True})
    assert [(f.line_start, f.line_end) for f in saved.flaws.order_by("position")] == [
        (1, 1),
        (5, 7),
    ]


def test_a_flaw_the_editor_moved_itself_is_taken_as_given(review):
    body = _edited(review, lambda lines: ["# A new title", *lines])
    body["review"]["flaws"][0]["lines"] = [1, 1]
    saved, _ = question_update(question=review, data=body)
    assert [(f.line_start, f.line_end) for f in saved.flaws.order_by("position")] == [
        (1, 1),
        (11, 13),
    ]


def test_the_api_returns_the_flaws_needing_confirmation_with_a_code(review, world, as_user):
    body = _edited(review, lambda lines: lines[:3] + ["inserted"] + lines[3:])
    response = as_user(world.admin).put(f"/api/v1/questions/{review.pk}/", body, format="json")
    assert response.status_code == 409
    payload = response.json()
    assert payload["code"] == "flaw_reanchor_needed"
    assert [f["index"] for f in payload["flaws"]] == [0]
    again = as_user(world.admin).put(
        f"/api/v1/questions/{review.pk}/", {**body, "confirm_reanchor": True}, format="json"
    )
    assert again.status_code == 200, again.content
    assert again.json()["review"]["flaws"][0]["lines"] == [3, 6]
