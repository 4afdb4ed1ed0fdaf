"""API views: coach."""

urlpatterns: list = []
