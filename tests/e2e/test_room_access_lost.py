"""A coach loses a live room mid-stage: an admin hands the stage to another coach in the
Django admin, and the server closes the old coach's open socket (4403) as soon as the
change commits — no reconnect needed. The room says so, with a way back, and stops
retrying; the candidate carries on, and their typing no longer reaches the old coach."""

import re

import pytest
from playwright.sync_api import expect

from interviews.models import Stage
from tests.factories import AdminFactory, CoachFactory, UserFactory

from .conftest import claim, editor_text, sign_in, start_coached_coding_stage

pytestmark = pytest.mark.e2e

REFUSED_TEXT = "You no longer have access to this stage"


def test_coach_reassigned_mid_room_is_refused_at_once(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    other_coach = CoachFactory(username="coach-ada")
    AdminFactory(username="root-admin")

    candidate = page
    candidate_sockets: list[str] = []
    candidate.on("websocket", lambda ws: candidate_sockets.append(ws.url))
    start_coached_coding_stage(candidate)

    coach = new_page()
    sockets_opened: list[str] = []
    coach.on("websocket", lambda ws: sockets_opened.append(ws.url))
    claim(coach, room=candidate)
    stage = Stage.objects.get(coach__username="coach-lin")

    # An admin hands the stage to another coach in the Django admin.
    admin = new_page()
    sign_in(admin, "root-admin")
    admin.goto(f"/admin/interviews/stage/{stage.pk}/change/")
    admin.locator("#id_coach").fill(str(other_coach.pk))
    admin.get_by_role("button", name="Save", exact=True).click()
    expect(admin.locator(".messagelist")).to_contain_text("was changed successfully")
    stage.refresh_from_db()
    assert stage.coach_id == other_coach.pk

    notice = coach.get_by_test_id("room-refused")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(REFUSED_TEXT)
    expect(notice.get_by_role("link", name="Go back to your dashboard.")).to_have_attribute(
        "href", "/"
    )
    expect(coach.get_by_test_id("connection")).to_have_text("Not allowed")
    coach.screenshot(path=screenshot_path("coach-room-access-lost"))
    # Refused on the socket it had open, not on a reconnect.
    assert len(sockets_opened) == 1

    # The candidate still has the room: live, and their edits are saved...
    expect(candidate.get_by_test_id("connection")).to_have_text("Live")
    assert candidate.get_by_test_id("room-refused").count() == 0
    save_status = candidate.get_by_test_id("save-status")
    saved_before = save_status.inner_text()
    candidate.locator(".cm-content").click()
    candidate.keyboard.press("Control+End")
    marker = "# after the handover"
    candidate.keyboard.type(marker)
    expect(save_status).not_to_have_text(saved_before)
    expect(save_status).to_have_text(re.compile(r"^All changes saved$"))
    # ...but nothing reaches the old coach (connected, they would see it well within a
    # second), whose room stays refused and has opened no socket since.
    coach.wait_for_timeout(1000)
    assert marker not in editor_text(coach)
    expect(coach.get_by_test_id("connection")).to_have_text("Not allowed")
    assert len(sockets_opened) == 1
    # The candidate's socket outlived the claim and the handover (each makes every socket
    # in the room check its access again).
    assert len(candidate_sockets) == 1
