"""Rate limits of the submission API beyond the general per-scope ones (`base.ScopedThrottle`)."""

import logging

from django.utils.translation import ngettext
from redis.exceptions import RedisError
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)


class SubmitPartThrottle(SimpleRateThrottle):
    """Submits of one part of one question in one stage, per user (scope `submit_part`),
    on top of the general `submissions` cap: each submit shows a verdict per hidden test,
    so rapid repeats of the same part are how hidden inputs get probed. Runs and other
    parts are not counted. Fails open when the cache is unreachable, as ScopedThrottle
    does."""

    scope = "submit_part"

    def __init__(self) -> None:  # the rate is read per request (settings overrides)
        pass

    def get_cache_key(self, request, view) -> str | None:
        data = request.data
        if not request.user.is_authenticated or not hasattr(data, "get"):
            return None
        if data.get("mode") != "submit":
            return None
        key = [data.get(name) for name in ("stage", "question", "part")]
        if not all(type(value) is int for value in key):
            return None  # the input serializer refuses it
        ident = ":".join(str(value) for value in [request.user.pk, *key])
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request, view) -> bool:
        self.rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            allowed = super().allow_request(request, view)
        except (RedisError, OSError):
            logger.warning("throttle %s skipped: cache unreachable", self.scope, exc_info=True)
            return True
        if not allowed:
            raise PartThrottled(
                wait=max(1, round(self.wait() or 1)),
                count=self.num_requests,
                seconds=self.duration,
            )
        return True


class PartThrottled(exceptions.Throttled):
    """429 with one translated sentence, the wait included (DRF's Throttled appends an
    English "Expected available in …" that no catalogue can match)."""

    def __init__(self, *, wait: int, count: int, seconds: int):
        detail = ngettext(
            "You submitted this part %(count)s times in the last %(seconds)s s, the most "
            "allowed (running it on the samples is not limited this way). Expected available "
            "in %(wait)s second.",
            "You submitted this part %(count)s times in the last %(seconds)s s, the most "
            "allowed (running it on the samples is not limited this way). Expected available "
            "in %(wait)s seconds.",
            wait,
        ) % {"count": count, "seconds": seconds, "wait": wait}
        super().__init__(detail=detail)
        self.wait = wait  # Retry-After
