"""Routes of /api/v1/ (contract in DESIGN.md "HTTP API"); each module owns its routes."""

from . import (
    accounts,
    bank_io,
    coach,
    live,
    loops,
    ops,
    plans,
    questions,
    recordings,
    reports,
    rtc,
    scheduling,
    stage_kinds,
    stages,
    submissions,
)

urlpatterns = [
    *accounts.urlpatterns,
    *loops.urlpatterns,
    *stage_kinds.urlpatterns,
    *stages.urlpatterns,
    *submissions.urlpatterns,
    *coach.urlpatterns,
    *questions.urlpatterns,
    *live.urlpatterns,
    *reports.urlpatterns,
    *bank_io.urlpatterns,
    *ops.urlpatterns,
    *rtc.urlpatterns,
    *scheduling.urlpatterns,
    *recordings.urlpatterns,
    *plans.urlpatterns,
]
