"""Build the production stack's images with no registry: ``python -m deploy.offline.build
ensure [--fresh]`` (as root, like the runner images' offline path) prints the tags.

Four images, made the way ``sandbox/images/build.py`` makes the runner images: a
debootstrap rootfs of Debian packages, ``docker import``-ed, tagged by a hash of the
recipe, the rootfs tarballs and downloaded .debs cached under ``MOCKLOOP_SANDBOX_CACHE``:

- ``mockloop-offline-postgres:<hash>`` — Debian's ``postgresql-15`` and an entrypoint that
  initialises PGDATA on first start from POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB;
- ``mockloop-offline-redis:<hash>`` — Debian's ``redis-server``;
- ``mockloop-offline-coturn:<hash>`` — Debian's ``coturn`` with ``deploy/coturn/``'s files;
- ``mockloop-offline-app:<hash>`` — Debian's python3 base (imported once), then a
  ``docker build`` layer (``app.Dockerfile``): a virtualenv of wheels fetched from PyPI on
  the host, the project, the frontend and the translation catalogues built on the host,
  collectstatic. Its hash covers every file it copies, so a code change rebuilds only this
  layer (seconds).

Each is also tagged ``:latest``, which ``docker-compose.offline.yml`` runs unless
MOCKLOOP_OFFLINE_{APP,POSTGRES,REDIS,COTURN}_IMAGE name exact tags. Older tags are left alone.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.images import build as rootfs

OFFLINE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = OFFLINE_DIR.parent.parent
RECIPE_VERSION = "1"
# What ../../Dockerfile copies into the image (tools/, tests/ and bench/ stay out).
APP_SOURCES = ("pyproject.toml", "README.md", "manage.py", "mockloop", "interviews", "sandbox")
# Made on the host by `make setup`: the frontend build and the compiled catalogues (the
# .mo beside each .po in locale/).
APP_DATA = ("bank", "frontend/dist", "locale")
# setuptools for the project's own install inside the image (the build needs >= 69;
# bookworm's venv ships 66), so that step needs no index either.
BUILD_REQUIREMENTS = ("setuptools>=69", "wheel")
SKIP_NAMES = ("__pycache__", ".pytest_cache")


def say(message: str) -> None:
    print(f"[offline-stack] {message}", flush=True)


@dataclass(frozen=True)
class BaseRecipe:
    """A debootstrap rootfs: packages, files written into it, import-time metadata."""

    name: str
    packages: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)  # path in the image -> recipe file
    changes: tuple[str, ...] = ()
    steps: tuple[Callable[[Path], None], ...] = ()

    def version(self) -> str:
        spec = {
            "suite": rootfs.SUITE,
            "packages": self.packages,
            "changes": self.changes,
            "recipe": RECIPE_VERSION,
            "files": {k: (OFFLINE_DIR / v).read_text() for k, v in sorted(self.files.items())},
        }
        return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]

    def tag(self) -> str:
        return f"mockloop-offline-{self.name}:{self.version()}"

    def install_files(self, root: Path) -> None:
        for target, source in self.files.items():
            path = root / target.lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text((OFFLINE_DIR / source).read_text())
            path.chmod((OFFLINE_DIR / source).stat().st_mode & 0o755)


def _owned_dir(path: str, user: str) -> Callable[[Path], None]:
    """A step that creates ``path`` owned by the rootfs's own ``user`` (its uid is the
    package's choice, so it is read from the rootfs's passwd, not the host's)."""

    def step(root: Path) -> None:
        for line in (root / "etc/passwd").read_text().splitlines():
            name, _, uid, gid, *_ = line.split(":")
            if name == user:
                target = root / path.lstrip("/")
                target.mkdir(parents=True, exist_ok=True)
                os.chown(target, int(uid), int(gid))
                return
        raise rootfs.BuildError(f"the rootfs has no user {user!r}")

    return step


