"""PID 1 of a warm runner container: one fresh bubblewrap sandbox per submission.

The outer layer of the two-layer sandbox (``docs/decisions.md``, "Two-layer sandbox").
A worker slot keeps one hardened container per language alive across jobs; this
supervisor is its PID 1. It runs inside the runner image as the unprivileged runner
user, with only the standard library, and never runs candidate code itself: every job
runs ``runner.py`` as PID 1 of a new bubblewrap sandbox (new user, PID, network, IPC,
UTS, mount and cgroup namespaces; read-only runtime; fresh, empty ``/work``, ``/tmp``
and ``/dev/shm``; its own ``/dev/mqueue``; the inner seccomp filter built into the
image). When the runner exits its PID namespace dies with every process in it, and its
other namespaces with it; then this supervisor removes the submission's directories
(anything it cannot remove fails the job, so the worker recycles the container):
nothing reaches the next submission.

The three writable directories are new directories on the container's own tmpfs mounts
(``/work``, ``/tmp``, ``/dev/shm``), bound into the sandbox, rather than tmpfs mounts
of bubblewrap's: a bind keeps its mount's flags (inside a user namespace they cannot be
cleared), so ``/tmp`` and ``/dev/shm`` stay ``noexec`` and so does ``/work`` but for
compiled languages, exactly as in the container engine; a bubblewrap tmpfs is always
exec.

Protocol with the worker, on the container's stdin and stdout (the attach stream):

    worker → slot   {"type": "ping"}\\n                 slot → worker  {"type": "pong"}\\n
    worker → slot   <a runner job line>\\n              slot → worker  the runner's frames,
                                                       then {"type": "slot-end",
                                                             "status": <exit status>}\\n

The next job's sandbox is started as soon as a job ends, so it is already waiting for
its job line (and Python's pre-warmed interpreter is already forked) when the job comes.
Exits after ``MOCKLOOP_IDLE_TIMEOUT_S`` without a job; the worker also recycles the
container after N jobs, T minutes, and any job that ended abnormally.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "runner.pyc")
INNER_SECCOMP = os.path.join(HERE, "inner-seccomp.bpf")
BWRAP = "/usr/bin/bwrap"
# where a submission's writable directories are made (the container's tmpfs mounts)
SCRATCH_BASES = (("/work", 0o700), ("/tmp", 0o1777), ("/dev/shm", 0o1777))
# what the runner may be told (bwrap clears the rest of the environment)
PASSED_ENV = (
    "PATH",
    "LANG",
    "HOME",
    "MOCKLOOP_PREFORK",
    "MOCKLOOP_NODE_SNAPSHOT",
    "MOCKLOOP_NODE_WARM",
)
# what Docker masks in /proc by default; the outer container unmasks /proc so bwrap may
# mount a new one, and each sandbox masks them again in its own /proc
MASKED_FILES = (
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/sysrq-trigger",
)
MASKED_DIRS = ("/proc/acpi", "/proc/asound", "/proc/scsi")
RUNTIME_DIRS = ("/usr", "/etc", "/opt")


def bwrap_argv(seccomp_fd: int, env: dict[str, str], binds: list[tuple[str, str]]) -> list[str]:
    """The inner sandbox of one submission (see the module docstring)."""
    argv = [
        BWRAP,
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--clearenv",
    ]
    for directory in RUNTIME_DIRS:
        if os.path.isdir(directory):
            argv += ["--ro-bind", directory, directory]
    for name in sorted(os.listdir("/")):  # merged /usr: /bin, /lib, ... are symlinks
        path = "/" + name
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for path in MASKED_FILES:
        if os.path.exists(path):
            argv += ["--ro-bind", "/dev/null", path]
    for path in MASKED_DIRS:
        if os.path.isdir(path):
            argv += ["--tmpfs", path]
    for source, target in binds:
        argv += ["--bind", source, target]
    argv += ["--mqueue", "/dev/mqueue"]
    if os.path.isdir("/sys/fs/cgroup"):  # memory.events (OOM kills), cpu.max (Go)
        argv += ["--ro-bind", "/sys/fs/cgroup", "/sys/fs/cgroup"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--remount-ro", "/"]  # the sandbox's root (bubblewrap's tmpfs) too
    argv += ["--chdir", "/work", "--seccomp", str(seccomp_fd)]
    # -S: the runner needs nothing of `site` (~1.8 ms of CPU at every start); the zygote
    # gives the tests' scripts what it would (python_start.py)
    argv += ["--", sys.executable, "-I", "-S", "-B", RUNNER]
    return argv


class Sandbox:
    """One submission's bubblewrap sandbox, started ahead of its job."""

    def __init__(self, env: dict[str, str], serial: int) -> None:
        self.dirs: list[str] = []
        binds = []
        for base, mode in SCRATCH_BASES:
            path = os.path.join(base, f"submission-{serial}")
            os.mkdir(path, 0o700)
            os.chmod(path, mode)
            self.dirs.append(path)
            binds.append((path, base))
        seccomp_fd = os.open(INNER_SECCOMP, os.O_RDONLY | os.O_CLOEXEC)
        try:
            self.process = subprocess.Popen(
                bwrap_argv(seccomp_fd, env, binds),
                stdin=subprocess.PIPE,
                stdout=None,  # the runner's frames go straight to the worker
                stderr=None,
                pass_fds=(seccomp_fd,),
                env={},
            )
        finally:
            os.close(seccomp_fd)

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, job_line: bytes) -> int:
        """Hand over the job and wait until the sandbox has gone (with all it started)."""
        stdin = self.process.stdin
        try:
            stdin.write(job_line)
            stdin.close()
        except OSError:
            pass
        return self.process.wait()

    def stop(self) -> None:
        if self.alive():
            self.process.kill()
        self.process.wait()

    def remove(self) -> bool:
        """Remove the submission's directories (its processes are gone); False if
        something is left."""
        if HERE not in sys.path:
            sys.path.insert(0, HERE)
        import runner  # its iterative clean-up: deep chains, mode-000 directories, fifos

        clean = True
        for path in self.dirs:
            left = runner._clear_dir(path, set())
            try:
                os.rmdir(path)
            except OSError:
                clean = False
            clean = clean and not left
        return clean


