"""Build the runner images: ``python -m sandbox.images.build ensure [--force] [--fresh]``.

Each language has ``sandbox/images/<lang>/Dockerfile``. Its tag is
``mockloop-runner-<lang>:<hash>`` (also tagged ``:latest``), where the hash covers every
build input (the Dockerfile, ``sandbox/runner.py``, ``sandbox/wrappers/*``, this
recipe's version), so the engine always runs an image built from the code it ships with.

``ensure`` builds only what is missing:

1. **Registry path** — if a registry answers within a few seconds, ``docker build`` the
   Dockerfile with ``sandbox/`` as context.
2. **Offline path** (air-gapped hosts, this project's CI) — ``debootstrap
   --variant=minbase --include=<the Dockerfile's apt packages> bookworm`` from the
   Debian mirror apt is configured with, pruned (docs, apt lists, setuid bits), plus the
   ``runner`` user; the rootfs is cached as a tarball under ``var/sandbox-rootfs/`` and
   ``docker import``-ed as ``mockloop-rootfs-<lang>:<base hash>``; then the Dockerfile's
   part after ``# ---- runner layer ----`` is built on top of it (no network needed).
   A change to the runner alone rebuilds in about a second; a change to the package
   list re-runs debootstrap (downloaded .debs are cached too).

Older tags are kept: a worker still running older code keeps finding its image, and an
image that differs only in the runner layer costs a few kilobytes.

``MOCKLOOP_SANDBOX_BUILD=offline|registry|auto`` forces a path,
``MOCKLOOP_DEBIAN_MIRROR`` the mirror, ``MOCKLOOP_SANDBOX_CACHE`` the cache directory.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import hashlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

SANDBOX_DIR = Path(__file__).resolve().parent.parent
IMAGES_DIR = SANDBOX_DIR / "images"
PROJECT_DIR = SANDBOX_DIR.parent
LANGUAGES = ("python", "javascript", "cpp", "go")
RECIPE_VERSION = "1"
SUITE = "bookworm"
RUNNER_MARKER = "# ---- runner layer ----"
RUNNER_INPUTS = (
    "runner.py",
    "slot.py",
    "inner_seccomp.py",
    "zygote.py",
    "python_start.py",
    "wrappers/function_python.py",
    "wrappers/function_node.js",
    "wrappers/snapshot_node.js",
    "wrappers/warm_node.js",
    "wrappers/function_cpp.hpp",
    "wrappers/function_go.go.tmpl",
)
PRUNE = (
    "usr/share/doc",
    "usr/share/man",
    "usr/share/info",
    "usr/share/locale",
    "usr/share/lintian",
    "var/cache/apt",
    "var/cache/debconf/templates.dat-old",
    "var/lib/apt/lists",
    "var/log",
)
RUNNER_USER = "runner:x:10001:10001:mockloop runner:/tmp:/usr/sbin/nologin\n"
RUNNER_GROUP = "runner:x:10001:\n"
# debootstrap mounts these inside the build root; their contents are the host's.
HOST_FILESYSTEMS = ("proc", "sys", "dev")
DEBOOTSTRAP = "debootstrap"
UNMOUNT_ATTEMPTS = 10
UNMOUNT_RETRY_SECONDS = 0.5


class BuildError(RuntimeError):
    pass


def say(message: str) -> None:
    print(f"[sandbox-images] {message}", flush=True)


# ------------------------------------------------------------------------------- inputs


def dockerfile(language: str) -> str:
    return (IMAGES_DIR / language / "Dockerfile").read_text()


def packages(language: str) -> list[str]:
    """The apt packages the Dockerfile installs: the offline path installs the same."""
    text = dockerfile(language).replace("\\\n", " ")
    match = re.search(r"--no-install-recommends\s+([^&\n]+)", text)
    if not match:
        raise BuildError(f"{language}: no 'apt-get install --no-install-recommends' line")
    return match.group(1).split()


def runner_layer(language: str) -> str:
    text = dockerfile(language)
    if RUNNER_MARKER not in text:
        raise BuildError(f"{language}: Dockerfile lacks the {RUNNER_MARKER!r} marker")
    return text.split(RUNNER_MARKER, 1)[1]


def base_hash(language: str) -> str:
    spec = {"suite": SUITE, "packages": packages(language), "recipe": RECIPE_VERSION}
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


def image_hash(language: str) -> str:
    digest = hashlib.sha256()
    digest.update(base_hash(language).encode())
    digest.update(dockerfile(language).encode())
    for name in RUNNER_INPUTS:
        digest.update(name.encode() + b"\0" + (SANDBOX_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


def image_repo(language: str) -> str:
    return f"mockloop-runner-{language}"


def image_tag(language: str) -> str:
    """The exact image the engine must run for ``language``."""
    override = os.environ.get(f"MOCKLOOP_SANDBOX_IMAGE_{language.upper()}")
    return override or f"{image_repo(language)}:{image_hash(language)}"


def cache_dir() -> Path:
    return Path(os.environ.get("MOCKLOOP_SANDBOX_CACHE", PROJECT_DIR / "var" / "sandbox-rootfs"))


# ------------------------------------------------------------------------------- docker


def docker_client():
    import docker

    return docker.from_env(timeout=600)


def image_exists(client, tag: str) -> bool:
    import docker.errors

    try:
        client.images.get(tag)
        return True
    except docker.errors.ImageNotFound:
        return False


def registry_reachable(client, timeout: float = 3.0) -> bool:
    """Does a registry (the daemon's mirror, else Docker Hub) answer quickly?"""
    mode = os.environ.get("MOCKLOOP_SANDBOX_BUILD", "auto")
    if mode in ("offline", "registry"):
        return mode == "registry"
    hosts = []
    with contextlib.suppress(Exception):
        for mirror in client.info().get("RegistryConfig", {}).get("Mirrors") or []:
            hosts.append(re.sub(r"^https?://", "", mirror).split("/")[0])
    hosts.append("registry-1.docker.io")
    answered: list[bool] = []

    def probe() -> None:
        for host in hosts:
            name, _, port = host.partition(":")
            try:
                with socket.create_connection((name, int(port or 443)), timeout=timeout):
                    answered.append(True)
                    return
            except OSError:
                continue

    # name resolution has no timeout of its own: bound the whole probe
    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout * len(hosts) + 1)
    return bool(answered)


