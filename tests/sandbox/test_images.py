"""Runner image recipe: inputs, hashing, mirror discovery, and an idempotent ensure."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sandbox.images import build


def test_each_image_installs_python_for_the_runner():
    """python3 for the runner, bubblewrap and python3-seccomp for the inner sandbox."""
    base = ["python3", "bubblewrap", "python3-seccomp"]
    assert build.packages("python") == base
    assert build.packages("javascript") == [*base, "nodejs"]
    assert build.packages("cpp") == [*base, "g++", "nlohmann-json3-dev"]  # io: function
    assert build.packages("go") == [*base, "golang-go"]


def test_runner_layer_needs_no_network():
    """The offline build puts the runner layer on a debootstrap rootfs: the only RUNs
    allowed there byte-compile the runner with the image's own python3, have the runner
    build node's start-up snapshots or compile the inner seccomp filter (local files
    only)."""
    allowed = (
        ["python3", "-I", "-m", "compileall"],
        ["python3", "-I", "/opt/mockloop/runner.py", "--build-node-snapshots"],
        ["python3", "-I", "/opt/mockloop/inner_seccomp.py", "/opt/mockloop/inner-seccomp.bpf"],
    )
    for language in build.LANGUAGES:
        layer = build.runner_layer(language)
        assert "ENTRYPOINT" in layer and "USER 10001" in layer
        runs = [line for line in layer.replace("\\\n", " ").splitlines() if line.startswith("RUN")]
        for run in runs:
            for command in run.removeprefix("RUN").split("&&"):
                assert any(command.split()[: len(a)] == a for a in allowed), run


def test_tags_follow_the_build_inputs(monkeypatch, tmp_path):
    before = build.image_tag("python")
    assert before.startswith("mockloop-runner-python:") and len(before.split(":")[1]) == 12
    assert build.image_tag("python") == before
    fake = tmp_path / "sandbox"
    (fake / "wrappers").mkdir(parents=True)
    for name in build.RUNNER_INPUTS:
        (fake / name).write_bytes((build.SANDBOX_DIR / name).read_bytes())
    (fake / "images").symlink_to(build.IMAGES_DIR)
    monkeypatch.setattr(build, "SANDBOX_DIR", fake)
    assert build.image_tag("python") == before
    (fake / "runner.py").write_text("# changed\n")
    assert build.image_tag("python") != before


def test_debian_mirror_from_deb822_and_one_line_sources(tmp_path, monkeypatch):
    monkeypatch.delenv("MOCKLOOP_DEBIAN_MIRROR", raising=False)
    deb822 = tmp_path / "debian.sources"
    deb822.write_text(
        "Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n"
        "Components: main\n\nTypes: deb\n# comment\nURIs: http://mirror.example/debian\n"
        "Suites: bookworm bookworm-updates\nComponents: main\n"
    )
    assert build.debian_mirror([str(deb822)]) == "http://mirror.example/debian"
    one_line = tmp_path / "sources.list"
    one_line.write_text(
        "# deb http://old/ bookworm main\n"
        "deb [arch=amd64] http://other.example/debian bookworm main\n"
    )
    assert build.debian_mirror([str(one_line)]) == "http://other.example/debian"
    assert build.debian_mirror([str(tmp_path / "missing")]) == "http://deb.debian.org/debian"
    monkeypatch.setenv("MOCKLOOP_DEBIAN_MIRROR", "http://forced/debian")
    assert build.debian_mirror([str(deb822)]) == "http://forced/debian"


@pytest.mark.integration
def test_ensure_is_idempotent(images):
    """A second ensure builds nothing: same image ids, no build step started (a wall-clock
    bound here was flaky on a loaded host; what "fast" meant is "did no work")."""
    client = build.docker_client()
    ids = {language: client.images.get(tag).id for language, tag in images.items()}
    out = subprocess.run(
        [sys.executable, "-m", "sandbox.images.build", "ensure"],
        capture_output=True,
        text=True,
        cwd=build.PROJECT_DIR,
        check=True,
    ).stdout
    assert "up to date" in out
    assert "registry reachable" not in out and "offline build" not in out and "ready" not in out
    for language, tag in images.items():
        assert tag == build.image_tag(language) and tag in out
        assert client.images.get(tag).id == ids[language]
