"""Domain errors raised by services and selectors.

They carry no HTTP knowledge; the API layer maps each to its status (400/403/404/409/413)
and the websocket layer to its close codes, so both surfaces say the same thing.
"""

from typing import Any


class DomainError(Exception):
    default_message = "The request cannot be carried out."

    def __init__(self, message: str | None = None, *, errors: dict[str, Any] | None = None):
        self.message = message or self.default_message
        self.errors = errors or {}
        super().__init__(self.message)


class InvalidInput(DomainError):
    """The input is well-formed but does not fit the domain (→ 400, with field errors)."""

    default_message = "Invalid input."


class NotAllowed(DomainError):
    """The actor may see the object but not do this to it (→ 403)."""

    default_message = "You may not do this."


class NotFound(DomainError):
    """Absent, or not visible to the actor: the two look the same from outside (→ 404)."""

    default_message = "Not found."


class StateConflict(DomainError):
    """The object is in a state where this action is not possible (→ 409)."""

    default_message = "This conflicts with the current state."


class TooLarge(DomainError):
    """A payload is over its limit (→ 413)."""

    default_message = "Too large."


class TooBusy(DomainError):
    """The actor already has as much work waiting as anyone may; try again once some of it
    is done (→ 429 with Retry-After)."""

    default_message = "Too much is waiting already; try again in a moment."
    retry_after_s = 5
