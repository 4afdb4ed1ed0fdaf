"""The live room's call in real Chromium with fake camera and microphone: coach and
candidate each receive the other's audio and video (inbound RTP bytes grow, the remote
<video> has frames), mute stops the outbound audio, an admin listens in without sending,
and a user who is not in the room is refused before they can signal."""

import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserType, Page, expect

from tests.conftest import CHROMIUM_ARGS
from tests.factories import AdminFactory, CoachFactory, UserFactory

from .conftest import claim, sign_in, start_coached_coding_stage

pytestmark = pytest.mark.e2e

FAKE_MEDIA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]

# Every RTCPeerConnection the page makes, so the test can read its getStats().
RECORD_PEERS = """
window.__peers = [];
const NativePeer = window.RTCPeerConnection;
window.RTCPeerConnection = class extends NativePeer {
  constructor(...args) { super(...args); window.__peers.push(this); }
};
"""

RTP_BYTES = """async ([type, kind]) => {
  let total = 0;
  for (const pc of window.__peers) {
    if (pc.connectionState === "closed") continue;
    const stats = await pc.getStats();
    stats.forEach((s) => {
      if (s.type !== type || s.kind !== kind) return;
      total += type === "inbound-rtp" ? s.bytesReceived : s.bytesSent;
    });
  }
  return total;
}"""

REMOTE_VIDEO_PLAYS = """user => {
  const tile = document.querySelector(`[data-testid=call-remote][data-user="${user}"] video`);
  return !!tile && tile.videoWidth > 0 && tile.srcObject?.getAudioTracks().length > 0;
}"""


@pytest.fixture(scope="module")
def media_browser(browser_type: BrowserType, browser_type_launch_args: dict) -> Iterator[Browser]:
    """Chromium with a fake camera and microphone, allowed without asking (this test's
    browser only)."""
    args = {**browser_type_launch_args, "args": [*CHROMIUM_ARGS, *FAKE_MEDIA]}
    browser = browser_type.launch(**args)
    yield browser
    browser.close()


@pytest.fixture
def media_page(media_browser: Browser, browser_context_args: dict, live_server_url):
    contexts = []

    def make() -> Page:
        context = media_browser.new_context(**browser_context_args)
        context.add_init_script(RECORD_PEERS)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page

    yield make
    for context in contexts:
        context.close()


def rtp_bytes(page: Page, type_: str, kind: str) -> int:
    return page.evaluate(RTP_BYTES, [type_, kind])


def grows(read: Callable[[], int], within_s: float = 6.0) -> bool:
    first = read()
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        time.sleep(0.5)
        if read() > first:
            return True
    return False


