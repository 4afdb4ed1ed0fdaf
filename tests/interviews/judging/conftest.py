import pytest

from tests.interviews.world import _fast_passwords, _fresh_cache, as_user, world  # noqa: F401


@pytest.fixture(scope="session", autouse=True)
def runner_images(request) -> None:
    """The integration tests here judge in the real sandbox: build its images first (a
    no-op when they are current)."""
    if any(item.get_closest_marker("integration") for item in request.session.items):
        from sandbox.images.build import ensure

        ensure()
