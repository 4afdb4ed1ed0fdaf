"""Settings from environment variables, with `var/runtime.env` as a fallback.

`make run` writes where its Redis and database live into `var/runtime.env`, so a
`manage.py` command run beside it acts on the same data. Real environment variables
always win; tests set `MOCKLOOP_TESTING=1` so they never touch a developer's runtime.
"""

import os
import secrets
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("MOCKLOOP_VAR_DIR", BASE_DIR / "var"))
RUNTIME_ENV = VAR_DIR / "runtime.env"


def _read_runtime_env() -> dict[str, str]:
    if os.environ.get("MOCKLOOP_TESTING") or not RUNTIME_ENV.exists():
        return {}
    values = {}
    for line in RUNTIME_ENV.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


_RUNTIME = _read_runtime_env()


def env(name: str, default: str | None = None) -> str | None:
    """Return an env var, then the runtime file's value, then the default."""
    if name in os.environ:
        return os.environ[name]
    return _RUNTIME.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = env(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = env(name)
    return default if value in (None, "") else int(value)


def env_list(name: str, default: list[str]) -> list[str]:
    value = env(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def dev_secret_key() -> str:
    """A per-checkout secret generated into var/ on first use; never committed."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()
