"""Shared pieces of the practice API views: strict input serializers, the throttle and the
base view (a size-capped JSON parser; errors are mapped in errors.py)."""

import logging
from contextlib import ExitStack
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError
from rest_framework import serializers
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from interviews import i18n
from interviews.i18n import content_language_override, request_language

from .parsers import LimitedJSONParser

logger = logging.getLogger(__name__)


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses keys it does not know (a typo such as `languge`
    must not be silently dropped)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: [_("Unknown field.")] for key in unknown})
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """Only JSON strings (DRF would turn 12 into "12")."""

    default_error_messages = {"invalid": gettext_lazy("Not a valid string.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


#: What the database stores (a signed 64-bit column); past it a lookup raises OverflowError.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class StrictIntegerField(serializers.IntegerField):
    """Only JSON integers (DRF would accept "12" and 12.0), and only ones a database column
    can hold: `question: 2**70` is bad input, not an OverflowError in the lookup."""

    default_error_messages = {"out_of_range": gettext_lazy("Not a number this field can hold.")}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        if not INT64_MIN <= data <= INT64_MAX:
            self.fail("out_of_range")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """Only JSON true/false (DRF would accept "yes", "on", 1)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictDictField(serializers.DictField):
    """A JSON object of any shape (design notes, whiteboard scenes)."""

    def to_internal_value(self, data: Any) -> dict:
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        return data


class ScopedThrottle(ScopedRateThrottle):
    """ScopedRateThrottle reading the rates at request time, so settings overrides (and
    tests) take effect. Fails open when the cache (Redis) is unreachable: a rate limit is a
    guard, and a Redis restart must not turn a coach's follow-up push into a 500."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):
            logger.warning("throttle %s skipped: cache unreachable", self.scope, exc_info=True)
            return True


class PracticeApi(APIView):
    """Base of the practice views: JSON capped in size; bank text served in the request's
    language (`interviews.i18n`). Errors, domain ones included, become responses in the
    one exception handler (errors.py)."""

    parser_classes = [LimitedJSONParser]

    def perform_authentication(self, request) -> None:
        super().perform_authentication(request)
        # Once authenticated, before permissions and throttles can refuse: a token's user
        # has a saved language the middleware (which sees only sessions) could not read.
        i18n.activate_for(request)

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # After authentication: a token user's saved language counts too.
        self._content_language = ExitStack()
        self._content_language.enter_context(
            content_language_override(lambda: request_language(request))
        )

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        stack = getattr(self, "_content_language", None)
        if stack is not None:
            stack.close()
        return super().finalize_response(request, response, *args, **kwargs)
