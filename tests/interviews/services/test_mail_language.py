"""Mails go out in their recipient's saved language, each recipient separately (a coach
and a candidate may read different ones); a person who never chose one gets English, or,
for a mail their own request made (sign-up, password reset), that request's language."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from icalendar import Calendar
from rest_framework.test import APIClient

from interviews.services.account_settings import account_settings_update
from interviews.services.scheduling import booking_cancel, booking_create, slots_publish
from interviews.services.stages import stage_finish
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _choose(user, language: str) -> None:
    account_settings_update(actor=user, user=user, language=language)


def _mail_to(address: str):
    (message,) = [m for m in mail.outbox if m.to == [address]]
    return message


def _invite_description(message) -> str:
    (_name, content, _mimetype) = message.attachments[0]
    return str(Calendar.from_ical(content).walk("VEVENT")[0]["DESCRIPTION"])


@pytest.fixture
def booked(world, django_capture_on_commit_callbacks):
    """The candidate reads Simplified Chinese, the coach Traditional; a session booked on a
    fixed day (a Tuesday) at 14:00 UTC."""
    _choose(world.owner, "zh-Hans")
    _choose(world.coach, "zh-Hant")
    stage_finish(stage=world.coding, actor=world.owner)
    world.values.refresh_from_db()
    day = (timezone.now() + timedelta(days=10)).date()
    while day.weekday() != 1:
        day += timedelta(days=1)
    slot = slots_publish(
        coach=world.coach,
        starts_local=datetime(day.year, day.month, day.day, 14, 0),
        time_zone="UTC",
        minutes=60,
    )[0]
    with django_capture_on_commit_callbacks(execute=True):
        booking = booking_create(stage=world.values, slot=slot, actor=world.owner)
    return booking


def test_booking_mails_and_invites_are_in_each_recipients_language(world, booked):
    day = booked.starts_at.astimezone(UTC)
    candidate = _mail_to(world.owner.email)
    assert candidate.subject == f"场次已预约：{world.values.title}"
    assert candidate.body.startswith(
        f"你与 {world.coach.username} 的场次已预约在 "
        f"{day.year}年{day.month}月{day.day}日 星期二 14:00（UTC）。"
    )
    assert f"环节：{world.values.title}（60 分钟）" in candidate.body
    assert "附件中的日历邀请会更新你的日历。" in candidate.body
    assert _invite_description(candidate).startswith("进入面试房间：http")

    coach = _mail_to(world.coach.email)
    assert coach.subject == f"場次已預約：{world.values.title}"
    assert f"你與 {world.owner.username} 的場次已預約在 " in coach.body
    assert _invite_description(coach).startswith("進入面試房間：http")


def test_a_recipient_who_never_chose_reads_english(
    world, booked, django_capture_on_commit_callbacks
):
    _choose(world.coach, "")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        booking_cancel(booking=booked, actor=world.owner)
    coach = _mail_to(world.coach.email)
    assert coach.subject == f"Session cancelled: {world.values.title}"
    assert coach.body.startswith(f"Your session with {world.owner.username} on Tuesday ")
    assert " is cancelled.\n\nStage: " in coach.body
    assert _mail_to(world.owner.email).subject == f"场次已取消：{world.values.title}"


def test_password_reset_mail_in_the_saved_language_else_the_askers():
    chose = UserFactory(email="chose@example.com")
    _choose(chose, "zh-Hant")
    UserFactory(email="never@example.com")
    client = APIClient(HTTP_ACCEPT_LANGUAGE="zh-CN")
    for address in ("chose@example.com", "never@example.com"):
        reset = client.post("/api/v1/auth/password-reset/", {"email": address}, format="json")
        assert reset.status_code == 200
    assert _mail_to("chose@example.com").subject == "重設你的 Mockloop 密碼"
    assert _mail_to("never@example.com").subject == "重置你的 Mockloop 密码"
    assert "该链接只能使用一次" in _mail_to("never@example.com").body
    APIClient().post("/api/v1/auth/password-reset/", {"email": "never@example.com"}, format="json")
    assert mail.outbox[-1].subject == "Reset your Mockloop password"


def test_the_confirmation_mail_of_a_sign_up_speaks_the_sign_ups_language(
    settings, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    with django_capture_on_commit_callbacks(execute=True):
        created = APIClient().post(
            "/api/v1/auth/signup/",
            {"username": "mei", "password": "pw-Correct-Horse-9", "email": "mei@example.com"},
            format="json",
            HTTP_ACCEPT_LANGUAGE="zh-TW",
        )
    assert created.status_code == 201, created.content
    message = _mail_to("mei@example.com")
    assert message.subject == "確認你在 Mockloop 的電子郵件地址"
    assert "mei@example.com 是你的電子郵件信箱" in message.body


def test_reminders_too(world, booked):
    from interviews.services.scheduling import bookings_remind

    mail.outbox.clear()
    assert bookings_remind(now=booked.starts_at - timedelta(minutes=20)) == 1
    assert _mail_to(world.owner.email).subject == f"即将开始：{world.values.title}"
    assert _mail_to(world.coach.email).subject == f"即將開始：{world.values.title}"
