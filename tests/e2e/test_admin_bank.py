"""(c) An admin curates the bank in the browser: creates a coding question with hidden
tests, cannot publish it unverified (the button says why), verifies it in the real
sandbox (progress, then the failing hidden test listed), fixes the test, verifies again,
publishes it, builds a loop template with it (drag to order) — and a candidate starts that
loop and opens the question. Then bank import errors are listed by path, and export
downloads the bank."""

import re

import pytest
import yaml
from playwright.sync_api import Page, expect

from interviews.models import LoopTemplate, Question
from tests.factories import AdminFactory, UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

REFERENCE = "import sys\n\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n"
PROMPT = """Read two integers and print their **sum**.

```mermaid
graph LR
  stdin --> add --> stdout
```
"""


def _fill_code(page: Page, test_id: str, code: str) -> None:
    editor = page.get_by_test_id(test_id).locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def test_admin_creates_verifies_publishes_and_a_candidate_opens_it(
    page, new_page, live_server_url, bank, celery_worker, screenshot_path
) -> None:
    AdminFactory(username="root-admin")
    UserFactory(username="cand-e2e")
    sign_in(page, "root-admin")

    page.get_by_role("link", name="Question bank").click()
    page.get_by_test_id("question-list").get_by_role("link").first.wait_for()
    page.screenshot(path=screenshot_path("admin-question-list"))
    page.get_by_label("Filter by kind").select_option("review")
    expect(page.get_by_test_id("question-row-serving-doc-review")).to_be_visible()
    expect(page.get_by_test_id("question-row-token-batcher")).to_have_count(0)
    page.get_by_label("Filter by kind").select_option("")
    page.get_by_label("Search questions").fill("batch")
    expect(page.get_by_test_id("question-row-token-batcher")).to_be_visible()
    expect(page.get_by_test_id("question-row-why-this-lab")).to_have_count(0)

    # A new coding question: prompt (markdown + mermaid preview), reference, tests.
    page.get_by_role("button", name="New question").click()
    editor = page.get_by_test_id("question-editor")
    editor.get_by_label("Slug").fill("e2e-adder")
    editor.get_by_label("Title").fill("Add two numbers")
    editor.get_by_label("Tags (comma-separated)").fill("warm-up, e2e")
    editor.get_by_label("Markdown (```mermaid blocks render as diagrams)").fill(PROMPT)
    editor.locator(".preview-pane .mermaid-diagram svg").wait_for()
    page.screenshot(path=screenshot_path("admin-question-prompt"), full_page=True)

    editor.get_by_role("tab", name="Code").click()
    _fill_code(page, "source-Reference python", REFERENCE)

    editor.get_by_role("tab", name=re.compile("Parts & tests")).click()
    editor.get_by_test_id("part-editor-1").get_by_label("Title").fill("Sum of two")
    editor.get_by_label("Sample 1 input").fill("1 2\n")
    editor.get_by_label("Sample 1 output").fill("3\n")
    editor.get_by_label("Hidden 1 input").fill("40 2\n")
    editor.get_by_label("Hidden 1 output").fill("42\n")
    editor.get_by_role("button", name="Add hidden test").click()
    editor.get_by_label("Hidden 2 input").fill("2 2\n")
    editor.get_by_label("Hidden 2 output").fill("5\n")  # wrong on purpose: verify says so
    page.screenshot(path=screenshot_path("admin-question-tests"), full_page=True)

    editor.get_by_role("tab", name=re.compile("Follow-ups")).click()
    editor.get_by_role("button", name="Add follow-up").click()
    editor.get_by_label("Prompt (markdown, shown to the candidate)").fill("Now add three numbers.")
    editor.get_by_label("Coach notes (never shown to the candidate)").fill("Look for a loop.")

    editor.get_by_role("button", name="Create draft").click()
    message = page.get_by_test_id("editor-message")
    expect(message).to_contain_text("Created e2e-adder v1 as a draft.")
    page.wait_for_url(re.compile(r"/bank/questions/\d+$"))
    question_id = int(page.url.rstrip("/").split("/")[-1])

    # An unverified coding question cannot be published, and the page says why.
    expect(page.get_by_role("button", name="Publish")).to_be_disabled()
    expect(page.get_by_test_id("publish-blocked")).to_contain_text("press Verify")

    # Verify: queued for the judge worker, progress while it runs, then the failing
    # hidden test, listed.
    page.get_by_role("button", name="Verify").click()
    panel = page.get_by_test_id("verify-panel")
    expect(panel.get_by_role("status").first).to_be_visible()
    panel.get_by_test_id("verify-failed").wait_for(timeout=60_000)
    failures = panel.get_by_test_id("verify-failures")
    expect(failures.get_by_role("listitem")).to_have_count(1)
    expect(failures).to_contain_text("Part 1 · hidden test 2")
    expect(failures).to_contain_text("wrong answer")
    page.screenshot(path=screenshot_path("admin-verify-failed"), full_page=True)

    # Fix the test, save (in place: nothing uses this version yet), verify again.
    editor.get_by_role("tab", name=re.compile("Parts & tests")).click()
    editor.get_by_label("Hidden 2 output").fill("4\n")
    editor.get_by_role("button", name="Save").click()
    expect(message).to_contain_text("Saved v1 in place.")
    page.get_by_role("button", name="Verify").click()
    panel.get_by_test_id("verify-passed").wait_for(timeout=60_000)
    expect(panel).to_contain_text("passed all 3 sample and hidden tests")
    page.screenshot(path=screenshot_path("admin-verify-passed"), full_page=True)

    page.get_by_role("button", name="Publish").click()
    expect(message).to_contain_text("Published v1")
    question = Question.objects.get(pk=question_id)
    assert (question.status, question.verified_at is not None) == ("published", True)

    # A loop template with it: two stages, the second dragged above the first.
    page.get_by_role("link", name="Loop templates").click()
    page.get_by_role("button", name="New loop template").click()
    builder = page.get_by_test_id("loop-builder")
    builder.get_by_label("Slug").fill("e2e-loop")
    builder.get_by_label("Loop title").fill("E2E loop")
    # A new template starts as a draft; candidates only see it once published.
    status = builder.get_by_label("Status (candidates see published ones)")
    expect(status).to_have_value("draft")
    status.select_option("published")
    builder.get_by_role("button", name="Add stage").click()
    builder.get_by_label("Stage 1 title").fill("Adder round")
    builder.get_by_label("Stage 1 minutes").fill("30")
    builder.get_by_label("Add a question to stage 1").select_option("e2e-adder")
    builder.get_by_role("button", name="Add stage").click()
    builder.get_by_test_id("stage-card-2").get_by_label("Kind").select_option("values")
    builder.get_by_label("Stage 2 title").fill("Values chat")
    builder.get_by_label("Add a question to stage 2").select_option("why-this-lab")
    builder.get_by_test_id("stage-card-2").drag_to(builder.get_by_test_id("stage-card-1"))
    expect(builder.get_by_label("Stage 1 title")).to_have_value("Values chat")
    expect(builder.get_by_label("Stage 2 title")).to_have_value("Adder round")
    page.screenshot(path=screenshot_path("admin-loop-builder"), full_page=True)
    builder.get_by_role("button", name="Save loop template").click()
    expect(builder.get_by_role("status")).to_contain_text("Created loop template e2e-loop")
    template = LoopTemplate.objects.get(slug="e2e-loop")
    assert [s.title for s in template.stages.order_by("position")] == [
        "Values chat",
        "Adder round",
    ]

    # The candidate starts the new loop and opens the question.
    candidate = new_page()
    sign_in(candidate, "cand-e2e")
    card = candidate.get_by_test_id("template-e2e-loop")
    card.get_by_role("button", name="Start this loop").click()
    candidate.once("dialog", lambda dialog: dialog.accept())  # "Start the 60-minute clock?"
    candidate.get_by_test_id("stage-coding").get_by_role("button", name="Start").click()
    room = candidate.get_by_test_id("stage-room")
    room.get_by_role("heading", name="Add two numbers").wait_for()
    expect(room.locator(".question-prompt")).to_contain_text("Read two integers")
    candidate.get_by_test_id("connection").get_by_text("Live").wait_for()
    room.locator(".question-prompt .mermaid-diagram svg").wait_for()
    expect(candidate.locator(".cm-content")).to_contain_text("import sys")  # the starter
    candidate.screenshot(path=screenshot_path("candidate-opens-admin-question"))
    # Hidden tests and the reference never reach the candidate's page.
    html = candidate.content()
    assert "40 2" not in html and "print(a + b)" not in html


