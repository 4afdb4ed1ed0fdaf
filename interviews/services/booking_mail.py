"""The mails a booking sends: an iCalendar invite (METHOD:REQUEST on book, reschedule and
reminder; METHOD:CANCEL on cancel) attached for both sides, each with their own room link.

One UID per booking and a SEQUENCE that grows with every change let calendar clients
update the one event instead of adding another (RFC 5546)."""

import logging
from datetime import UTC
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone
from icalendar import Calendar, Event, vCalAddress, vText

from interviews.models import Booking

logger = logging.getLogger(__name__)

SUBJECTS = {
    "booked": "Session booked: {title}",
    "rescheduled": "Session moved: {title}",
    "cancelled": "Session cancelled: {title}",
    "reminder": "Starting soon: {title}",
}


def room_url(booking: Booking, *, for_coach: bool) -> str:
    """The absolute link to the stage's room, as each side opens it."""
    path = f"/coach/stages/{booking.stage_id}" if for_coach else f"/stages/{booking.stage_id}"
    return f"{settings.MOCKLOOP_PUBLIC_URL}{path}"


def _attendee(user, role: str) -> vCalAddress:
    address = vCalAddress(f"mailto:{user.email}")
    address.params["cn"] = vText(user.get_full_name() or user.get_username())
    address.params["role"] = vText(role)
    return address


def booking_invite(booking: Booking, *, cancel: bool, for_coach: bool) -> bytes:
    """The .ics for one side: times in UTC, the booking's stable UID and current SEQUENCE."""
    method = "CANCEL" if cancel else "REQUEST"
    calendar = Calendar()
    calendar.add("prodid", "-//Mockloop//Scheduling//EN")
    calendar.add("version", "2.0")
    calendar.add("method", method)
    event = Event()
    event.add("uid", booking.calendar_uid)
    event.add("sequence", booking.sequence)
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", booking.starts_at.astimezone(UTC))
    event.add("dtend", booking.ends_at.astimezone(UTC))
    event.add("summary", f"Mockloop: {booking.stage.title}")
    link = room_url(booking, for_coach=for_coach)
    event.add("url", link)
    event.add("location", link)
    event.add("description", f"Join the interview room: {link}")
    event.add("status", "CANCELLED" if cancel else "CONFIRMED")
    organizer = vCalAddress(f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}")
    organizer.params["cn"] = vText("Mockloop")
    event["organizer"] = organizer
    event.add("attendee", _attendee(booking.candidate, "REQ-PARTICIPANT"))
    event.add("attendee", _attendee(booking.coach, "CHAIR"))
    calendar.add_component(event)
    return calendar.to_ical()


def _body(booking: Booking, kind: str, *, for_coach: bool) -> str:
    other = booking.candidate if for_coach else booking.coach
    when = booking.starts_at.astimezone(UTC).strftime("%A %d %B %Y, %H:%M UTC")
    lines = {
        "booked": f"Your session with {other.get_username()} is booked for {when}.",
        "rescheduled": f"Your session with {other.get_username()} has moved to {when}.",
        "cancelled": f"Your session with {other.get_username()} on {when} is cancelled.",
        "reminder": f"Your session with {other.get_username()} starts at {when}.",
    }
    text = f"{lines[kind]}\n\nStage: {booking.stage.title} ({booking.minutes} minutes)\n"
    if kind != "cancelled":
        text += f"Room: {room_url(booking, for_coach=for_coach)}\n"
    return text + "\nThe attached invite updates your calendar.\n"


def booking_mail_send(booking: Booking, kind: str) -> int:
    """Mail both sides (those with an address) about the booking; returns mails sent. Runs
    after the booking has committed, so a mail server that is down is logged, not raised:
    the booking stands and both sides still see it on their home pages."""
    try:
        return _send(booking, kind)
    except Exception:
        logger.exception("booking %s: the %s mail failed", booking.pk, kind)
        return 0


def _send(booking: Booking, kind: str) -> int:
    sent = 0
    cancel = kind == "cancelled"
    for user, for_coach in ((booking.candidate, False), (booking.coach, True)):
        if not user.email:
            continue
        message = EmailMessage(
            subject=SUBJECTS[kind].format(title=booking.stage.title),
            body=_body(booking, kind, for_coach=for_coach),
            to=[user.email],
        )
        method = "CANCEL" if cancel else "REQUEST"
        message.attach(
            "invite.ics",
            booking_invite(booking, cancel=cancel, for_coach=for_coach),
            f"text/calendar; method={method}; charset=utf-8",
        )
        sent += message.send()
    return sent
