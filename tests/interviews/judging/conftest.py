from tests.interviews.world import _fast_passwords, _fresh_cache, as_user, world  # noqa: F401