def _stream_build(client, **kwargs) -> None:
    last = ""
    for chunk in client.api.build(decode=True, rm=True, forcerm=True, **kwargs):
        if "error" in chunk:
            raise BuildError(chunk["error"].strip())
        line = (chunk.get("stream") or "").strip()
        if line.startswith("Step "):
            say(f"  {line}")
        last = line or last


def build_from_registry(client, language: str, tag: str) -> None:
    say(f"{language}: docker build from {IMAGES_DIR / language / 'Dockerfile'}")
    _stream_build(
        client,
        path=str(SANDBOX_DIR),
        dockerfile=f"images/{language}/Dockerfile",
        tag=tag,
        pull=True,
    )


# ------------------------------------------------------------------------------- offline


def debian_mirror(files: list[str] | None = None) -> str:
    """The Debian archive apt is configured with (deb822 or one-line sources)."""
    if os.environ.get("MOCKLOOP_DEBIAN_MIRROR"):
        return os.environ["MOCKLOOP_DEBIAN_MIRROR"]
    if files is None:
        files = ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*"))]
    for path in files:
        try:
            text = Path(path).read_text()
        except OSError:
            continue
        if path.endswith(".sources"):
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(
                    (k.strip().lower(), v.strip())
                    for k, _, v in (line.partition(":") for line in stanza.splitlines())
                    if not k.startswith("#") and v
                )
                suites = fields.get("suites", "").split()
                if SUITE in suites and "deb" in fields.get("types", "").split():
                    return fields["uris"].split()[0]
        else:
            for line in text.splitlines():
                parts = line.split("#", 1)[0].split()
                if len(parts) >= 3 and parts[0] == "deb":
                    uri_index = 2 if parts[1].startswith("[") else 1
                    if uri_index + 1 < len(parts) and parts[uri_index + 1] == SUITE:
                        return parts[uri_index]
    return "http://deb.debian.org/debian"


def _mounts_under(root: Path) -> list[str]:
    """Mount points at or below ``root`` (from /proc/self/mounts, octal escapes decoded)."""
    prefix = str(root)
    with open("/proc/self/mounts") as fh:
        points = [
            re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[1])
            for line in fh
        ]
    return [p for p in points if p == prefix or p.startswith(prefix + "/")]


