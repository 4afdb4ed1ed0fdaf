"""The candidate's interface in 简体中文 and 繁體中文 (issue #18): switched from the top bar,
the dashboard, a live coding room and the loop report show no English interface text, and
the choice is the account's — it survives a reload and follows the candidate into a fresh
browser after sign-in. Screenshots of each page in both languages are kept for a look.

"No English left" is checked on what a person sees: every visible text node, less code
(the editor, <pre>/<code>/<kbd>), form controls, rendered bank prose (.markdown), and the
strings the API sent (bank titles, server text) and the candidate's name: not the
interface's to translate; less English glosses in full-width parentheses
("隐藏测试（hidden tests）"). What remains may hold no ASCII word of four letters or more
outside ALLOWED."""

import re

import pytest
from playwright.sync_api import Page, expect

from interviews.models import LoopTemplate, Stage
from interviews.services.answers import answer_save
from interviews.services.loops import loop_start
from interviews.services.stages import stage_finish, stage_start
from tests.factories import UserFactory

from .conftest import PASSWORD, sign_in

pytestmark = pytest.mark.e2e

#: Words that stay English in every language: product and language names, key caps, and
#: the serving terms the translations keep in English beside the Chinese.
ALLOWED = {
    "Mockloop",
    "English",
    "Python",
    "JavaScript",
    "Node",
    "Ctrl",
    "Enter",
    "Shift",
    "stdin",
    "stderr",
    "Prefill",
    "decode",
    "cache",
}

SIGN_OUT = {"en": "Sign out", "zh-Hans": "退出登录", "zh-Hant": "登出"}

VISIBLE_TEXT = """() => {
  const skip = '.cm-editor, pre, code, kbd, textarea, input, select, script, style, '
    + '.markdown, .excalidraw';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (!text || node.parentElement.closest(skip)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (range.getClientRects().length === 0) continue;
    const style = getComputedStyle(node.parentElement);
    if (style.visibility === 'hidden') continue;
    out.push(text);
  }
  return out;
}"""


