"""The offline rootfs build survives what debootstrap leaves mounted in its build root.

Seen on a fresh machine: debootstrap left ``proc`` mounted inside the root, and the build
walked into the host's ``/proc`` and died (``FileNotFoundError: …/proc/6151/task/…``).
These tests run the real build recipe with a stand-in for debootstrap that lays down a
tiny root and leaves real mounts in it (a proc, a busy tmpfs on ``sys``, a tmpfs on
``dev``): the build must unmount them, tar none of their contents, and leave nothing
mounted, whether it succeeds or fails.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

from sandbox.images import build

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting needs root")

FAKE_DEBOOTSTRAP = """#!/bin/sh
# Stand-in for debootstrap: the last two arguments are ROOT and MIRROR.
for arg; do prev="$root"; root="$arg"; done
root="$prev"
mkdir -p "$root/etc" "$root/var" "$root/usr/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
echo 'root:x:0:0::/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo '#!/bin/sh' > "$root/usr/bin/tool" && chmod 4755 "$root/usr/bin/tool"
mount -t proc proc "$root/proc"
mount -t tmpfs tmpfs "$root/dev" && echo host-device > "$root/dev/marker"
mount -t tmpfs tmpfs "$root/sys" && echo host-sys > "$root/sys/marker"
# A process still inside sys/ keeps that mount busy for a moment after we exit.
(cd "$root/sys" && sleep 1.5) >/dev/null 2>&1 &
echo "I: Base system installed successfully."
exit ${FAKE_EXIT:-0}
"""


@pytest.fixture
def fake_debootstrap(tmp_path, monkeypatch):
    script = tmp_path / "debootstrap"
    script.write_text(FAKE_DEBOOTSTRAP)
    script.chmod(0o755)
    cache = tmp_path / "cache"
    monkeypatch.setattr(build, "DEBOOTSTRAP", str(script), raising=False)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    monkeypatch.setenv("MOCKLOOP_SANDBOX_CACHE", str(cache))
    yield cache
    for point in sorted(_mounted_under(tmp_path), key=len, reverse=True):
        subprocess.run(["umount", "-l", point], check=False)


def _mounted_under(path: Path) -> list[str]:
    with open("/proc/self/mounts") as fh:
        return [line.split()[1] for line in fh if line.split()[1].startswith(str(path))]


def test_build_unmounts_what_debootstrap_left_and_tars_none_of_it(fake_debootstrap):
    target = fake_debootstrap / "python-test.tar"
    started = time.monotonic()
    build.make_rootfs_tarball("python", target)

    assert _mounted_under(fake_debootstrap) == []
    assert not (fake_debootstrap / "build-python").exists()
    with tarfile.open(target) as tar:
        names = tar.getnames()
        members = {m.name: m for m in tar.getmembers()}
    assert "./etc/passwd" in names and "./usr/bin/tool" in names
    for pseudo in ("proc", "sys", "dev"):
        assert f"./{pseudo}" in names, f"{pseudo}/ itself stays, as an empty directory"
        inside = [n for n in names if n.startswith(f"./{pseudo}/")]
        assert inside == [], f"{pseudo}/ contents were tarred: {inside[:5]}"
    assert not members["./usr/bin/tool"].mode & 0o6000, "setuid bits are stripped"
    with tarfile.open(target) as tar:
        passwd = tar.extractfile("./etc/passwd").read().decode()
    assert build.RUNNER_USER in passwd
    # the busy sys/ mount was retried until free, not given up on at once
    assert time.monotonic() - started >= 1.0


def test_failed_debootstrap_leaves_nothing_mounted(fake_debootstrap, monkeypatch):
    monkeypatch.setenv("FAKE_EXIT", "1")
    target = fake_debootstrap / "python-test.tar"
    with pytest.raises(build.BuildError, match="debootstrap failed"):
        build.make_rootfs_tarball("python", target)
    assert _mounted_under(fake_debootstrap) == []
    assert not (fake_debootstrap / "build-python").exists()
    assert not target.exists()


def test_a_mount_that_stays_busy_is_detached_lazily(tmp_path):
    root = tmp_path / "root"
    (root / "proc").mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(root / "proc")], check=True)
    holder = subprocess.Popen(["sleep", "30"], cwd=root / "proc")
    try:
        build._unmount_under(root, attempts=2)
        assert _mounted_under(root) == []
    finally:
        holder.kill()
        holder.wait()