def _unmount_under(root: Path, *, attempts: int = UNMOUNT_ATTEMPTS) -> None:
    """Unmount everything debootstrap left mounted inside the build root (proc, sys, a
    bind of the host's /dev…), deepest first. A busy mount is retried (a process still
    starting or exiting inside the chroot lets go within a moment); after that it is
    detached lazily. Raises if anything is still mounted: walking, tarring or removing
    the root with a host filesystem inside it would read or delete the host's files."""
    for attempt in range(attempts):
        points = _mounts_under(root)
        if not points:
            return
        for point in sorted(points, key=len, reverse=True):
            subprocess.run(["umount", point], capture_output=True, check=False)
        if _mounts_under(root) and attempt < attempts - 1:
            time.sleep(UNMOUNT_RETRY_SECONDS)
    for point in sorted(_mounts_under(root), key=len, reverse=True):
        say(f"{point} is busy; detaching it lazily")
        subprocess.run(["umount", "-l", point], capture_output=True, check=False)
    left = _mounts_under(root)
    if left:
        raise BuildError(f"could not unmount {', '.join(left)}; unmount them by hand")


def _remove_root(root: Path) -> None:
    if root.exists() or _mounts_under(root):
        _unmount_under(root)
        shutil.rmtree(root, ignore_errors=True)


def _strip_setuid(root: Path) -> None:
    """Clear setuid/setgid bits in the rootfs, never descending into another filesystem
    (the pseudo-filesystems' mount points stay empty directories)."""
    root_dev = os.lstat(root).st_dev
    for dirpath, dirs, files in os.walk(root):
        if dirpath == str(root):
            dirs[:] = [d for d in dirs if d not in HOST_FILESYSTEMS]
        dirs[:] = [d for d in dirs if os.lstat(os.path.join(dirpath, d)).st_dev == root_dev]
        for name in files:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if not os.path.islink(path) and st.st_mode & 0o6000:
                os.chmod(path, st.st_mode & ~0o6000)


def _tar_rootfs(root: Path, target: Path) -> None:
    """Tar the rootfs: one filesystem only, and no contents of proc/, sys/ or dev/ (the
    container runtime provides all three)."""
    partial = target.with_suffix(".tmp")
    excludes = [f"--exclude=./{name}/*" for name in HOST_FILESYSTEMS]
    subprocess.run(
        ["tar", "--numeric-owner", "--one-file-system", *excludes, "-C", str(root)]
        + ["-cf", str(partial), "."],
        check=True,
    )
    partial.rename(target)


def _add_runner_user(root: Path) -> None:
    with open(root / "etc/passwd", "a") as fh:
        fh.write(RUNNER_USER)
    with open(root / "etc/group", "a") as fh:
        fh.write(RUNNER_GROUP)


def make_rootfs_tarball(
    language: str,
    target: Path,
    *,
    pkgs: list[str] | None = None,
    extra_steps: tuple[Callable[[Path], None], ...] = (_add_runner_user,),
) -> None:
    """debootstrap ``pkgs`` (default: the runner Dockerfile's for ``language``, which then
    only names the build), prune, run ``extra_steps`` on the root, tar it to ``target``."""
    if os.geteuid() != 0:
        raise BuildError("the offline build runs debootstrap and needs root")
    if not shutil.which(DEBOOTSTRAP):
        raise BuildError("debootstrap is not installed (apt-get install debootstrap)")
    pkgs = packages(language) if pkgs is None else pkgs
    debs = cache_dir() / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    root = (cache_dir() / f"build-{language}").resolve()
    _remove_root(root)
    mirror = debian_mirror()
    say(f"{language}: debootstrap {SUITE} minbase + {','.join(pkgs)} from {mirror}")
    cmd = [
        DEBOOTSTRAP,
        "--variant=minbase",
        f"--include={','.join(pkgs)}",
        f"--cache-dir={debs.resolve()}",
        SUITE,
        str(root),
        mirror,
    ]
    started = time.monotonic()
    try:
        _debootstrap(language, cmd)
        # debootstrap can leave proc/ (and sys/, a bind of /dev) mounted inside the root.
        _unmount_under(root)
        for rel in PRUNE:
            shutil.rmtree(root / rel, ignore_errors=True)
        (root / "var/log").mkdir(exist_ok=True)
        (root / "var/cache/apt/archives/partial").mkdir(parents=True, exist_ok=True)
        for step in extra_steps:
            step(root)
        _strip_setuid(root)
        _tar_rootfs(root, target)
    finally:
        _remove_root(root)
    size = target.stat().st_size >> 20
    say(f"{language}: rootfs {size} MiB cached at {target} ({time.monotonic() - started:.0f} s)")