def _api_strings(page: Page, paths: list[str]) -> list[str]:
    """Every string of words the pages' API answers hold (longest first), so the bank's and
    the server's text ("Clarity", a question's title) can be told from the interface's.
    Identifier-like values ("live", "wrong_answer") are kept out: the interface must
    translate those itself."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if len(value) >= 4 and not re.fullmatch(r"[a-z0-9_-]+", value):
                found.add(" ".join(value.split()))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in paths:
        response = page.request.get(path)
        if response.ok:
            walk(response.json())
    return sorted(found, key=len, reverse=True)


def _english_left(page: Page, api_strings: list[str]) -> list[str]:
    leftovers = []
    for text in page.evaluate(VISIBLE_TEXT):
        if len(text) >= 10 and any(text in s for s in api_strings):
            continue
        for s in api_strings:
            if s in text:
                text = text.replace(s, " ")
        text = re.sub(r"（[^）]*）", " ", text)
        words = [w for w in re.findall(r"[A-Za-z]{4,}", text) if w not in ALLOWED]
        if words:
            leftovers.append(f"{text!r}: {words}")
    return leftovers


def _choose_language(page: Page, language: str, current: str) -> None:
    expect(page.locator(".topbar").get_by_role("button", name=SIGN_OUT[current])).to_be_visible()
    page.locator(".topbar .language-switcher select").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".topbar").get_by_role("button", name=SIGN_OUT[language])).to_be_visible()


def test_the_candidate_interface_in_chinese(
    page: Page, live_server_url, bank, new_page, screenshot_path
):
    candidate = UserFactory(username="lang-lin")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    screen = loop.stages.get(kind="screen")
    stage_start(stage=screen, actor=candidate)
    question = screen.stage_questions.order_by("position").first().question
    answer_save(
        stage=screen,
        actor=candidate,
        question=question,
        text="I read the responsible scaling policy; the largest risk is misuse of agents.",
    )
    stage_finish(stage=Stage.objects.get(pk=screen.pk), actor=candidate)
    coding = loop.stages.get(kind="coding")
    stage_start(stage=coding, actor=candidate)

    sign_in(page, "lang-lin")
    pages = {
        "dashboard": "/",
        "coding-room": f"/stages/{coding.pk}",
        "report": f"/loops/{loop.pk}/report",
    }
    leftovers: dict[str, list[str]] = {}
    shown = "en"
    for language in ("zh-Hans", "zh-Hant"):
        page.goto("/")
        _choose_language(page, language, current=shown)
        shown = language
        api_strings = _api_strings(
            page,
            [
                "/api/v1/auth/session/",
                "/api/v1/loops/",
                "/api/v1/loop-templates/",
                "/api/v1/stage-kinds/",
                "/api/v1/bookings/",
                f"/api/v1/loops/{loop.pk}/",
                f"/api/v1/loops/{loop.pk}/report/",
                f"/api/v1/stages/{coding.pk}/",
            ],
        ) + [candidate.username]
        for name, url in pages.items():
            page.goto(url)
            page.locator("main").first.wait_for()
            page.wait_for_load_state("networkidle")
            if name == "coding-room":
                page.locator(".cm-content").wait_for()
            page.screenshot(path=screenshot_path(f"{language}-{name}"), full_page=True)
            found = _english_left(page, api_strings)
            if found:
                leftovers[f"{language} {name}"] = found

        # The choice survives a reload …
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_role("button", name=SIGN_OUT[language])).to_be_visible()

    assert leftovers == {}, "\n".join(f"{where}: {found}" for where, found in leftovers.items())

    # Practise in one language, review in another: the feedback is asked again in English
    # while the page around it stays in 繁體中文.
    page.goto(f"/stages/{screen.pk}/scorecard")
    toggle = page.get_by_test_id("feedback-language")
    expect(toggle).to_contain_text("回饋顯示語言")
    with page.expect_response(lambda r: "/model-answers/?lang=en" in r.url) as answers:
        toggle.get_by_role("button", name="English").click()
    assert answers.value.ok
    expect(toggle.get_by_role("button", name="English")).to_have_attribute("aria-pressed", "true")
    # The heading is the page's: the stage's title as the loop template translates it.
    template = LoopTemplate.objects.get(slug=screen.loop.template.slug)
    title = template.i18n["zh-Hant"]["stages"][str(screen.position)]["title"]
    expect(page.get_by_role("heading", level=1)).to_have_text(f"評分卡 · {title}")
    expect(page.get_by_test_id("model-answers")).to_be_visible()
    page.screenshot(path=screenshot_path("zh-Hant-feedback-in-english"), full_page=True)
    toggle.screenshot(path=screenshot_path("zh-Hant-feedback-toggle"))

    # … and is the account's: a fresh browser (English before sign-in) follows it.
    fresh = new_page()
    fresh.goto("/login")
    fresh.get_by_label("Username").fill("lang-lin")
    fresh.get_by_label("Password").fill(PASSWORD)
    fresh.get_by_role("button", name="Sign in").click()
    expect(fresh.get_by_role("button", name=SIGN_OUT["zh-Hant"])).to_be_visible()
    expect(fresh.locator("html")).to_have_attribute("lang", "zh-Hant")

    # A phone's top bar still fits with the switcher and the Chinese labels.
    fresh.set_viewport_size({"width": 390, "height": 844})
    fresh.goto("/")
    fresh.locator("main").first.wait_for()
    fresh.wait_for_load_state("networkidle")
    fresh.screenshot(path=screenshot_path("zh-Hant-phone-dashboard"), full_page=True)
    assert fresh.evaluate("document.documentElement.scrollWidth") <= 390

    # Back to English, from the same switcher.
    page.goto("/")
    _choose_language(page, "en", current=shown)
    expect(page.get_by_role("heading", name="Your loops")).to_be_visible()
