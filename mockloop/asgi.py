"""ASGI entry point: HTTP through Django, websockets through Channels (live rooms)."""

import gc
import os
import sys

import django

#: Garbage-collector thresholds of a web process (see the end of this module).
GC_THRESHOLDS = (10_000, 10, 100)
#: How long a thread holds the GIL before another waiting one gets it (Python: 5 ms).
SWITCH_INTERVAL_S = 0.001

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mockloop.settings")
django.setup(set_prefix=False)  # as get_asgi_application() does

from mockloop.handlers import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from interviews.realtime.auth import AuthStack  # noqa: E402
from interviews.realtime.routing import websocket_urlpatterns  # noqa: E402
from mockloop.limits import RequestBodyLimit  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": RequestBodyLimit(django_asgi_app, settings.REQUEST_BODY_MAX_BYTES),
        "websocket": AllowedHostsOriginValidator(AuthStack(URLRouter(websocket_urlpatterns))),
    }
)

# Load the URLconf now rather than on the first request, then move the start-up heap out of
# the garbage collector's sight: it is never garbage, and a full collection under load no
# longer walks it. Measured with bench/live.py (200 rooms): pauses of 60-110 ms became
# 20-30 ms, and code-update p99 fell from 46-85 ms to 14 ms.
get_resolver().url_patterns  # noqa: B018 - imports every view module
gc.freeze()

# The collector's default thresholds (700, 10, 10) still ran a full collection every ~14 s
# under bench/live.py's 200 rooms: everything allocated since start-up (sockets, consumers,
# connections) walked again each time, 20-180 ms with the loop stopped (gc callbacks, a
# loaded host). Young garbage still dies in gen 0/1; full collections come about 140 times
# less often (none in a measured run after start-up; docs/decisions.md).
gc.set_threshold(*GC_THRESHOLDS)
# The room log's and requests' threads run Python between their database calls; the event
# loop, which releases the GIL at every poll, then waits up to the switch interval to get
# it back, on every iteration (default 5 ms: several per relayed keystroke).
sys.setswitchinterval(SWITCH_INTERVAL_S)
