"""API views: accounts."""

urlpatterns: list = []
