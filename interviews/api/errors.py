"""One error shape for the whole API: `{"detail": ..., "errors": {...}, "code": "..."}` with
the right status, made here and nowhere else (settings: `EXCEPTION_HANDLER`).

Domain errors (interviews/services/errors.py) map to their status by class; DRF's own
errors (validation, authentication, permissions, throttling, parsing, 404, 405) and
Django's (oversize body, Http404, PermissionDenied) take the same shape. `code` is stable
and machine-readable: the domain error's code, or DRF's with one name per meaning (a 403
is `not_allowed` whether a permission class or a service refused). Bad input never
becomes a 500: oversize bodies are 413, unknown routes a JSON 404.

Of the API package this module imports only exceptions.py, and nothing in the package
imports it (settings name it as DRF's `EXCEPTION_HANDLER`; the URLconf takes its 404 and
500 views), so it closes no import circle.
"""

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from interviews.services import errors as domain

from .exceptions import PayloadTooLarge

#: The HTTP status of each domain error class (and of its subclasses).
DOMAIN_STATUS: dict[type[domain.DomainError], int] = {
    domain.InvalidInput: status.HTTP_400_BAD_REQUEST,
    domain.NotAllowed: status.HTTP_403_FORBIDDEN,
    domain.NotFound: status.HTTP_404_NOT_FOUND,
    domain.StateConflict: status.HTTP_409_CONFLICT,
    domain.TooLarge: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    domain.Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
    domain.TooBusy: status.HTTP_429_TOO_MANY_REQUESTS,
}

#: DRF's codes renamed to the domain's where both mean the same thing.
DRF_CODES = {"permission_denied": domain.NotAllowed.code}
VALIDATION_CODE = domain.InvalidInput.code
SERVER_ERROR_CODE = "server_error"
#: A number from the request that no column holds (the input serializers refuse those
#: they know of; this catches the rest, e.g. an id in the path, before it is a 500).
OUT_OF_RANGE_CODE = "number_out_of_range"


def domain_status(exc: domain.DomainError) -> int:
    for cls in type(exc).__mro__:
        if cls in DOMAIN_STATUS:
            return DOMAIN_STATUS[cls]
    return status.HTTP_500_INTERNAL_SERVER_ERROR


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, domain.DomainError):
        set_rollback()
        response = Response(_domain_body(exc, context.get("view")), status=domain_status(exc))
        if isinstance(exc, domain.TooBusy):
            response["Retry-After"] = str(exc.retry_after_s)
        return response
    if isinstance(exc, OverflowError):
        set_rollback()
        body = error_body(_("A number in the request is out of range."), OUT_OF_RANGE_CODE)
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)  # also sets WWW-Authenticate, Retry-After
    if response is None:
        return None
    response.data = _drf_body(exc, response.data)
    return response


def _domain_body(exc: domain.DomainError, view: Any) -> dict[str, Any]:
    if isinstance(exc, domain.InvalidInput):
        errors = exc.errors or {"non_field_errors": [exc.message]}
        # A view whose errors are many and keyed by path (a bank import) says how many in
        # `detail`; elsewhere `detail` is the first problem, as for DRF's validation.
        if getattr(view, "invalid_input_detail_is_summary", False):
            detail = exc.message
        else:
            detail = _first_message(errors) or exc.message
        return {"detail": detail, "errors": errors, "code": exc.code}
    # A few conflicts carry what the client needs to resolve them (e.g. `flaws` to
    # re-anchor after a document edit).
    return {
        "detail": exc.message,
        "errors": exc.errors,
        "code": exc.code,
        **getattr(exc, "extra", {}),
    }


def _drf_body(exc: Exception, data: Any) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        errors = data if isinstance(data, dict) else {"non_field_errors": data}
        detail = _first_message(errors) or _("Invalid input.")
        return {"detail": detail, "errors": errors, "code": VALIDATION_CODE}
    code = _drf_code(exc)
    if type(exc) is exceptions.Throttled and exc.wait is not None:
        return {"detail": throttled_detail(exc.wait), "errors": {}, "code": code}
    if isinstance(data, dict) and "detail" in data:
        return {"detail": data["detail"], "errors": data.get("errors", {}), "code": code}
    return {"detail": _("Request failed."), "errors": data, "code": code}


def throttled_detail(wait: int) -> str:
    """DRF's 429 sentence formats the seconds in before translating, so no catalogue can
    match it: one whole sentence here instead."""
    return ngettext(
        "Request was throttled. Expected available in %(wait)s second.",
        "Request was throttled. Expected available in %(wait)s seconds.",
        wait,
    ) % {"wait": wait}


def _drf_code(exc: Exception) -> str:
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
    if not isinstance(codes, str):
        codes = getattr(exc, "default_code", None) or "error"
    return DRF_CODES.get(codes, codes)


def _first_message(errors: Any) -> str | None:
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


def error_body(detail: str, code: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    """The error shape, for responses made outside DRF (Django's 404 and 500 handlers)."""
    return {"detail": detail, "errors": errors or {}, "code": code}


def api_not_found(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    return JsonResponse(error_body(_("Not found."), domain.NotFound.code), status=404)


def handler404(request: HttpRequest, exception=None) -> JsonResponse:
    return api_not_found(request)


def handler500(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        error_body(_("Server error. The team has been notified."), SERVER_ERROR_CODE), status=500
    )
