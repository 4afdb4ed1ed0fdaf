"""The printable loop report: a server-rendered HTML page (session auth) with print CSS,
for reading offline or saving as PDF from the browser's print dialog, in the reader's
language (interviews/i18n.py)."""

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from interviews.i18n import activate_for
from interviews.selectors.loops import loop_for
from interviews.selectors.reports import loop_report
from interviews.services.errors import NotFound


@require_GET
def loop_report_page(request: HttpRequest, loop_id: int) -> HttpResponse:
    """Same rules as `GET /api/v1/loops/{id}/report/`: the report as this viewer may see
    it; a loop they may not see is a 404; signed-out visitors go to the sign-in page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url="/login")
    activate_for(request)  # the reader's saved language, unless ?lang= says otherwise
    try:
        loop = loop_for(request.user, loop_id)
    except NotFound:
        return render(request, "interviews/report_not_found.html", status=404)
    report = loop_report(loop=loop, viewer=request.user)
    return render(request, "interviews/loop_report.html", {"report": report})


urlpatterns = [
    path("loops/<int:loop_id>/report.html", loop_report_page, name="loop-report-page"),
]
