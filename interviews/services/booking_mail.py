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
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from icalendar import Calendar, Event, vCalAddress, vText

from interviews.i18n import language_of
from interviews.models import Booking

logger = logging.getLogger(__name__)

SUBJECTS = {
    "booked": gettext_lazy("Session booked: %(title)s"),
    "rescheduled": gettext_lazy("Session moved: %(title)s"),
    "cancelled": gettext_lazy("Session cancelled: %(title)s"),
    "reminder": gettext_lazy("Starting soon: %(title)s"),
}
LINES = {
    "booked": gettext_lazy("Your session with %(other)s is booked for %(when)s."),
    "rescheduled": gettext_lazy("Your session with %(other)s has moved to %(when)s."),
    "cancelled": gettext_lazy("Your session with %(other)s on %(when)s is cancelled."),
    "reminder": gettext_lazy("Your session with %(other)s starts at %(when)s."),
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
    """The .ics for one side: times in UTC, the booking's stable UID and current SEQUENCE;
    its text in the language active when it is made (the recipient's: `_send`)."""
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
    event.add("description", _("Join the interview room: %(link)s") % {"link": link})
    event.add("status", "CANCELLED" if cancel else "CONFIRMED")
    organizer = vCalAddress(f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}")
    organizer.params["cn"] = vText("Mockloop")
    event["organizer"] = organizer
    event.add("attendee", _attendee(booking.candidate, "REQ-PARTICIPANT"))
    event.add("attendee", _attendee(booking.coach, "CHAIR"))
    calendar.add_component(event)
    return calendar.to_ical()


def _when(booking: Booking) -> str:
    """The start in UTC, with the day and month named in the active language."""
    # Django's date-format letters (l: weekday, F: month); a translator may reorder them.
    pattern = _("l d F Y, H:i")
    return _("%(datetime)s UTC") % {
        "datetime": date_format(booking.starts_at.astimezone(UTC), pattern)
    }


def _body(booking: Booking, kind: str, *, for_coach: bool) -> str:
    other = booking.candidate if for_coach else booking.coach
    paragraphs = [
        LINES[kind] % {"other": other.get_username(), "when": _when(booking)},
        _("Stage: %(title)s (%(minutes)s minutes)")
        % {"title": booking.stage.title, "minutes": booking.minutes},
    ]
    if kind != "cancelled":
        paragraphs[-1] += "\n" + _("Room: %(url)s") % {
            "url": room_url(booking, for_coach=for_coach)
        }
    paragraphs.append(_("The attached invite updates your calendar."))
    return "\n\n".join(paragraphs) + "\n"


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
        # Each side in their own saved language: a coach and a candidate may differ.
        with language_of(user):
            message = EmailMessage(
                subject=SUBJECTS[kind] % {"title": booking.stage.title},
                body=_body(booking, kind, for_coach=for_coach),
                to=[user.email],
            )
            invite = booking_invite(booking, cancel=cancel, for_coach=for_coach)
        method = "CANCEL" if cancel else "REQUEST"
        message.attach("invite.ics", invite, f"text/calendar; method={method}; charset=utf-8")
        sent += message.send()
    return sent
