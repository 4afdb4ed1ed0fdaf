"""The single-page app's entry: every non-API path serves the built index.html."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import ensure_csrf_cookie

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8">
<title>Mockloop</title></head>
<body><h1>Mockloop</h1>
<p>The frontend is not built yet: run <code>make run</code>.</p></body></html>"""


@ensure_csrf_cookie
def spa_index(request: HttpRequest) -> HttpResponse:
    """Serve the SPA shell (and set the CSRF cookie the API client sends back)."""
    index = settings.FRONTEND_DIST / "index.html"
    if index.exists():
        return HttpResponse(index.read_text(), content_type="text/html; charset=utf-8")
    return HttpResponse(PLACEHOLDER, content_type="text/html; charset=utf-8")
