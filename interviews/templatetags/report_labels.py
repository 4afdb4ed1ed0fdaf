"""Names the printable report shows for stored codes (a stage's status and kind, a
recommendation), in the request's language; the codes themselves stay as they are in
the API."""

from django import template
from django.utils.translation import gettext_lazy as _

from interviews.stage_kinds import stage_kind_get

register = template.Library()

STATUS = {"pending": _("pending"), "live": _("live"), "done": _("finished")}
RECOMMENDATION = {
    "strong_no": _("strong no"),
    "no": _("no"),
    "yes": _("yes"),
    "strong_yes": _("strong yes"),
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
    spec = stage_kind_get(value)
    return str(spec.label) if spec else value