def test_admin_imports_with_errors_by_path_and_exports(
    page, live_server_url, bank, screenshot_path
) -> None:
    AdminFactory(username="bank-admin")
    sign_in(page, "bank-admin")
    page.goto("/bank/transfer")
    broken = {
        "rubrics": [{"slug": "tiny", "dimensions": [{"name": "Only", "levels": ["a"]}]}],
        "loops": [
            {
                "slug": "broken-loop",
                "title": "Broken",
                "stages": [{"kind": "coding", "title": "C", "minutes": 5, "questions": ["nope"]}],
            }
        ],
    }
    page.get_by_label("Bank YAML").fill(yaml.safe_dump(broken, sort_keys=False))
    page.get_by_label(re.compile("Verify every new coding reference")).uncheck()
    page.get_by_role("button", name="Import").click()
    errors = page.get_by_test_id("error-list")
    expect(errors).to_contain_text("2 problems in the bank; nothing changed.")
    expect(errors).to_contain_text("rubrics[0] (tiny).dimensions[0].levels")
    expect(errors).to_contain_text("loops[0] (broken-loop).stages[0].questions[0]")
    expect(errors).to_contain_text("unknown question 'nope'")
    page.screenshot(path=screenshot_path("admin-import-errors"), full_page=True)
    assert not LoopTemplate.objects.filter(slug="broken-loop").exists()

    fixed = {
        "rubrics": [{"slug": "tiny", "dimensions": [{"name": "Only", "levels": list("abcd")}]}]
    }
    page.get_by_label("Bank YAML").fill(yaml.safe_dump(fixed))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_test_id("import-result")).to_contain_text("Rubrics created: tiny")

    with page.expect_download() as download:
        page.get_by_test_id("export-link").click()
    text = download.value.path().read_text()
    exported = yaml.safe_load(text)
    assert "tiny" in [r["slug"] for r in exported["rubrics"]]
    assert "ai-lab-infra-sde" in [loop["slug"] for loop in exported["loops"]]

    page.get_by_role("link", name="Rubrics").click()
    page.get_by_role("button", name=re.compile("^tiny")).click()
    page.get_by_test_id("rubric-editor").get_by_label("Title").fill("Tiny rubric")
    page.get_by_role("button", name="Save rubric").click()
    expect(page.get_by_role("status")).to_contain_text("Saved rubric tiny")
    page.screenshot(path=screenshot_path("admin-rubric-editor"), full_page=True)
