"""The API's own DRF exception classes, for parsers and views to raise.

Kept apart from errors.py (the exception handler): that module imports DRF's views, whose
settings import the parsers, which raise these; one module for both would be a circle.
"""

from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status

from interviews.services.errors import TooLarge


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = TooLarge.code


class JsonTooDeepError(exceptions.ParseError):
    """A body nesting deeper than any of the API's inputs (mockloop/bounded_json.py)."""

    default_detail = gettext_lazy("The JSON is nested too deeply.")
    default_code = "json_too_deep"