def _drop_debian_cluster(root: Path) -> None:
    """postgresql-15's postinst creates a `main` cluster; the entrypoint makes its own."""
    for path in ("var/lib/postgresql/15", "etc/postgresql/15"):
        subprocess.run(["rm", "-rf", str(root / path)], check=True)


POSTGRES = BaseRecipe(
    name="postgres",
    packages=("postgresql-15",),
    files={"/usr/local/bin/mockloop-postgres": "postgres-entrypoint.sh"},
    changes=(
        "ENV PATH=/usr/lib/postgresql/15/bin:"
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "ENV PGDATA=/var/lib/postgresql/data",
        "ENV LANG=C.UTF-8",
        'ENTRYPOINT ["/usr/local/bin/mockloop-postgres"]',
        'CMD ["postgres"]',
        "EXPOSE 5432",
    ),
    steps=(_drop_debian_cluster, _owned_dir("/var/lib/postgresql/data", "postgres")),
)
REDIS = BaseRecipe(
    name="redis",
    packages=("redis-server",),
    files={"/usr/local/bin/mockloop-redis": "redis-entrypoint.sh"},
    changes=(
        'ENTRYPOINT ["/usr/local/bin/mockloop-redis"]',
        'CMD ["redis-server"]',
        "WORKDIR /data",
        "EXPOSE 6379",
    ),
    steps=(_owned_dir("/data", "redis"),),
)
# The call relay, as deploy/coturn/Dockerfile builds it (same files, same user).
COTURN = BaseRecipe(
    name="coturn",
    packages=("coturn",),
    files={
        "/etc/mockloop/turnserver.conf": "../coturn/turnserver.conf",
        "/usr/local/bin/mockloop-turnserver": "../coturn/start.sh",
    },
    changes=("USER turnserver", 'CMD ["mockloop-turnserver"]'),
)
APP_BASE = BaseRecipe(
    name="app-base",
    packages=("python3", "python3-venv", "ca-certificates"),
)


def ensure_base(client, recipe: BaseRecipe, *, fresh: bool = False) -> str:
    tag = recipe.tag()
    if fresh or not rootfs.image_exists(client, tag):
        started = time.monotonic()
        rootfs.build_rootfs_image(
            client,
            f"stack-{recipe.name}",
            list(recipe.packages),
            tag,
            extra_steps=(recipe.install_files, *recipe.steps),
            changes=list(recipe.changes),
            fresh=fresh,
        )
        say(f"{tag} ready ({time.monotonic() - started:.0f} s)")
    return tag


# ---------------------------------------------------------------------------------- app


def _files(paths: tuple[str, ...]) -> Iterator[Path]:
    for name in paths:
        top = PROJECT_DIR / name
        if not top.exists():
            raise rootfs.BuildError(f"{top} is missing (run `make setup` first)")
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            if path.is_file() and not set(path.relative_to(top).parts) & set(SKIP_NAMES):
                yield path


def _requirements() -> list[str]:
    import tomllib

    project = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *BUILD_REQUIREMENTS]


