"""The single-page app's entry: every non-API path serves the built index.html."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import ensure_csrf_cookie

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8">
<title>Mockloop</title></head>
<body><h1>Mockloop</h1>
<p>The frontend is not built yet: run <code>make run</code>.</p></body></html>"""


@ensure_csrf_cookie
def spa_index(request: HttpRequest) -> HttpResponse:
    """Serve the SPA shell (and set the CSRF cookie the API client sends back). The shell
    names this build's hashed assets, so browsers must ask again each time (the assets
    themselves are cached for a year: settings.WHITENOISE_IMMUTABLE_FILE_TEST)."""
    index = settings.FRONTEND_DIST / "index.html"
    body = index.read_text() if index.exists() else PLACEHOLDER
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    patch_cache_control(response, no_cache=True)
    return response