def test_coach_and_candidate_see_and_hear_each_other_and_mute_stops_the_audio(
    media_page, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    AdminFactory(username="ada")
    UserFactory(username="mallory")

    candidate = media_page()
    stage_id = start_coached_coding_stage(candidate)
    panel = candidate.get_by_test_id("call-panel")
    expect(panel.get_by_test_id("call-status")).to_contain_text("No coach yet")
    candidate.wait_for_function(
        "() => document.querySelector('[data-testid=call-local-video]')?.videoWidth > 0"
    )
    candidate.screenshot(path=screenshot_path("call-candidate-waiting"))

    coach = media_page()
    claim(coach)
    for page, other in ((candidate, "coach-lin"), (coach, "grace")):
        page.wait_for_function(REMOTE_VIDEO_PLAYS, arg=other)
    expect(panel.get_by_test_id("call-status")).to_have_text(
        "In a call with your coach, coach-lin."
    )
    expect(coach.get_by_test_id("call-status")).to_have_text("In a call with grace.")

    # Each side receives the other's audio and video: inbound RTP bytes keep growing.
    for page in (candidate, coach):
        for kind in ("audio", "video"):
            assert grows(lambda p=page, k=kind: rtp_bytes(p, "inbound-rtp", k)), kind
    candidate.screenshot(path=screenshot_path("call-candidate"))
    coach.screenshot(path=screenshot_path("call-coach"))

    # Mute: the candidate's audio track is disabled, and no audio leaves any more.
    panel.get_by_role("button", name="Mute").click()
    panel.get_by_role("button", name="Unmute").wait_for()
    assert (
        candidate.evaluate(
            "() => document.querySelector('[data-testid=call-local-video]')"
            ".srcObject.getAudioTracks()[0].enabled"
        )
        is False
    )
    expect(coach.locator('[data-testid=call-remote][data-user="grace"]')).to_contain_text("muted")
    time.sleep(1.0)  # packets already in flight
    assert not grows(lambda: rtp_bytes(candidate, "outbound-rtp", "audio"), within_s=2.0)
    assert grows(lambda: rtp_bytes(candidate, "outbound-rtp", "video"))
    panel.get_by_role("button", name="Unmute").click()
    assert grows(lambda: rtp_bytes(candidate, "outbound-rtp", "audio"))

    # Camera off and on again: the coach's picture goes and comes back.
    coach_panel = coach.get_by_test_id("call-panel")
    coach_panel.get_by_role("button", name="Camera off").click()
    expect(panel.locator('[data-testid=call-remote][data-user="coach-lin"]')).to_contain_text(
        "camera off"
    )
    coach_panel.get_by_role("button", name="Camera on").click()
    candidate.wait_for_function(REMOTE_VIDEO_PLAYS, arg="coach-lin")
    coach_panel.get_by_text("Devices").click()
    assert coach_panel.get_by_label("Camera").locator("option").count() >= 1
    coach.screenshot(path=screenshot_path("call-coach-devices"))

    # An admin listens in: receives both, sends nothing; both sides are told.
    admin = media_page()
    sign_in(admin, "ada")
    admin.goto(f"/coach/stages/{stage_id}")
    admin_panel = admin.get_by_test_id("call-panel")
    for user in ("grace", "coach-lin"):
        admin.wait_for_function(REMOTE_VIDEO_PLAYS, arg=user)
    expect(admin_panel.get_by_role("button", name="Mute")).to_have_count(0)
    assert rtp_bytes(admin, "outbound-rtp", "audio") == 0
    assert rtp_bytes(admin, "outbound-rtp", "video") == 0
    expect(panel.get_by_test_id("call-listeners")).to_have_text("ada is shadowing (listening in).")
    admin.screenshot(path=screenshot_path("call-admin-listening"))

    # A user with no business in the room is refused (4403) before any signal is relayed.
    stranger = media_page()
    sign_in(stranger, "mallory")
    code = stranger.evaluate(
        """id => new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/ws/stages/${id}/`);
          ws.onopen = () => ws.send(JSON.stringify(
            {type: "rtc.signal", data: {kind: "join", session: "intruder", listen_only: false}}));
          ws.onclose = (event) => resolve(event.code);
        })""",
        stage_id,
    )
    assert code == 4403
    time.sleep(0.5)
    assert candidate.locator('[data-testid=call-remote][data-user="mallory"]').count() == 0
    assert coach.locator('[data-testid=call-remote][data-user="mallory"]').count() == 0
    expect(panel.get_by_test_id("call-status")).to_have_text(
        "In a call with your coach, coach-lin."
    )


REFUSE_MEDIA = """
navigator.mediaDevices.getUserMedia = () =>
  Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
"""


def test_a_refused_microphone_says_what_to_do_and_the_call_still_receives(
    page, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    page.add_init_script(REFUSE_MEDIA)
    start_coached_coding_stage(page)
    panel = page.get_by_test_id("call-panel")
    problem = panel.get_by_test_id("call-media-problem")
    expect(problem).to_contain_text("blocked the microphone and camera")
    expect(problem).to_contain_text("Try again")
    expect(panel.get_by_role("button", name="Try again")).to_be_visible()
    expect(panel.get_by_test_id("call-status")).to_contain_text("No coach yet")
    page.screenshot(path=screenshot_path("call-microphone-refused"))


def test_a_second_coach_shadows_listen_only_and_acts_on_nothing(
    media_page, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    CoachFactory(username="coach-ada")

    candidate = media_page()
    stage_id = start_coached_coding_stage(candidate)
    coach = media_page()
    claim(coach, room=candidate)
    for page, other in ((candidate, "coach-lin"), (coach, "grace")):
        page.wait_for_function(REMOTE_VIDEO_PLAYS, arg=other)

    # A colleague joins from the console with the stage's number.
    shadow = media_page()
    sign_in(shadow, "coach-ada")
    shadow.goto("/coach")
    shadow.get_by_label("Stage number or room link").fill(str(stage_id))
    shadow.get_by_role("button", name="Shadow").click()
    shadow.get_by_test_id("coach-room").wait_for()
    expect(shadow.get_by_test_id("shadowing")).to_have_text("shadowing · listen-only")
    for user in ("grace", "coach-lin"):
        shadow.wait_for_function(REMOTE_VIDEO_PLAYS, arg=user)
    assert grows(lambda: rtp_bytes(shadow, "inbound-rtp", "audio"))
    assert rtp_bytes(shadow, "outbound-rtp", "audio") == 0
    assert rtp_bytes(shadow, "outbound-rtp", "video") == 0
    expect(shadow.get_by_test_id("call-panel").get_by_role("button", name="Mute")).to_have_count(0)
    # Both sides are told; the shadow sees the code and has no coach tools.
    for page in (candidate, coach):
        expect(page.get_by_test_id("call-listeners")).to_have_text(
            "coach-ada is shadowing (listening in)."
        )
    shadow.wait_for_function(
        "() => document.querySelector('.cm-content')?.textContent.includes('import sys')"
    )
    expect(shadow.get_by_role("tab", name="Scorecard")).to_have_count(0)
    expect(shadow.get_by_role("button", name="Push")).to_have_count(0)
    expect(shadow.get_by_role("button", name="Pause clock")).to_have_count(0)
    shadow.screenshot(path=screenshot_path("call-coach-shadowing"))
