"""API views: questions."""

urlpatterns: list = []
