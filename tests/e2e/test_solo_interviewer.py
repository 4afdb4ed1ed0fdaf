"""The scripted interviewer of solo practice, in a real browser: in a discussion stage a
follow-up arrives once the candidate has answered, and another at "Next question"; in a
coding stage Finish judges the code the candidate typed but never submitted (the real
worker, the real Docker engine)."""

import re

import pytest
from playwright.sync_api import expect

from interviews.models import LoopTemplate, StageQuestion, Submission
from interviews.services.loops import loop_start
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

ANSWER = (
    "The release was two days away when our red team found that the new tool-use path "
    "skipped the refusal classifier for one tenant. I argued we should hold the launch, "
    "wrote the risk down with numbers, and offered a monitoring-only release instead."
)


def _solo_stage(kind: str, username: str):
    candidate = UserFactory(username=username)
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    return loop.stages.get(kind=kind)


def test_a_follow_up_arrives_after_an_answer_and_at_next_question(
    page, live_server_url, bank, screenshot_path
) -> None:
    stage = _solo_stage("values", "noor")
    question = StageQuestion.objects.get(stage=stage).question
    first, second = [f.prompt for f in question.follow_ups.order_by("position")][:2]
    sign_in(page, "noor")
    page.goto(f"/stages/{stage.pk}")
    page.get_by_role("button", name="Start the clock").click()
    page.get_by_test_id("stage-status").get_by_text("live").wait_for()
    expect(page.get_by_test_id("solo-notice")).to_contain_text("the interviewer is scripted")
    expect(page.get_by_role("heading", name="Notepad")).to_be_visible()
    follow_ups = page.get_by_test_id("follow-up-list")
    expect(follow_ups).to_have_count(0)

    page.get_by_label("Your answer").fill(ANSWER)
    expect(follow_ups.get_by_role("listitem")).to_have_count(1)
    expect(follow_ups).to_contain_text(first.split("\n")[0][:40])
    page.get_by_test_id("follow-up-banner").first.wait_for()
    page.screenshot(path=screenshot_path("solo-follow-up-after-answer"), full_page=True)

    page.get_by_test_id("next-question").click()
    expect(follow_ups.get_by_role("listitem")).to_have_count(2)
    expect(follow_ups).to_contain_text(second.split("\n")[0][:40])
    page.screenshot(path=screenshot_path("solo-next-question"), full_page=True)


def test_finish_judges_the_code_that_was_never_submitted(
    page, live_server_url, bank, celery_worker, screenshot_path
) -> None:
    stage = _solo_stage("coding", "ravi")
    question = StageQuestion.objects.get(stage=stage).question
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    sign_in(page, "ravi")
    page.goto(f"/stages/{stage.pk}")
    page.get_by_role("button", name=re.compile("Start the clock")).click()
    page.get_by_test_id("stage-status").get_by_text("live").wait_for()
    page.get_by_test_id("connection").get_by_text("Live").wait_for()
    page.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(question.reference["python"])

    page.get_by_role("button", name="Finish stage").click()
    page.get_by_test_id("stage-status").get_by_text("done").wait_for()
    assert any(
        "Your latest code for 1 question" in message and "submitted for judging" in message
        for message in dialogs
    ), dialogs
    head = page.locator(".submission-head", has_text="Submitted when the stage ended")
    expect(head.get_by_test_id("verdict")).to_have_text("accepted", timeout=60_000)
    page.screenshot(path=screenshot_path("finish-judges-unsubmitted"), full_page=True)
    auto = Submission.objects.get(stage=stage)
    assert auto.auto and auto.mode == "submit" and auto.code == question.reference["python"]
