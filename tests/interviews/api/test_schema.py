"""The OpenAPI schema documents every practice endpoint, and generating it raises no
warnings or errors from the practice API's own modules."""

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

PRACTICE_MODULES = [
    "interviews/api/accounts.py",
    "interviews/api/loops.py",
    "interviews/api/stage_kinds.py",
    "interviews/api/stages.py",
    "interviews/api/coach.py",
    "interviews/api/submissions.py",
    "interviews/api/practice_serializers.py",
    "interviews/api/base.py",
    "interviews/api/reports.py",
    "interviews/api/report_serializers.py",
]


@pytest.mark.django_db
def test_schema_covers_the_practice_api_without_warnings(as_user):
    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    messages = list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)
    ours = [m for m in messages if any(module in m for module in PRACTICE_MODULES)]
    assert ours == []
    paths = schema["paths"]
    for path, method in [
        ("/api/v1/auth/signup/", "post"),
        ("/api/v1/loops/", "post"),
        ("/api/v1/stages/{stage_id}/", "get"),
        ("/api/v1/stages/{stage_id}/scorecard/", "put"),
        ("/api/v1/submissions/", "post"),
        ("/api/v1/coach/queue/", "get"),
        ("/api/v1/stage-kinds/", "get"),
    ]:
        assert method in paths[path], path
    assert "202" in paths["/api/v1/submissions/"]["post"]["responses"]
    stage_detail = schema["components"]["schemas"]["StageDetail"]
    assert len(stage_detail["oneOf"]) == 2


@pytest.mark.django_db
def test_schema_endpoint_renders(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
