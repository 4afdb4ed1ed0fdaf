"""Top-level routes: the API under /api/v1/, its schema and docs, the admin, and the SPA."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from interviews import report_pages
from interviews.api import errors
from interviews.views import spa_index
from mockloop import observability

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", observability.healthz, name="healthz"),
    path("readyz", observability.readyz, name="readyz"),
    path("metrics", observability.metrics, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/v1/", include("interviews.api.urls")),
    re_path(r"^api/", errors.api_not_found),
    *report_pages.urlpatterns,
    re_path(r"^(?!static/|admin/|ws/|healthz|readyz|metrics).*$", spa_index, name="spa"),
]

handler404 = errors.handler404
handler500 = errors.handler500