def _debootstrap(language: str, cmd: list[str]) -> None:
    """Run debootstrap, echoing one line per phase (and every 40th line) as progress."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    tail: list[str] = []
    phase, count = "", 0
    for line in proc.stdout:
        line = line.rstrip()
        tail = (tail + [line])[-20:]
        word = line[3:].split(" ", 1)[0] if line.startswith("I: ") else ""
        word = "Retrieving" if word == "Validating" else word
        if word and word != phase:
            phase, count = word, 0
            say(f"{language}:   {line[3:]}")
        count += 1
        if count and count % 40 == 0:
            say(f"{language}:   {line[3:]}")
    if proc.wait() != 0:
        raise BuildError(f"debootstrap failed for {language}:\n" + "\n".join(tail))


def build_rootfs_image(
    client,
    name: str,
    pkgs: list[str],
    tag: str,
    *,
    extra_steps: tuple[Callable[[Path], None], ...] = (),
    changes: list[str] | None = None,
    fresh: bool = False,
) -> None:
    """``docker import`` a debootstrap rootfs of ``pkgs`` as ``tag`` (``repo:version``),
    its tarball cached as ``<cache>/<name>-<version>.tar`` (older ones of ``name`` are
    removed). ``changes`` are ``docker import --change`` lines (ENV, CMD, USER…): an
    imported image has no other metadata."""
    repo, _, version = tag.partition(":")
    tarball = cache_dir() / f"{name}-{version}.tar"
    if fresh or not tarball.exists():
        for old in cache_dir().glob(f"{name}-*.tar"):
            old.unlink()
        make_rootfs_tarball(name, tarball, pkgs=pkgs, extra_steps=extra_steps)
    say(f"{name}: docker import {tarball.name} as {tag}")
    client.api.import_image_from_file(str(tarball), repository=repo, tag=version, changes=changes)


def build_offline(client, language: str, tag: str, *, fresh: bool) -> None:
    rootfs_tag = f"mockloop-rootfs-{language}:{base_hash(language)}"
    if fresh or not image_exists(client, rootfs_tag):
        build_rootfs_image(
            client,
            language,
            packages(language),
            rootfs_tag,
            extra_steps=(_add_runner_user,),
            fresh=fresh,
        )
    say(f"{language}: adding the runner layer on {rootfs_tag}")
    context = io.BytesIO()
    with tarfile.open(fileobj=context, mode="w") as tar:
        df = f"FROM {rootfs_tag}\n{runner_layer(language)}".encode()
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(df)
        tar.addfile(info, io.BytesIO(df))
        for name in RUNNER_INPUTS:
            tar.add(SANDBOX_DIR / name, arcname=name)
    context.seek(0)
    _stream_build(client, fileobj=context, custom_context=True, tag=tag, pull=False)


# ------------------------------------------------------------------------------- ensure


@contextlib.contextmanager
def _build_lock():
    cache_dir().mkdir(parents=True, exist_ok=True)
    with open(cache_dir() / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def ensure(languages=LANGUAGES, *, force: bool = False, fresh: bool = False) -> dict[str, str]:
    """Make sure each language's image exists; returns ``{language: tag}``."""
    client = docker_client()
    tags = {lang: image_tag(lang) for lang in languages}
    missing = [lang for lang in languages if force or fresh or not image_exists(client, tags[lang])]
    if not missing:
        say("images up to date: " + ", ".join(tags.values()))
        return tags
    with _build_lock():
        online = None
        for language in missing:
            tag = tags[language]
            if not (force or fresh) and image_exists(client, tag):
                continue
            started = time.monotonic()
            if online is None:
                online = registry_reachable(client)
                say("registry reachable: docker build" if online else "no registry: offline build")
            built = False
            if online:
                try:
                    build_from_registry(client, language, tag)
                    built = True
                except Exception as exc:  # noqa: BLE001 - fall back to the offline path
                    say(f"{language}: registry build failed ({exc}); trying offline")
            if not built:
                build_offline(client, language, tag, fresh=fresh)
            client.images.get(tag).tag(image_repo(language), "latest")
            say(f"{language}: {tag} ready ({time.monotonic() - started:.1f} s)")
    return tags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.images.build")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("ensure", help="build the runner images that are missing")
    cmd.add_argument("--force", action="store_true", help="rebuild even if present")
    cmd.add_argument("--fresh", action="store_true", help="also re-run debootstrap")
    cmd.add_argument("languages", nargs="*", default=list(LANGUAGES))
    sub.add_parser("tags", help="print the image tag of each language")
    args = parser.parse_args(argv)
    if args.command == "tags":
        for lang in LANGUAGES:
            print(lang, image_tag(lang))
        return 0
    unknown = set(args.languages) - set(LANGUAGES)
    if unknown:
        parser.error(f"unknown language(s): {', '.join(sorted(unknown))}")
    try:
        ensure(tuple(args.languages), force=args.force, fresh=args.fresh)
    except BuildError as exc:
        say(f"error: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
