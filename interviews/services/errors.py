"""Domain errors raised by services, selectors and the access checks.

They carry no HTTP knowledge; the API's one exception handler (interviews/api/errors.py)
maps each class to its status (400/403/404/409/413) and the websocket layer sends them as
`error` messages, so both surfaces say the same thing.

Each error has a stable, machine-readable `code` (DESIGN.md, "HTTP API"): the class
default (`not_found`, `state_conflict`, …), or a more specific one given where it is raised
when a client can act on it (`stage_not_live`: reload the stage; `stage_taken`: pick
another from the queue). `message` is for people, in the language active when the error
is raised (the request's: interviews/i18n.py), so each raise site marks its sentence for
translation (`_("…")`, with `%(name)s` placeholders, never pieces glued together);
`code` is the same in every language and never changes once published.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    default_message = _("The request cannot be carried out.")
    code = "error"

    def __init__(
        self,
        message: str | None = None,
        *,
        errors: dict[str, Any] | None = None,
        code: str | None = None,
    ):
        # A plain string from here on: rendered now, in the raiser's language, so the
        # websocket's JSON and the logs need not know about lazy translations.
        self.message = str(message or self.default_message)
        self.errors = errors or {}
        if code is not None:
            self.code = code
        super().__init__(self.message)


class InvalidInput(DomainError):
    """The input is well-formed but does not fit the domain (→ 400, with field errors).

    Same code as DRF's own validation errors: a client fixes the fields either way."""

    default_message = _("Invalid input.")
    code = "invalid"


class NotAllowed(DomainError):
    """The actor may see the object but not do this to it (→ 403)."""

    default_message = _("You may not do this.")
    code = "not_allowed"


class NotFound(DomainError):
    """Absent, or not visible to the actor: the two look the same from outside (→ 404)."""

    default_message = _("Not found.")
    code = "not_found"


class StateConflict(DomainError):
    """The object is in a state where this action is not possible (→ 409)."""

    default_message = _("This conflicts with the current state.")
    code = "state_conflict"


class TooLarge(DomainError):
    """A payload is over its limit (→ 413)."""

    default_message = _("Too large.")
    code = "too_large"


class Unavailable(DomainError):
    """Something the action needs is down right now; try again later (→ 503)."""

    default_message = _("This service is not available right now.")
    code = "unavailable"


class TooBusy(DomainError):
    """The actor already has as much work waiting as anyone may; try again once some of it
    is done (→ 429 with Retry-After)."""

    default_message = _("Too much is waiting already; try again in a moment.")
    code = "too_busy"
    retry_after_s = 5