def _write(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


def _read_line(idle_timeout: float, buf: bytearray) -> bytes | None:
    """The worker's next line, None at end of input or after the idle timeout."""
    deadline = time.monotonic() + idle_timeout
    complete = b"\n" in buf
    while not complete:  # a job line can be megabytes: look for its end in new data only
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([0], [], [], remaining)[0]:
            return None
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return None
        buf += chunk
        complete = b"\n" in chunk
    line, _, rest = bytes(buf).partition(b"\n")
    buf[:] = rest
    return line + b"\n"


def main() -> int:
    idle = float(os.environ.get("MOCKLOOP_IDLE_TIMEOUT_S", "600"))
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    # the runner's own idle timeout is ours: the slot decides when to stop
    env["MOCKLOOP_IDLE_TIMEOUT_S"] = str(int(idle) + 60)
    buf = bytearray()
    serial = 0
    sandbox = Sandbox(env, serial)
    try:
        while True:
            line = _read_line(idle, buf)
            if line is None:
                return 0
            try:
                kind = json.loads(line).get("type") if line.startswith(b'{"type"') else None
            except ValueError:
                kind = None
            if kind == "ping":
                _write(b'{"type":"pong"}\n')
                continue
            if not sandbox.alive():  # e.g. it failed to start: one more try, now
                sandbox.stop()
                sandbox.remove()
                serial += 1
                sandbox = Sandbox(env, serial)
            status = sandbox.run(line)
            if not sandbox.remove() and status == 0:
                status = 125  # the worker recycles this container
            _write(json.dumps({"type": "slot-end", "status": status}).encode() + b"\n")
            serial += 1
            sandbox = Sandbox(env, serial)  # the next job's, started while none is waiting
    finally:
        sandbox.stop()


if __name__ == "__main__":
    sys.exit(main())
