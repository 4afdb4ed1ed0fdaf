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


def _live_design_stage() -> Stage:
    """grace's coached design stage, claimed and started by coach-lin."""
    grace = UserFactory(username="grace")
    lin = CoachFactory(username="coach-lin")
    template = LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    stage = loop_start(candidate=grace, template=template, coached=True).stages.get(kind="design")
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
