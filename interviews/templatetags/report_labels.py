"""Names the printable report shows for stored codes (a stage's status and kind, a
recommendation), in the request's language; the codes themselves stay as they are in
the API."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

STATUS = {"pending": _("pending"), "live": _("live"), "done": _("finished")}
RECOMMENDATION = {
    "strong_no": _("strong no"),
    "no": _("no"),
    "yes": _("yes"),
    "strong_yes": _("strong yes"),
}
KIND = {
    "screen": _("Recruiter screen"),
    "challenge": _("Coding challenge"),
    "hm_call": _("Hiring-manager call"),
    "coding": _("Live coding"),
    "design": _("System design"),
    "review": _("Design doc review"),
    "deep_dive": _("Project deep dive"),
    "values": _("Culture & values"),
}


@register.filter
def stage_status(value: str) -> str:
    return str(STATUS.get(value, value))


@register.filter
def recommendation(value: str | None) -> str:
    return str(RECOMMENDATION.get(value, value)) if value else "—"


@register.filter
def stage_kind(value: str) -> str:
    """The stage-kind registry's label (interviews/stage_kinds.py), translated."""
    return str(KIND.get(value, value))
