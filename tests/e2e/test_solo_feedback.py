"""Solo practice gives feedback: a candidate without a coach finishes a stage of every
kind by clicking Finish in its room and, in the browser, reads a non-empty automatic
scorecard with the evidence of each kind (hidden tests, comment matches, key points
with the sentence that covered them, the deep-dive checklist), the model answers after
the stage (not before), a self-assessment form, and a loop report with an overall
score. The design prompt's diagram renders with readable labels."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from interviews.models import LoopTemplate, PlantedFlaw, Stage, Submission
from interviews.services.answers import answer_save
from interviews.services.loops import loop_start
from interviews.services.reviews import review_comment_create
from interviews.services.stages import stage_start
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

ANSWERS = {
    "screen": "I read your system card and the responsible scaling policy; it changed how I "
    "think about evals. The largest risk is misuse of agents. I am looking for ownership "
    "of a serving system, which I do not have today.",
    "hm_call": "Prefill is compute-bound because it processes the whole prompt at once. "
    "Decode is memory-bandwidth-bound: 140 GB of weights per token gives about 20 tokens/s. "
    "The KV cache per token is about 0.33 MB with GQA.",
    "design": "A router in front of replicas with continuous batching and a paged KV cache. "
    "Each replica holds 140 GB of weights. Admission control per tenant.",
    "deep_dive": "## Context\nThe problem was GPU cost: customers were waiting.\n## Metrics\n"
    "P99 went from 900 ms to 250 ms.\n## Ownership\nI led the design.\n## ROI\nIt cost "
    "$20M and saved $12M per year over 3 years.",
    "values": "I was wrong about a rollout once; a junior engineer pointed it out and I "
    "learned to ask for a review. I made the safe path the default with a gate.",
}


def _submission(stage: Stage, question, part: int, mode: str, passed: int, total: int, at):
    submission = Submission.objects.create(
        stage=stage,
        question=question,
        part=part,
        author=stage.loop.candidate,
        language="python",
        code="print(1)\n",
        mode=mode,
        status="done",
        verdict="accepted" if passed == total else "wrong_answer",
        passed=passed,
        total=total,
        max_time_ms=140,
    )
    Submission.objects.filter(pk=submission.pk).update(created_at=at)


def _play(stage: Stage) -> None:
    """What the candidate did in each stage (Finish is clicked in the browser)."""
    candidate = stage.loop.candidate
    stage_start(stage=stage, actor=candidate)
    stage = Stage.objects.get(pk=stage.pk)
    questions = [link.question for link in stage.stage_questions.order_by("position")]
    if stage.kind in ("coding", "challenge"):
        first = questions[0]
        # as its verification would have stored it (the bank is imported unverified here)
        first.reference_time_ms = {"python": {"1": 90}}
        first.save(update_fields=["reference_time_ms"])
        hidden = first.parts.get(position=1).tests.filter(visibility="hidden").count()
        _submission(stage, first, 1, "run", 1, 1, stage.started_at + timedelta(minutes=3))
        _submission(
            stage, first, 1, "submit", hidden - 1, hidden, stage.started_at + timedelta(minutes=6)
        )
        _submission(
            stage, first, 1, "submit", hidden, hidden, stage.started_at + timedelta(minutes=9)
        )
    elif stage.kind == "review":
        question = questions[0]
        flaws = list(PlantedFlaw.objects.filter(question=question).order_by("position")[:2])
        review_comment_create(
            stage=stage,
            author=candidate,
            question=question,
            line_start=flaws[0].line_start,
            line_end=flaws[0].line_end,
            category=flaws[0].category,
            text="Add a standby for this.",
        )
        review_comment_create(
            stage=stage,
            author=candidate,
            question=question,
            line_start=flaws[1].line_start,
            line_end=flaws[1].line_end,
            category="other",
            text="This will fall over.",
        )
    else:
        answer_save(stage=stage, actor=candidate, question=questions[0], text=ANSWERS[stage.kind])


def _finish_in_the_room(page: Page, stage: Stage) -> None:
    page.goto(f"/stages/{stage.pk}")
    page.get_by_test_id("stage-status").get_by_text("live").wait_for()
    page.get_by_role("button", name="Finish stage").click()  # the confirm is accepted
    page.get_by_test_id("stage-status").get_by_text("done").wait_for()


#: Evidence each kind's card must show (regular expressions over the card's text).
EVIDENCE = {
    "challenge": [
        r'Q1 part 1 ".+": \d+/\d+ hidden tests — accepted after 9 min',
        r"Q2 not attempted",
    ],
    "coding": [
        r'Q1 part 1 ".+": \d+/\d+ hidden tests — accepted after 9 min',
        r"your slowest test 140 ms vs reference 90 ms: 1\.6×",
    ],
    "review": [
        r"your comment on [\d–]+ matched \S+ \(same category, lines overlap\); counted",
        r"category differed \(other\), counted as found",
    ],
    "screen": [r'(?<!not )covered \(Q1\): .+ — ".+"'],
    "hm_call": [r'(?<!not )covered \(Q1\): .+ — ".+"'],
    "design": [r"covered \(Q1\): "],
    "deep_dive": [r'covered \(Q1\): Says what they did themselves — "I led the design\."'],
    "values": [r'(?<!not )covered \(Q1\): .+ — ".+"'],
}


def _check_the_diagram(page: Page, stage: Stage, screenshot_path) -> None:
    """The design prompt's mermaid diagram, as rendered in the room: its labels are at
    least 11 px tall on screen (they once rendered at ~6 px, scaled down to fit)."""
    page.goto(f"/stages/{stage.pk}")
    diagram = page.locator(".mermaid-diagram svg").first
    diagram.wait_for()
    heights = page.evaluate(
        """() => Array.from(document.querySelectorAll('.mermaid-diagram svg .nodeLabel,'
              + ' .mermaid-diagram svg text'))
              .map(e => e.getBoundingClientRect().height).filter(h => h > 0)"""
    )
    page.locator(".mermaid-diagram").first.screenshot(path=screenshot_path("design-diagram"))
    assert heights and min(heights) >= 11, heights


def test_a_solo_candidate_reads_automatic_scorecards_for_every_stage_kind(
    page: Page, live_server_url, bank, screenshot_path
) -> None:
    candidate = UserFactory(username="solo-sam")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    stages = list(loop.stages.order_by("position"))
    assert {s.kind for s in stages} == {
        "screen",
        "challenge",
        "hm_call",
        "coding",
        "design",
        "review",
        "deep_dive",
        "values",
    }
    sign_in(page, "solo-sam")

    # Before the stage is done: no model answers on its feedback page.
    page.goto(f"/stages/{stages[0].pk}/scorecard")
    expect(
        page.get_by_text("Model answers are shown here once the stage is finished.")
    ).to_be_visible()
    expect(page.get_by_test_id("model-answers")).to_have_count(0)

    page.on("dialog", lambda dialog: dialog.accept())
    for stage in stages:
        _play(stage)
        if stage.kind == "design":
            _check_the_diagram(page, stage, screenshot_path)
        _finish_in_the_room(page, stage)
        assert Stage.objects.get(pk=stage.pk).status == "done"
    for stage in stages:
        page.goto(f"/stages/{stage.pk}/scorecard")
        card = page.get_by_test_id("auto-scorecard")
        expect(card).to_contain_text("Automatic scorecard")
        expect(card.locator(".level-dots").first).to_be_visible()
        expect(card.locator(".evidence li").first).to_be_visible()
        evidence = "\n".join(card.locator(".evidence li").all_text_contents())
        for pattern in EVIDENCE[stage.kind]:
            assert re.search(pattern, evidence), (stage.kind, pattern, evidence)
        expect(page.get_by_test_id("model-answers")).to_be_visible()
        card.screenshot(path=screenshot_path(f"auto-scorecard-{stage.kind}"))
    # The values round: the self-assessment form sits beside the automatic scores.
    page.get_by_role("radio").first.check()
    page.get_by_role("button", name="Save self-assessment").click()
    expect(page.get_by_text("you: 1/4")).to_be_visible()
    page.get_by_label("Self-assessment").screenshot(path=screenshot_path("self-assessment"))
    page.get_by_test_id("model-answers").screenshot(path=screenshot_path("model-answers-values"))

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/stages/{stages[3].pk}/scorecard")
    expect(page.get_by_test_id("auto-scorecard")).to_be_visible()
    # The feedback itself fits a phone (the top bar is the layout's, not this page's).
    too_wide = page.evaluate(
        "() => Array.from(document.querySelectorAll('main *'))"
        ".filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName)"
    )
    assert too_wide == []
    page.screenshot(path=screenshot_path("auto-scorecard-coding-390"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/loops/{loop.pk}/report")
    expect(page.get_by_test_id("report-overall")).not_to_have_text("—")
    expect(page.get_by_text("Not scored yet.")).to_have_count(0)
    page.screenshot(path=screenshot_path("loop-report-solo"), full_page=True)
    assert timezone.now()
