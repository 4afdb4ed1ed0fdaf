"""API views: submissions."""

urlpatterns: list = []