def _python_version(command: list[str]) -> str:
    script = "import platform; print(platform.python_version())"
    result = subprocess.run([*command, "-c", script], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def ensure_wheels(base: str) -> Path:
    """Every dependency as a wheel, fetched by the host's pip (its index configuration,
    PyPI or a mirror), cached per requirement list: the image build needs no network.
    The pip runs on the same Python version as the image's (by default Debian's
    /usr/bin/python3, as the image's is): environment markers (e.g. redis needs
    async-timeout before 3.11.3) are evaluated for the interpreter that resolves."""
    python = os.environ.get("MOCKLOOP_OFFLINE_PYTHON", "/usr/bin/python3")
    wanted = _python_version(["docker", "run", "--rm", "--network", "none", base, "python3"])
    have = _python_version([python])
    if have != wanted:
        raise rootfs.BuildError(
            f"{python} is Python {have}, the image's is {wanted}: set MOCKLOOP_OFFLINE_PYTHON "
            "to a Python of the image's version (with pip) to fetch the wheels"
        )
    requirements = _requirements()
    key = hashlib.sha256(json.dumps([wanted, *requirements]).encode()).hexdigest()[:12]
    target = rootfs.cache_dir() / f"stack-wheels-{key}"
    if not (target / ".complete").exists():
        say(f"pip wheel {len(requirements)} requirements for Python {wanted} into {target}")
        partial = target.with_suffix(".partial")
        subprocess.run(["rm", "-rf", str(partial)], check=True)
        subprocess.run(
            [python, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(partial)] + requirements,
            check=True,
        )
        (partial / ".complete").touch()
        subprocess.run(["rm", "-rf", str(target)], check=True)
        partial.rename(target)
    return target


def _app_context(base: str, wheels: Path) -> tuple[bytes, str]:
    """The build context (tar) and its hash: the Dockerfile, the wheels, the sources."""
    digest = hashlib.sha256(base.encode())
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        dockerfile = (OFFLINE_DIR / "app.Dockerfile").read_text().replace("{base}", base)
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(dockerfile.encode())
        tar.addfile(info, io.BytesIO(dockerfile.encode()))
        digest.update(dockerfile.encode())
        for wheel in sorted(wheels.glob("*.whl")):
            tar.add(wheel, arcname=f"wheels/{wheel.name}")
            digest.update(wheel.name.encode())
        for path in _files(APP_SOURCES + APP_DATA):
            rel = path.relative_to(PROJECT_DIR).as_posix()
            tar.add(path, arcname=f"src/{rel}")
            digest.update(rel.encode() + b"\0" + path.read_bytes())
    return buffer.getvalue(), digest.hexdigest()[:12]


def ensure_app(client, *, fresh: bool = False) -> str:
    base = ensure_base(client, APP_BASE, fresh=fresh)
    context, version = _app_context(base, ensure_wheels(base))
    tag = f"mockloop-offline-app:{version}"
    if fresh or not rootfs.image_exists(client, tag):
        started = time.monotonic()
        say(f"docker build {tag} on {base} ({len(context) >> 20} MiB context)")
        rootfs._stream_build(
            client, fileobj=io.BytesIO(context), custom_context=True, tag=tag, pull=False
        )
        say(f"{tag} ready ({time.monotonic() - started:.0f} s)")
    return tag


@contextlib.contextmanager
def _stack_lock() -> Iterator[None]:
    """One stack build at a time; not the runner images' lock, which a stack build (minutes
    of debootstrap) would otherwise hold against every test run's runner check."""
    rootfs.cache_dir().mkdir(parents=True, exist_ok=True)
    with open(rootfs.cache_dir() / ".stack-lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def ensure(*, fresh: bool = False) -> dict[str, str]:
    """Build what is missing; returns ``{service: tag}``, each also tagged ``:latest``."""
    client = rootfs.docker_client()
    with _stack_lock():
        tags = {
            "postgres": ensure_base(client, POSTGRES, fresh=fresh),
            "redis": ensure_base(client, REDIS, fresh=fresh),
            "coturn": ensure_base(client, COTURN, fresh=fresh),
            "app": ensure_app(client, fresh=fresh),
        }
    for tag in tags.values():
        repo, _, _ = tag.partition(":")
        client.images.get(tag).tag(repo, "latest")
    return tags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.offline.build")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("ensure", help="build the stack's images that are missing")
    cmd.add_argument("--fresh", action="store_true", help="re-run debootstrap too")
    args = parser.parse_args(argv)
    try:
        tags = ensure(fresh=args.fresh)
    except rootfs.BuildError as exc:
        say(f"error: {exc}")
        return 1
    for service, tag in tags.items():
        print(f"MOCKLOOP_OFFLINE_{service.upper()}_IMAGE={tag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
