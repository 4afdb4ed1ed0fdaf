"""Coach tools in the live rooms, in real Chromium: one socket per room page, the
whiteboard's fonts served by us (no console error, no request to another host), and the
coach's whiteboard fitted to the candidate's drawing and drawn on, both ways."""

import time
from collections.abc import Callable
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from interviews.models import LoopTemplate, Stage, StageEvent
from interviews.services.loops import loop_start
from interviews.services.stages import stage_claim, stage_start
from tests.factories import CoachFactory, UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

LOCAL_HOSTS = {"127.0.0.1", "localhost"}  # the live server's


def _live_design_stage(kind: str = "design") -> Stage:
    """grace's coached design (or other `kind` of) stage, claimed and started by coach-lin."""
    grace = UserFactory(username="grace")
    lin = CoachFactory(username="coach-lin")
    template = LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    stage = loop_start(candidate=grace, template=template, coached=True).stages.get(kind=kind)
    stage_claim(stage=stage, coach=lin)
    stage.refresh_from_db()
    return stage_start(stage=stage, actor=lin)


class Watch:
    """What a page logs to its console and which hosts it asks for anything."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.sockets: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", self._request)
        page.on("websocket", lambda ws: self.sockets.append(ws.url))

    def _request(self, request) -> None:
        host = urlparse(request.url).hostname
        if request.url.startswith(("http:", "https:", "ws:", "wss:")) and host not in LOCAL_HOSTS:
            self.foreign.append(request.url)


def _joins(stage: Stage, user: str) -> int:
    return sum(
        1
        for p in StageEvent.objects.filter(stage=stage, type="presence").values_list(
            "payload", flat=True
        )
        if p["user"] == user and p["state"] == "joined"
    )


def _open(page: Page, user: str, path: str) -> Watch:
    watch = Watch(page)
    sign_in(page, user)
    page.goto(path)
    expect(page.get_by_test_id("connection")).to_have_text("Live")
    return watch


def _settle(check: Callable[[], bool], within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def test_each_room_page_opens_one_socket_and_the_whiteboard_asks_no_other_host(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    stage = _live_design_stage()
    candidate = page
    seen_by_candidate = _open(candidate, "grace", f"/stages/{stage.pk}")
    coach = new_page()
    seen_by_coach = _open(coach, "coach-lin", f"/coach/stages/{stage.pk}")
    time.sleep(1.0)  # a second socket, if any, would have joined by now
    assert seen_by_coach.sockets == [
        f"{live_server_url.replace('http', 'ws')}/ws/stages/{stage.pk}/"
    ]
    assert len(seen_by_candidate.sockets) == 1
    assert _joins(stage, "coach-lin") == 1
    assert _joins(stage, "grace") == 1

    for person in (candidate, coach):
        person.get_by_role("tab", name="Whiteboard").click()
        person.locator(".excalidraw canvas").first.wait_for()
    time.sleep(2.0)  # Excalidraw registers and loads its fonts after the first paint
    for watch in (seen_by_candidate, seen_by_coach):
        assert watch.errors == []
        assert watch.foreign == []
    coach.screenshot(path=screenshot_path("coach-whiteboard"))


def _draw_rectangle(page: Page, at: tuple[float, float]) -> None:
    """Draw a rectangle with its corner at `at` (fractions of the canvas)."""
    page.set_viewport_size({"width": 1280, "height": 1400})  # the whole board on screen
    canvas = page.locator(".excalidraw canvas.interactive")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box is not None and page.viewport_size is not None
    # Of the part on screen, clear of the toolbars at its top and bottom.
    top, bottom = box["y"] + 80, min(box["y"] + box["height"], page.viewport_size["height"]) - 150
    x, y = box["x"] + at[0] * box["width"], top + at[1] * (bottom - top)
    page.keyboard.press("Escape")
    page.get_by_test_id("toolbar-rectangle").check(force=True)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 70, steps=5)
    page.mouse.up()


def _board_elements(page: Page) -> str | None:
    return page.get_by_test_id("whiteboard").get_attribute("data-elements")


def test_the_coach_sees_the_candidates_drawing_and_draws_on_it(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    stage = _live_design_stage()
    question = stage.questions.get(kind="design")
    candidate = page
    _open(candidate, "grace", f"/stages/{stage.pk}")
    candidate.get_by_role("tab", name="Whiteboard").click()
    candidate.locator(".excalidraw canvas.interactive").wait_for()
    # Far from the origin, where an unfitted view would not show it.
    _draw_rectangle(candidate, (0.6, 0.6))
    candidate.screenshot(path=screenshot_path("candidate-whiteboard"))
    expect(candidate.get_by_test_id("whiteboard")).to_have_attribute("data-elements", "1")

    coach = new_page()
    _open(coach, "coach-lin", f"/coach/stages/{stage.pk}")
    coach.get_by_role("tab", name="Whiteboard").click()
    board = coach.get_by_test_id("whiteboard")
    expect(board).to_have_attribute("data-elements", "1")
    expect(board.get_by_role("button", name="Fit")).to_be_enabled()
    coach.screenshot(path=screenshot_path("coach-whiteboard-fitted"))

    # The coach draws too; the stroke reaches the candidate, whose own drawing stays.
    _draw_rectangle(coach, (0.15, 0.25))
    expect(board).to_have_attribute("data-elements", "2")
    expect(candidate.get_by_test_id("whiteboard")).to_have_attribute("data-elements", "2")
    candidate.screenshot(path=screenshot_path("candidate-whiteboard-coach-stroke"))

    from interviews.services.documents import document_state

    assert _settle(
        lambda: (
            len(document_state(stage=stage, name=f"scene:{question.pk}", compact=False).state) > 0
        )
    )

    # Edits are relayed at once and logged in the room's next batch: both strokes are in
    # the log within a few batch windows.
    def actors() -> set[str]:
        return set(
            StageEvent.objects.filter(stage=stage, type="doc.update").values_list(
                "actor__username", flat=True
            )
        )

    _settle(lambda: actors() == {"grace", "coach-lin"})
    assert actors() == {"grace", "coach-lin"}


def test_the_coding_rooms_chat_is_on_screen_and_counts_unread_messages(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    stage = _live_design_stage("coding")
    candidate = page
    candidate.set_viewport_size({"width": 1366, "height": 768})
    _open(candidate, "grace", f"/stages/{stage.pk}")
    coach = new_page()
    _open(coach, "coach-lin", f"/coach/stages/{stage.pk}")

    def say(text: str) -> None:
        coach.get_by_role("tab", name="Chat").click()
        coach.get_by_label("Message").fill(text)
        coach.get_by_role("button", name="Send").click()

    say("Walk me through the invariant first.")
    dock = candidate.get_by_test_id("chat-dock")
    candidate.screenshot(path=screenshot_path("coding-room-chat-1366"))
    expect(dock.get_by_text("Walk me through the invariant first.")).to_be_in_viewport()
    expect(candidate.get_by_label("Message")).to_be_in_viewport()
    candidate.screenshot(path=screenshot_path("coding-room-chat-1366"))

    toggle = dock.get_by_role("button", name="Chat")
    toggle.click()
    say("And its complexity?")
    say("Take your time.")
    expect(dock.get_by_test_id("chat-unread")).to_have_text(" (2)")
    candidate.screenshot(path=screenshot_path("coding-room-chat-unread-1366"))
    toggle.click()
    expect(dock.get_by_test_id("chat-unread")).to_have_count(0)
    expect(dock.get_by_text("Take your time.")).to_be_in_viewport()

    # The coach's chat tab counts the candidate's messages the same way.
    coach.get_by_role("tab", name="Follow-ups").click()
    candidate.get_by_label("Message").fill("Sure: the heap holds the running requests.")
    candidate.get_by_role("button", name="Send").click()
    expect(coach.get_by_role("tab", name="Chat (1)")).to_be_visible()


def test_replay_shows_real_times_and_marks_the_idle_gaps(
    page, live_server_url, bank, screenshot_path
) -> None:
    from datetime import timedelta

    from interviews.services.live import chat_post
    from interviews.services.stages import stage_finish

    stage = _live_design_stage("coding")
    grace, lin = stage.loop.candidate, stage.coach
    for author, text in [(lin, "Shall we start?"), (grace, "Yes."), (lin, "Back to it.")]:
        chat_post(stage=stage, author=author, text=text)
    stage = stage_finish(stage=stage, actor=lin)
    # Move the log back in time: the clock started 30 minutes ago, the candidate answered at
    # minute 17 and the coach came back six idle minutes later, at minute 23.
    start = stage.started_at - timedelta(minutes=30)
    Stage.objects.filter(pk=stage.pk).update(started_at=start)
    events = list(StageEvent.objects.filter(stage=stage).order_by("seq"))
    minutes = {"Shall we start?": 1, "Yes.": 17, "Back to it.": 23}
    for event in events:
        offset = minutes.get(event.payload.get("text"), 0 if event.type != "stage.status" else 0)
        if event.type == "stage.status" and event.payload.get("status") == "done":
            offset = 24
        StageEvent.objects.filter(pk=event.pk).update(created_at=start + timedelta(minutes=offset))

    sign_in(page, "grace")
    page.goto(f"/stages/{stage.pk}/replay")
    page.get_by_test_id("replay").wait_for()
    expect(page.get_by_test_id("replay-clock")).to_have_text("00:00 / 24:00")
    gaps = page.get_by_test_id("replay-idle-gaps")
    expect(gaps).to_contain_text("⋯ 16 min idle")
    expect(gaps).to_contain_text("⋯ 6 min idle")
    page.get_by_role("button", name="Go to the end").click()
    expect(page.get_by_test_id("replay-clock")).to_have_text("24:00 / 24:00")
    expect(page.get_by_text("Back to it.")).to_be_visible()
    expect(page.locator("li", has_text="Back to it.")).to_contain_text("23:00")
    page.screenshot(path=screenshot_path("replay-real-times"))
