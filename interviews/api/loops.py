"""API views: loops."""

urlpatterns: list = []
