"""Routes of /api/v1/ (contract in DESIGN.md "HTTP API")."""

urlpatterns: list = []
