"""API views: stages."""

urlpatterns: list = []
