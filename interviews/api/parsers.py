"""The API's one parser: JSON, size-capped. DRF's settings import it while DRF's views load,
so it imports only exceptions.py of this package (never views or the error handler)."""

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from mockloop.bounded_json import MAX_DEPTH, JsonTooDeep, json_loads_bounded

from .exceptions import JsonTooDeepError, PayloadTooLarge


class LimitedJSONParser(JSONParser):
    """JSON, refusing bodies over DATA_UPLOAD_MAX_MEMORY_SIZE with 413 (DRF reads the
    request stream itself, which bypasses Django's own check, and a body may come without
    a Content-Length) and nesting deeper than MAX_DEPTH with 400 (mockloop/bounded_json.py)."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise PayloadTooLarge(f"The request body is over {limit} bytes.")
        try:
            return json_loads_bounded(raw.decode("utf-8"), parse_constant=_reject_constant)
        except JsonTooDeep as exc:
            raise JsonTooDeepError(f"JSON nested deeper than {MAX_DEPTH} levels.") from exc
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from exc


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
