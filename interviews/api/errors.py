"""One error shape for the whole API: `{"detail": ..., "errors": {...}}` with the right status.

Bad input never becomes a 500: oversize bodies are 413, unknown routes a JSON 404.
"""

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This conflicts with the current state."
    default_code = "conflict"


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "too_large"


def exception_handler(exc, context):
    from interviews.services.errors import DomainError

    if isinstance(exc, DomainError):
        from .base import to_api_error

        exc = to_api_error(exc)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        errors = data if isinstance(data, dict) else {"non_field_errors": data}
        response.data = {"detail": _first_message(errors) or "Invalid input.", "errors": errors}
    elif isinstance(data, dict) and "detail" in data:
        response.data = {"detail": data["detail"], "errors": data.get("errors", {})}
    else:
        response.data = {"detail": "Request failed.", "errors": data}
    return response


def _first_message(errors) -> str | None:
    """A human sentence for `detail`: the first field error, prefixed with its path."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            message = _first_message(value)
            if message:
                return message if key == "non_field_errors" else f"{key}: {message}"
    elif isinstance(errors, list):
        for value in errors:
            message = _first_message(value)
            if message:
                return message
    elif errors:
        return str(errors)
    return None


def api_not_found(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    return JsonResponse({"detail": "Not found.", "errors": {}}, status=404)


def handler404(request: HttpRequest, exception=None) -> JsonResponse:
    return api_not_found(request)


def handler500(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"detail": "Server error. The team has been notified.", "errors": {}}, status=500
    )


__all__ = ["Conflict", "PayloadTooLarge", "Response", "exception_handler"]
