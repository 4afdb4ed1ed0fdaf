"""In-container harness: compile once, run every test with per-test limits, stream results.

This file runs *inside* the runner image as PID 1, as the unprivileged ``runner`` user,
with the image's own ``python3`` and only the standard library. It never sees expected
outputs: the worker compares outputs (see ``sandbox.judge``).

Protocol (version 1)
--------------------
Host → runner, on stdin: one line, a JSON object terminated by ``\\n``::

    {"protocol": 1, "language": "python" | "javascript" | "cpp" | "go",
     "io": "stdio" | "function", "entrypoint": "solve" | null, "code": "...",
     "limits": {"time_ms": 2000, "wall_ms": 5000, "memory_kb": 262144,
                "output_bytes": 8388608, "stderr_bytes": 65536,
                "compile_ms": 20000, "compile_output_bytes": 65536},
     "fail_fast": true, "tests": ["<stdin of test 0>", ...]}

With ``fail_fast``, once a test hits its time or memory limit the runner runs no more
tests and says so with a ``skipped`` frame. For ``io: function`` each test string is
the JSON array of arguments.

Runner → host, on stdout: a sequence of frames. A frame is one JSON header line, then
exactly the payload bytes its header announces (``*_bytes`` fields, in the order listed)::

    {"type": "hello", "protocol": 1}
    {"type": "compile", "ok": bool, "time_ms": n, "exit_code": n, "output_bytes": n} + output
    {"type": "test", "index": i, "status": "ok", "exit_code": n | null,
     "signal": n | null, "time_ms": cpu, "wall_ms": n, "memory_kb": maxrss,
     "oom_killed": bool, "wall_timeout": bool, "stdout_size": n,
     "stdout_bytes": n, "stderr_bytes": m} + stdout + stderr
    {"type": "skipped", "from": i}               # fail fast: tests i.. were not run
    {"type": "error", "message": "..."}          # the runner itself failed
    {"type": "done"}

``stdout`` is capped at ``output_bytes + 1`` (so the host can tell "exactly at the cap"
from "over it"); ``stdout_size`` is the size the program produced, up to that cap.
Stderr is reduced to its head and tail (``stderr_bytes`` in total). While idle (a warm
container waiting for its job) the runner exits after ``MOCKLOOP_IDLE_TIMEOUT_S``.

Why these mechanics:
- PID 1 in its own PID namespace: candidate processes (same uid) cannot signal it, and
  ``kill(-1, SIGKILL)`` after each test removes every leftover, whatever its session or
  process group. Leftovers are killed, never waited for.
- Frames are written to stdout together when they come close together (``_Frames``:
  at most 20 ms late): each write costs the container's shim and dockerd CPU on its way.
- stdin/stdout/stderr of a test are ``memfd`` files, not pipes: no pump loop, no
  deadlock, and ``RLIMIT_FSIZE`` caps what a test can write (SIGXFSZ / EFBIG).
- Memory is enforced by the container's cgroup; the child's ``oom_score_adj`` is 1000
  so the kernel kills it (not the runner). ``memory_kb`` is ``ru_maxrss`` from wait4;
  as the child is forked from the runner it has a floor of about 9 MB (the runner's own
  resident size at fork), which only matters for tiny C++ programs.
- The runner marks itself non-dumpable, so a candidate cannot ptrace it or read its
  memory (where the other tests' inputs are).
- JavaScript tests share one ``node`` per submission (``wrappers/warm_node.js``, class
  ``WarmNode``), each test in a fresh ``vm`` context, when the program uses only what
  that harness provides (``node_warm_fits``); the runner still enforces every limit from
  outside. Otherwise every test is a new ``node``; Debian's node is built without node's
  own start-up snapshot, so each one starts from the image's
  (``wrappers/snapshot_node.js``, built read-only into the image): ~40 ms of start-up
  instead of ~70 ms, same semantics.
"""

from __future__ import annotations

import _signal as signal  # the C module: `signal` would import enum (start-up time)
import gc
import os
import resource
import select
import sys
import time

PROTOCOL = 1
WORK = os.environ.get("MOCKLOOP_WORK", "/work")
TMP = os.environ.get("MOCKLOOP_TMP", "/tmp")
HERE = os.path.dirname(os.path.abspath(__file__))
WRAPPERS = os.path.join(HERE, "wrappers")
PYTHON_ENV = {"PYTHONDONTWRITEBYTECODE": "1"}
# A Python test's interpreter starts without `site` (-S: ~1.8 ms of its ~9 ms start-up)
# and gets what `site` gives a script from python_start (byte-compiled in the image; run
# from its source elsewhere); the zygote's children start the same way
_PYTHON_START = os.path.join(HERE, "python_start.pyc")
if not os.path.exists(_PYTHON_START):
    _PYTHON_START = os.path.join(HERE, "python_start.py")
PYTHON_ARGV = [sys.executable, "-I", "-S", "-B", _PYTHON_START]
NODE = "/usr/bin/node"
# Start-up snapshots of node (wrappers/snapshot_node.js), one per heap size: V8 refuses a
# snapshot built under other flags, and --max-old-space-size is one. Built into the image
# (`runner.py --build-node-snapshots`); a job with another memory limit, or an image
# without them, runs plain node.
NODE_SNAPSHOTS = os.path.join(HERE, "node-snapshot")
NODE_SNAPSHOT_HEAPS_MB = (64, 128, 256, 512, 1024)
CHILD_PATH = "/usr/local/bin:/usr/bin:/bin"
IS_INIT = os.getpid() == 1


# ---------------------------------------------------------------------------- start-up
# The runner starts once per submission, so its own start-up is part of every job's cost:
# it avoids `json`, `contextlib` and `signal` (re, enum, functools, ...) and uses the C
# parts of the standard library directly (measured: ~8 ms of CPU per container).


class _suppress:
    def __init__(self, *kinds) -> None:
        self.kinds = kinds

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, value, tb) -> bool:
        return kind is not None and issubclass(kind, self.kinds)


def _ceil(value: float) -> int:
    return -int(-value // 1)


def _json_codec():
    """(loads, dumps) from the ``_json`` accelerator, else from ``json``."""
    try:
        import _json

        class _Context:
            strict = True
            object_hook = None
            object_pairs_hook = None
            parse_float = float
            parse_int = int

            @staticmethod
            def parse_constant(name):
                raise ValueError(f"{name} is not JSON")

        scan = _json.make_scanner(_Context())
        encode = _json.make_encoder(
            None, None, _json.encode_basestring_ascii, None, ":", ",", False, False, False
        )
    except Exception:  # pragma: no cover - another interpreter: the plain module
        import json

        return json.loads, lambda obj: json.dumps(obj, separators=(",", ":"))

    def loads(data):
        text = data.decode() if isinstance(data, bytes | bytearray) else data
        start = len(text) - len(text.lstrip(" \t\n\r"))
        try:
            value, end = scan(text, start)
        except StopIteration as exc:
            raise ValueError(f"invalid JSON at {exc.value}") from None
        if text[end:].strip(" \t\n\r"):
            raise ValueError(f"extra data at {end}")
        return value

    def dumps(obj) -> str:
        return "".join(encode(obj, 0))

    return loads, dumps


json_loads, json_dumps = _json_codec()


# ---------------------------------------------------------------------------- output


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class _Frames:
    """The frames not yet written to stdout, written together: every write there passes
    through the container's shim and dockerd on its way to the worker (CPU of theirs per
    write), so the frames of tests that end close together go in one write. None waits
    longer than ``FLUSH_S`` (the runner's waits wake up for it: ``_poll_ms``), and the
    last ones are written before the runner exits."""

    FLUSH_S = 0.02
    MAX_BYTES = 65536

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.since = 0.0  # when the oldest unwritten frame was added

    def add(self, line: bytes, payloads: tuple[bytes, ...]) -> None:
        if not self.parts:
            self.since = time.monotonic()
        self.parts.append(line)
        self.parts.extend(p for p in payloads if p)
        self.size += len(line) + sum(map(len, payloads))
        if self.size >= self.MAX_BYTES or time.monotonic() - self.since >= self.FLUSH_S:
            self.flush()

    def due_in(self) -> float | None:
        """Seconds until the oldest unwritten frame must go (None: nothing waits)."""
        return self.since + self.FLUSH_S - time.monotonic() if self.parts else None

    def flush_if_due(self) -> None:
        if self.parts and time.monotonic() - self.since >= self.FLUSH_S:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            parts, self.parts, self.size = self.parts, [], 0
            data = b"".join(parts)
            if len(data) < 4 * self.MAX_BYTES:
                _write_all(1, data)
            else:  # a big stdout: no second copy of it
                for part in parts:
                    _write_all(1, part)


FRAMES = _Frames()


def emit(header: dict, *payloads: bytes) -> None:
    FRAMES.add(json_dumps(header).encode() + b"\n", payloads)


def _poll_ms(seconds: float, floor: int = 1) -> int:
    """A poll timeout for a wait of ``seconds`` that wakes up when a frame is due (and
    writes the ones that are)."""
    FRAMES.flush_if_due()
    due = FRAMES.due_in()
    if due is not None:
        seconds = min(seconds, due)
    return max(floor, _ceil(seconds * 1000))


# ---------------------------------------------------------------------------- setup


_LIBC = None


class _Libc:
    """The C library's functions the runner and the zygote call (``prctl``, the SysV
    ``*ctl`` calls: C ints and NULL), through ``_ctypes`` itself: ``import ctypes`` costs
    ~3 ms of CPU (its Python half defines dozens of types) at every runner start, i.e.
    once per submission; ``_ctypes`` ~0.3 ms."""

    def __init__(self) -> None:
        import _ctypes

        class c_int(_ctypes._SimpleCData):
            _type_ = "i"

        class Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
            _restype_ = c_int

        self._function = Function
        self._handle = _ctypes.dlopen(None, _ctypes.RTLD_LOCAL)  # the program's own libc

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        function = self._function((name, self))
        setattr(self, name, function)
        return function


def _libc():
    try:
        return _Libc()
    except Exception:  # pragma: no cover - another interpreter: the public module
        import ctypes

        return ctypes.CDLL(None, use_errno=True)


def _make_undumpable() -> None:
    global _LIBC
    try:
        _LIBC = _libc()
        _LIBC.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except Exception:  # pragma: no cover - ctypes missing: the cgroup limits still hold
        _LIBC = None


def _read_job(idle_timeout: float) -> dict | None:
    buf = bytearray()
    deadline = time.monotonic() + idle_timeout
    while True:
        if not buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([0], [], [], remaining)
            if not ready:
                return None
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return None if not buf else json_loads(buf)
        buf += chunk
        if buf.endswith(b"\n"):
            return json_loads(buf)


def _oom_kills() -> int:
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as fh:
                for line in fh:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except OSError:
            continue
    return -1


def _memfd(name: str, data: bytes = b"") -> int:
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    if data:
        _write_all(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _read_head(fd: int, limit: int) -> tuple[bytes, int]:
    size = os.fstat(fd).st_size
    os.lseek(fd, 0, os.SEEK_SET)
    chunks, left = [], min(size, limit)
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks), size


def _read_head_tail(fd: int, limit: int) -> bytes:
    size = os.fstat(fd).st_size
    if size <= limit:
        return _read_head(fd, limit)[0]
    half = limit // 2
    head = os.pread(fd, half, 0)
    tail = os.pread(fd, half, size - half)
    return head + b"\n...[%d bytes omitted]...\n" % (size - 2 * half) + tail


def _child_env(extra: dict | None = None) -> dict:
    env = {"PATH": CHILD_PATH, "LANG": "C.UTF-8", "HOME": TMP, "TMPDIR": TMP}
    if extra:
        env.update(extra)
    return env


# ---------------------------------------------------------------------------- processes


def _kill_leftovers(pgid: int | None) -> None:
    """SIGKILL everything but ourselves and reap it; bounded, never waits on a live child."""
    deadline = time.monotonic() + 2.0
    while True:
        try:
            if IS_INIT:
                os.kill(-1, signal.SIGKILL)
            elif pgid:
                os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        alive = False
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                alive = True
                break
        if not alive or time.monotonic() > deadline:
            return
        FRAMES.flush_if_due()
        time.sleep(0.001)


# what a test's process starts with whatever the runner's dispositions are
_DEFAULT_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGXCPU, signal.SIGINT)


def _spawn(argv, env, stdin_fd, out_fd, err_fd, *, cpu_s, fsize, memory_kb) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # child: never return into the runner
        os.setpgid(0, 0)
        os.dup2(stdin_fd, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        # fds are O_CLOEXEC anyway; close_range may be refused by seccomp, so bound the loop
        os.closerange(3, min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 4096))
        for sig in _DEFAULT_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
        stack = memory_kb * 1024
        if stack_hard != resource.RLIM_INFINITY:
            stack = min(stack, stack_hard)
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
        # a non-dumpable process cannot open its own /proc files: become dumpable (as
        # execve is about to make us anyway; no other process of ours exists) first
        if _LIBC is not None:
            _LIBC.prctl(4, 1, 0, 0, 0)
        try:
            with open("/proc/self/oom_score_adj", "w") as fh:
                fh.write("1000")
        except OSError:
            pass
        os.chdir(WORK)
        os.execve(argv[0], argv, env)
    except BaseException as exc:  # noqa: BLE001 - report anything, then die
        try:
            os.write(2, f"mockloop-runner: cannot start {argv[0]}: {exc}\n".encode())
        finally:
            os._exit(127)
    raise AssertionError("unreachable")  # pragma: no cover


def _spawn_python(argv, env, stdin_fd, out_fd, err_fd, *, cpu_s, fsize, memory_kb) -> int:
    """A Python test the exec way without a fork of the runner: ``posix_spawn`` (the C
    library's vfork and exec: no copy of the runner's page tables, no copy-on-write of
    its pages in the child, nothing run in a copy of the runner). What ``_spawn`` does
    between fork and exec, ``python_start --limits`` does before the test's script runs
    (the per-test rlimits, the OOM score, fds 3 and up closed, the working directory);
    the process group and the signals' dispositions are the spawn's own attributes."""
    _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
    stack = memory_kb * 1024
    if stack_hard != resource.RLIM_INFINITY:
        stack = min(stack, stack_hard)
    start = len(PYTHON_ARGV)
    limits = f"{cpu_s},{fsize},{stack},{WORK}"
    spawned = [*argv[:start], "--limits", limits, *argv[start:]]
    # the kernel lays out a process's stack at exec from RLIMIT_STACK: ours for the
    # moment (a soft limit, which we may raise back), so that the test gets the same room
    # as when the limit is set before exec
    own = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
    try:
        return os.posix_spawn(
            argv[0],
            spawned,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, stdin_fd, 0),
                (os.POSIX_SPAWN_DUP2, out_fd, 1),
                (os.POSIX_SPAWN_DUP2, err_fd, 2),
            ],
            setpgroup=0,
            setsigdef=_DEFAULT_SIGNALS,
        )
    except OSError:  # e.g. no interpreter there: the fork path reports it as before
        return _spawn(
            argv, env, stdin_fd, out_fd, err_fd, cpu_s=cpu_s, fsize=fsize, memory_kb=memory_kb
        )
    finally:
        resource.setrlimit(resource.RLIMIT_STACK, own)


def _python_test(argv) -> bool:
    return len(argv) > len(PYTHON_ARGV) and argv[: len(PYTHON_ARGV)] == PYTHON_ARGV


def run_process(argv, env, stdin: bytes, *, time_ms, wall_ms, memory_kb, fsize, stderr_cap):
    """Run one process to completion or limit; return (result dict, stdout fd, stderr bytes)."""
    in_fd = _memfd("stdin", stdin)
    out_fd = _memfd("stdout")
    err_fd = _memfd("stderr")
    oom_before = _oom_kills()
    # RLIMIT_CPU counts whole seconds: the first one at or past the limit (a second more
    # only made a busy loop cost that second in every test)
    cpu_s = max(1, _ceil(time_ms / 1000))
    start = time.monotonic()
    deadline = start + wall_ms / 1000
    outcome = None
    if ZYGOTE.serves(argv):
        outcome = ZYGOTE.run(
            argv[len(PYTHON_ARGV) :],
            (in_fd, out_fd, err_fd),
            cpu_s=cpu_s,
            fsize=fsize,
            stack=memory_kb * 1024,
            deadline=deadline,
        )
        if outcome is ZYGOTE_LOST:
            for fd in (in_fd, out_fd, err_fd):
                os.close(fd)
            return ZYGOTE_LOST, -1, b""
    if outcome is not None:
        os.close(in_fd)
        status, usage, wall_timeout = outcome
        wall = time.monotonic() - start
    else:
        spawn = _spawn_python if _python_test(argv) else _spawn
        pid = spawn(argv, env, in_fd, out_fd, err_fd, cpu_s=cpu_s, fsize=fsize, memory_kb=memory_kb)
        os.close(in_fd)
        wall_timeout = False
        waited = _wait_until(pid, deadline)
        if waited is None:
            wall_timeout = True
            with _suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
        else:
            status, usage = waited
        wall = time.monotonic() - start
        _kill_leftovers(pid)
    oom_after = _oom_kills()
    result = {
        "exit_code": os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "time_ms": round((usage.ru_utime + usage.ru_stime) * 1000),
        "wall_ms": round(wall * 1000),
        "memory_kb": usage.ru_maxrss,
        "oom_killed": oom_before >= 0 and oom_after > oom_before,
        "wall_timeout": wall_timeout,
    }
    stderr = _read_head_tail(err_fd, stderr_cap)
    os.close(err_fd)
    return result, out_fd, stderr


class _Usage:
    def __init__(self, ru_utime: float, ru_stime: float, ru_maxrss: int) -> None:
        self.ru_utime, self.ru_stime, self.ru_maxrss = ru_utime, ru_stime, ru_maxrss


class Zygote:
    """The runner's side of ``zygote.py``: Python tests fork a pre-warmed interpreter
    instead of exec'ing a new one (see zygote.py for what a test can and cannot see).

    Started before the job is read, so it never holds the job. If a test stops it, it
    gets SIGCONT once the test's process is gone; if a test kills it, that test runs
    again the exec way, and so do the remaining tests.
    """

    def __init__(self) -> None:
        self.pid: int | None = None
        self.sock = None

    def start(self, env: dict) -> None:
        import _socket

        sys.path.insert(0, HERE)
        try:
            import zygote
        finally:
            sys.path.remove(HERE)
        parent, child = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        # collect and freeze before the fork, not in the zygote: a collection there writes
        # to the header of every object, copying (copy-on-write) nearly every page of the
        # heap the two processes share; frozen, no later collection of either process (or
        # of a test's) visits them
        gc.collect()
        gc.freeze()
        pid = os.fork()
        if pid == 0:  # the zygote: never return into the runner
            status = 1
            try:
                parent.close()
                status = zygote.serve(child, env, _LIBC)
            except BaseException as exc:  # noqa: BLE001
                with _suppress(OSError):
                    os.write(2, f"mockloop-zygote: {type(exc).__name__}: {exc}\n".encode())
            finally:
                os._exit(status)
        child.close()
        self.pid, self.sock = pid, parent

    def serves(self, argv) -> bool:
        return self.sock is not None and _python_test(argv)

    def stop(self) -> None:
        if self.pid is not None:
            with _suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with _suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
        if self.sock is not None:
            self.sock.close()
        self.pid = self.sock = None

    def _reply(self, deadline: float, child: int | None = None) -> bytes | None:
        """The zygote's next reply (b"" if it is gone), b"exited" if the test's process
        (``child``, a pidfd) exited first, None at the deadline."""
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        if child is not None:
            poller.register(child, select.POLLIN)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            events = dict(poller.poll(_poll_ms(remaining)))
            if self.sock.fileno() in events:
                try:
                    return self.sock.recv(256)
                except OSError:
                    return b""
            if child is not None and child in events:
                poller.unregister(child)
                child = None
                if not poller.poll(200):  # it reaps and reports at once, unless stopped
                    return b"exited"

    def run(self, args, fds, *, cpu_s: int, fsize: int, stack: int, deadline: float):
        """(wait status, rusage, wall_timeout) of the test's process, forked by the zygote.

        ``ZYGOTE_LOST`` if the zygote went away (or stopped answering) before it could
        report — e.g. the test killed it, or stopped it: it is stopped for good, whatever
        the test left behind is killed, and the caller runs the test again the exec way
        (where killing or stopping your parent hits PID 1 and does nothing), so the
        verdict is the exec path's, whatever the race.
        """
        import _socket

        with _suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGCONT)  # a previous test may have stopped it
        request = "\0".join([WORK, str(cpu_s), str(fsize), str(stack), *args]).encode()
        rights = b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds)
        try:
            self.sock.sendmsg([request], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
            reply = self._reply(time.monotonic() + 5)
        except OSError:
            reply = None
        if not reply or not reply.startswith(b"pid "):
            return self._lost()
        pid = int(reply.split()[1])
        try:  # readable once the test's process has exited (it is not our child)
            child = os.pidfd_open(pid)
        except (AttributeError, OSError):  # already exited and reaped: the report is due
            child = None
        try:
            reply = self._reply(deadline, child)
            wall_timeout = reply is None
            if wall_timeout:
                for target in (-pid, pid):
                    with _suppress(ProcessLookupError):
                        os.kill(target, signal.SIGKILL)
            if reply is None or reply == b"exited":
                # the process is gone: the zygote reports at once, unless it was stopped
                with _suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGCONT)
                reply = self._reply(time.monotonic() + 3)
        finally:
            if child is not None:
                os.close(child)
        if reply and reply.startswith(b"exit "):
            status, utime, stime, maxrss = (int(v) for v in reply.split()[1:5])
            return status, _Usage(utime / 1e6, stime / 1e6, maxrss), wall_timeout
        if wall_timeout:  # it ran out of time either way
            self._lost()
            return signal.SIGKILL, _Usage(0.0, 0.0, 0), True
        return self._lost()

    def _lost(self):
        self.stop()
        _kill_leftovers(None)  # we are init: kill(-1) and reap whatever is left
        return ZYGOTE_LOST


ZYGOTE_LOST = object()
ZYGOTE = Zygote()


def _wait_until(pid: int, deadline: float):
    """Wait for ``pid`` until ``deadline``; (status, rusage) or None if still running."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # pragma: no cover - kernels before 5.3
        pidfd = None
    try:
        poller = select.poll()
        if pidfd is not None:
            poller.register(pidfd, select.POLLIN)
        while True:
            wpid, status, usage = os.wait4(pid, os.WNOHANG)
            if wpid:
                return status, usage
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if pidfd is not None:
                poller.poll(_poll_ms(remaining))
            else:  # pragma: no cover
                time.sleep(min(remaining, 0.002))
    finally:
        if pidfd is not None:
            os.close(pidfd)


# Where a test can leave files for the next one. /dev/shm (POSIX shm and semaphores) and
# /dev/mqueue (POSIX message queues) are the container's own, and cleaned only when this
# runner is the container's init: never a host's, when the runner is run by hand.
SHARED_DIRS = ("/dev/shm", "/dev/mqueue") if IS_INIT else ()
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Scratch:
    """What every test starts from: the files `prepare` wrote (the source, a compiled
    binary) exactly as written, and nothing else in /work, /tmp, /dev/shm or /dev/mqueue,
    and no SysV IPC object. Reset after every test (all its processes are dead by then)
    and verified: a leftover that cannot be removed fails the job rather than reaching
    the next test."""

    def __init__(self, keep: set[str]) -> None:
        self.kept: dict[str, tuple[tuple[int, int], bytes, int]] = {}
        for path in keep:
            info = os.lstat(path)
            with open(path, "rb") as fh:
                self.kept[path] = ((info.st_ino, info.st_ctime_ns), fh.read(), info.st_mode)

    def reset(self) -> None:
        for path, (identity, content, mode) in self.kept.items():
            try:
                info = os.lstat(path)
                intact = (info.st_ino, info.st_ctime_ns) == identity
            except OSError:
                intact = False
            if not intact:  # a test changed the program the next one runs: restore it
                _remove_tree(path)
                with open(path, "wb") as fh:
                    fh.write(content)
                os.chmod(path, mode & 0o7777)
                info = os.lstat(path)
                self.kept[path] = ((info.st_ino, info.st_ctime_ns), content, mode)
        left = []
        for base in (WORK, TMP, *SHARED_DIRS):
            left += _clear_dir(base, set(self.kept))
        _remove_sysv_ipc()
        if left:
            raise RuntimeError(f"could not remove what a test left: {left[:3]}")


def _clean_scratch(keep: set[str]) -> None:
    """Empty /work and /tmp but for `keep` (e.g. after compiling: no test sees or pays
    for the compiler's cache)."""
    for base in (WORK, TMP):
        _clear_dir(base, keep)


def _clear_dir(base: str, keep: set[str]) -> list[str]:
    """Remove everything in `base` but the paths in `keep`; returns what is still there.

    Iterative and relative to directory descriptors: a chain of directories deeper than
    the recursion limit, with paths longer than PATH_MAX, mode-000 directories,
    symlinks and fifos are all removed (never followed). Only one directory is open at a
    time (it climbs back with ".."), so depth does not run into the descriptor limit.
    """
    try:
        fd = os.open(base, _DIR_FLAGS)
    except OSError:
        return []
    skip = {os.path.basename(p) for p in keep if os.path.dirname(p) == base}
    stack: list[tuple[str, list[str]]] = []
    pending = _unlink_entries(fd, skip)
    try:
        while True:
            if pending:
                name = pending.pop()
                try:
                    os.chmod(name, 0o700, dir_fd=fd)  # lstat said a directory: not a link
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    continue
                stack.append((name, pending))
                os.close(fd)
                fd = child
                pending = _unlink_entries(fd, set())
                continue
            if not stack:
                break
            name, pending = stack.pop()
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            with _suppress(OSError):
                os.rmdir(name, dir_fd=fd)
        return [os.path.join(base, n) for n in os.listdir(fd) if n not in skip]
    finally:
        os.close(fd)


def _unlink_entries(fd: int, skip: set[str]) -> list[str]:
    """Unlink every non-directory in the directory `fd`; return its subdirectories."""
    subdirs = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.name in skip:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(entry.name)
                else:
                    os.unlink(entry.name, dir_fd=fd)
            except OSError:
                continue
    return subdirs


def _remove_tree(path: str) -> None:
    """Remove a file or a whole directory tree at `path` (never following links)."""
    try:
        if not os.path.isdir(path) or os.path.islink(path):
            os.unlink(path)
            return
    except OSError:
        return
    _clear_dir(path, set())
    with _suppress(OSError):
        os.rmdir(path)


# SysV IPC objects outlive their processes; each kind is removed with its own ctl call
# (IPC_RMID = 0). They are the container's own: the runner has its IPC namespace.
_SYSV = (("shm", "shmctl"), ("msg", "msgctl"), ("sem", "semctl"))


def _remove_sysv_ipc() -> None:
    if not IS_INIT or _LIBC is None:
        return
    for kind, ctl in _SYSV:
        try:
            with open(f"/proc/sysvipc/{kind}") as fh:
                rows = fh.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit():
                if ctl == "semctl":
                    getattr(_LIBC, ctl)(int(fields[1]), 0, 0)
                else:
                    getattr(_LIBC, ctl)(int(fields[1]), 0, None)


# ---------------------------------------------------------------------------- languages


def prepare(job: dict) -> tuple[list[str], dict, set[str]]:
    """Write the source; compile if needed. Returns the argv, env and files to keep."""
    language, io_mode, code = job["language"], job.get("io", "stdio"), job["code"]
    limits = job["limits"]
    entry = job.get("entrypoint") or ""
    memory_mb = max(16, limits["memory_kb"] // 1024)
    if language == "python":
        src = os.path.join(WORK, "main.py")
        _write_text(src, code)
        message = _python_syntax_error(code, src, limits.get("compile_ms", 20000))
        if message is not None:
            emit_compile(False, 0, 1, message.encode()[: limits.get("compile_output_bytes", 65536)])
            return [], {}, set()
        if io_mode == "function":
            argv = [*PYTHON_ARGV, os.path.join(WRAPPERS, "function_python.py"), entry, src]
        else:
            argv = [*PYTHON_ARGV, src]
        return argv, _child_env(PYTHON_ENV), {src}
    if language == "javascript":
        src = os.path.join(WORK, "main.js")
        node = node_command(memory_mb)
        if io_mode == "function":
            footer = (
                "\n;globalThis.__mockloop_entry = "
                f"(typeof {entry} === 'function') ? {entry} : undefined;\n"
            )
            _write_text(src, code + footer)
            argv = [*node, os.path.join(WRAPPERS, "function_node.js"), entry, src]
        else:
            _write_text(src, code)
            argv = [*node, src]
        return argv, _child_env(), {src}
    if language in COMPILERS:
        suffix, command, extra_env = COMPILERS[language]
        src, binary = os.path.join(WORK, f"main.{suffix}"), os.path.join(WORK, "main")
        sources = [src]
        if io_mode == "function":
            code, harness = _function_harness(language, code, entry)
            if harness is not None:
                sources.append(harness)
        _write_text(src, code)
        run_env = {"GOMAXPROCS": str(_go_maxprocs())} if language == "go" else {}
        if not _compile(
            [*command, binary, *sources], _child_env({**extra_env, **run_env}), limits, binary
        ):
            return [], {}, set()
        # e.g. Go's build cache: no test sees it or pays for it
        _clean_scratch({*sources, binary})
        return [binary], _child_env(run_env), {*sources, binary}
    raise ValueError(f"unsupported language {language!r}")


def _function_harness(language: str, code: str, entry: str) -> tuple[str, str | None]:
    """`io: function` for a compiled language: the solution's source with what calls
    ENTRYPOINT (JSON arguments on stdin, its JSON return value on stdout), and a second
    source file to compile beside it, if any. C++ appends a header after the solution
    (`#define` of the entrypoint; nlohmann::json converts arguments to the parameters'
    types); Go adds a `main` in its own file of package main (encoding/json + reflect)."""
    if language == "cpp":
        header = os.path.join(WRAPPERS, "function_cpp.hpp")
        return f'{code}\n#define MOCKLOOP_ENTRY {entry}\n#include "{header}"\n', None
    if language == "go":
        with open(os.path.join(WRAPPERS, "function_go.go.tmpl"), encoding="utf-8") as fh:
            harness_code = fh.read().replace("MOCKLOOP_ENTRY", entry)
        harness = os.path.join(WORK, "mockloop_main.go")
        _write_text(harness, harness_code)
        return code, harness
    raise ValueError(f"{language} has no function harness")


# language -> (source suffix, compiler argv before "<binary> <source>", compiler env)
COMPILERS = {
    "cpp": ("cpp", ["/usr/bin/g++", "-O2", "-std=c++17", "-pipe", "-o"], {}),
    # Debian's Go 1.19, one main.go and no go.mod: GOPATH mode, nothing to download
    # (no network anyway). No -trimpath: it changes every package's build id, so the
    # image's prebuilt standard library would be rebuilt each time (~6 s instead of
    # ~0.2 s). The build cache lives in /tmp and is wiped before the first test.
    "go": (
        "go",
        ["/usr/bin/go", "build", "-o"],
        {
            "CGO_ENABLED": "0",
            "GO111MODULE": "off",
            "GOPROXY": "off",
            "GOENV": "off",
            "GOCACHE": os.path.join(TMP, "go-cache"),
            "GOPATH": os.path.join(TMP, "go"),
        },
    ),
}


def _go_maxprocs() -> int:
    """The container's CPU quota, rounded up: Go 1.19 sizes GOMAXPROCS from the host's
    CPUs, whose extra threads would only count against the pids limit and the quota."""
    for path, pair in (
        ("/sys/fs/cgroup/cpu.max", None),  # cgroup v2: "<quota|max> <period>"
        ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us"),
    ):
        try:
            with open(path) as fh:
                fields = fh.read().split()
            if pair is not None:
                with open(pair) as fh:
                    fields += fh.read().split()
            quota, period = int(fields[0]), int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
        if quota > 0 and period > 0:
            return max(1, _ceil(quota / period))
    return 2


def _compile(argv: list[str], env: dict, limits: dict, binary: str) -> bool:
    """Run the compiler with the compile limits; emit the compile frame; True if it built."""
    compile_ms = limits.get("compile_ms", 20000)
    cap = limits.get("compile_output_bytes", 65536)
    result, out_fd, err = run_process(
        argv,
        env,
        b"",
        time_ms=compile_ms,
        wall_ms=compile_ms * 2,
        memory_kb=limits.get("compile_memory_kb", 1 << 20),
        fsize=256 << 20,
        stderr_cap=cap,
    )
    out, _ = _read_head(out_fd, cap)
    os.close(out_fd)
    message = (out + err)[:cap]
    ok = result["exit_code"] == 0 and os.path.exists(binary)
    if not ok and (result["wall_timeout"] or result["time_ms"] > compile_ms):
        message += b"\ncompilation exceeded its time limit"
    emit_compile(ok, result["time_ms"], result["exit_code"], message)
    return ok


def _node_flags(memory_mb: int) -> list[str]:
    """node and the flags of every test; a snapshot is built under exactly these."""
    return [NODE, f"--max-old-space-size={memory_mb}"]


def node_snapshot(memory_mb: int, directory: str | None = None) -> str:
    return os.path.join(directory or NODE_SNAPSHOTS, f"heap-{memory_mb}.blob")


def node_command(memory_mb: int, directory: str | None = None) -> list[str]:
    """The command a JavaScript test starts with, before its script: through the image's
    start-up snapshot for this heap size if there is one (~40 ms instead of ~70 ms)."""
    blob = node_snapshot(memory_mb, directory)
    if os.environ.get("MOCKLOOP_NODE_SNAPSHOT") != "0" and os.path.isfile(blob):
        return [*_node_flags(memory_mb), "--snapshot-blob", blob]
    return _node_flags(memory_mb)


def build_node_snapshots(
    heaps: tuple[int, ...] = NODE_SNAPSHOT_HEAPS_MB, directory: str | None = None
) -> int:
    """Image build step: a start-up snapshot of node per heap size, each checked by running
    a script through it. One that fails is left out (with a message): its jobs run plain
    node, and tests/sandbox notices."""
    import subprocess
    import tempfile

    directory = directory or NODE_SNAPSHOTS
    os.makedirs(directory, exist_ok=True)
    entry = os.path.join(WRAPPERS, "snapshot_node.js")
    with tempfile.TemporaryDirectory() as scratch:
        probe = os.path.join(scratch, "probe.js")
        _write_text(probe, "console.log(require.main === module, process.argv.slice(2).join());\n")
        for memory_mb in heaps:
            blob = node_snapshot(memory_mb, directory)
            node = [*_node_flags(memory_mb), "--snapshot-blob", blob]
            done = subprocess.run(
                [*node, "--build-snapshot", entry], cwd=scratch, capture_output=True, text=True
            )
            if done.returncode == 0:
                done = subprocess.run(
                    [*node, probe, "a", "b"], cwd=scratch, capture_output=True, text=True
                )
            if done.returncode == 0 and done.stdout == "true a,b\n":
                os.chmod(blob, 0o444)
                continue
            print(
                f"node snapshot for {memory_mb} MB left out: exit {done.returncode}, "
                f"stdout {done.stdout[-200:]!r}, stderr {done.stderr[-2000:]!r}",
                file=sys.stderr,
            )
            with _suppress(FileNotFoundError):
                os.unlink(blob)
    return 0


# ---------------------------------------------------------------------------- warm node
# JavaScript tests of one submission run in one node (wrappers/warm_node.js), each in a
# fresh `vm` context, when the program uses only what that harness provides; otherwise
# each test is a new node as before. MOCKLOOP_NODE_WARM=0 turns it off.
NODE_WARM_FLAGS = (
    "--frozen-intrinsics",
    "--disallow-code-generation-from-strings",
    "--no-warnings",
)
# what the harness gives a test: these modules (as `require('x')` or `require('node:x')`)
# and these members of `process`; a program that names anything else runs the old way
NODE_WARM_MODULES = frozenset({"fs", "readline", "path", "os", "util", "buffer"})
NODE_WARM_PROCESS = frozenset(
    [
        "title",
        "version",
        "versions",
        "arch",
        "platform",
        "release",
        "pid",
        "ppid",
        "execPath",
        "argv0",
        "argv",
        "env",
        "config",
        "features",
        "stdin",
        "stdout",
        "stderr",
        "exit",
        "abort",
        "cwd",
        "umask",
        "uptime",
        "hrtime",
        "cpuUsage",
        "memoryUsage",
        "resourceUsage",
        "nextTick",
        "emitWarning",
        "exitCode",
        "on",
        "once",
        "off",
        "addListener",
        "removeListener",
        "removeAllListeners",
        "prependListener",
        "emit",
        "listeners",
        "listenerCount",
        "setMaxListeners",
    ]
)
# node's globals that a vm context lacks and the harness does not provide
NODE_WARM_MISSING_GLOBALS = [
    "AbortController",
    "AbortSignal",
    "Blob",
    "BroadcastChannel",
    "ByteLengthQueuingStrategy",
    "CompressionStream",
    "CountQueuingStrategy",
    "DOMException",
    "DecompressionStream",
    "Event",
    "EventTarget",
    "FormData",
    "Headers",
    "MessageChannel",
    "MessageEvent",
    "MessagePort",
    "Performance",
    "ReadableByteStreamController",
    "ReadableStream",
    "ReadableStreamBYOBReader",
    "ReadableStreamBYOBRequest",
    "ReadableStreamDefaultController",
    "ReadableStreamDefaultReader",
    "Request",
    "Response",
    "TextDecoderStream",
    "TextEncoderStream",
    "TransformStream",
    "TransformStreamDefaultController",
    "WritableStream",
    "WritableStreamDefaultController",
    "WritableStreamDefaultWriter",
    "crypto",
    "fetch",
]
CONTROL_FD = 3


def node_warm_fits(code: str) -> bool:
    """Does the warm harness provide everything this program names? A static look, on
    the side of caution: any other `require`, `import(`, `module.` other than `exports`,
    `process.` member, or a node global the harness lacks (`AbortController`, `fetch`,
    ...) sends the program down the per-test path."""
    if os.environ.get("MOCKLOOP_NODE_WARM") == "0":
        return False
    import re

    if re.search(r"\bimport\s*\(|\bimport\s+[\w{*'\"]|\bimport\.meta\b", code):
        return False
    for match in re.finditer(
        r"\brequire\b(\s*\(\s*(['\"`])(?:node:)?([\w/]+)\2\s*\)|\s*\.\s*main\b)?", code
    ):
        if match.group(1) is None or (match.group(3) and match.group(3) not in NODE_WARM_MODULES):
            return False
    # names inside comments and quoted strings are not uses (template literals stay:
    # `${process.x}` is code)
    bare = re.sub(
        r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"", "''", code, flags=re.S
    )
    missing = "|".join(NODE_WARM_MISSING_GLOBALS)
    if re.search(rf"\b(?:{missing})\b", bare):
        return False
    for match in re.finditer(r"\bmodule\s*\.\s*(\w+)", bare):
        if match.group(1) not in ("exports", "id", "filename", "parent", "loaded", "path"):
            return False
    for match in re.finditer(r"\bprocess\b\s*(?:\.\s*(\w+)|\[)?", bare):
        if match.group(1) not in NODE_WARM_PROCESS:
            return False
    return True


class WarmNode:
    """The runner's side of wrappers/warm_node.js: one node per submission, a fresh
    context per test. Every limit is enforced from here: CPU (the process's utime+stime
    in /proc, checked once the test has run for its limit, then every few ms), wall
    clock, memory (the cgroup; V8's heap limit); a test over one is killed with its node,
    and the next test, if any, gets a new one."""

    def __init__(self, argv: list[str], env: dict, fsize: int, memory_kb: int) -> None:
        self.argv, self.env, self.fsize, self.memory_kb = argv, env, fsize, memory_kb
        self.pid: int | None = None
        self.sock = None
        self.diag = -1  # the node's own stderr (V8's fatal messages), a memfd
        self.tick_s = 1 / os.sysconf("SC_CLK_TCK")

    def start(self) -> bool:
        import _socket

        FRAMES.flush()  # a node takes tens of milliseconds to be ready: none waits for it
        parent, child = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
        if self.diag < 0:
            self.diag = _memfd("node-stderr")
        pid = os.fork()
        if pid == 0:  # never return into the runner
            try:
                os.setpgid(0, 0)
                null = os.open("/dev/null", os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)
                os.dup2(self.diag, 2)
                os.dup2(child.fileno(), CONTROL_FD)
                os.closerange(
                    CONTROL_FD + 1, min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 4096)
                )
                for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGXCPU, signal.SIGINT):
                    signal.signal(sig, signal.SIG_DFL)
                resource.setrlimit(resource.RLIMIT_FSIZE, (self.fsize, self.fsize))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
                stack = self.memory_kb * 1024
                if stack_hard != resource.RLIM_INFINITY:
                    stack = min(stack, stack_hard)
                resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
                if _LIBC is not None:
                    _LIBC.prctl(4, 1, 0, 0, 0)
                with _suppress(OSError), open("/proc/self/oom_score_adj", "w") as fh:
                    fh.write("1000")
                os.chdir(WORK)
                os.execve(self.argv[0], self.argv, self.env)
            except BaseException as exc:  # noqa: BLE001
                with _suppress(OSError):
                    os.write(2, f"mockloop-runner: cannot start node: {exc}\n".encode())
            finally:
                os._exit(127)
        child.close()
        self.pid, self.sock = pid, parent
        parent.settimeout(10)
        try:
            ready = self._line()
        except OSError:
            ready = b""
        if ready.strip() != b'{"ready": true}':
            self.stop()
            return False
        return True

    def _line(self) -> bytes:
        data = bytearray()
        while not data.endswith(b"\n"):
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("node went away")
            data += chunk
        return bytes(data)

    def _exactly(self, n: int) -> bytes:
        chunks, left = [], n
        while left > 0:
            chunk = self.sock.recv(min(left, 1 << 20))
            if not chunk:
                raise ConnectionError("node went away")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def _cpu_s(self) -> float:
        """utime + stime of the node (all its threads), from /proc; -1 if it is gone."""
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * self.tick_s
        except (OSError, IndexError, ValueError):
            return -1.0

    def _peak_kb(self) -> int:
        try:
            with open(f"/proc/{self.pid}/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"VmHWM:"):
                        return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return 0

    def stop(self) -> None:
        if self.pid is not None:
            with _suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
            with _suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
        if self.sock is not None:
            self.sock.close()
        self.pid = self.sock = None

    def close(self) -> None:
        self.stop()
        if self.diag >= 0:
            os.close(self.diag)
            self.diag = -1

    def run(self, stdin: bytes, *, time_ms: int, wall_ms: int, stderr_cap: int):
        """(result dict, stdout, stdout size, stderr) of one test; None if the node could
        not be started (the caller runs the test the per-test way)."""
        if self.pid is None and not self.start():
            return None
        import _socket

        diag_from = os.lseek(self.diag, 0, os.SEEK_END)
        with _suppress(OSError), open(f"/proc/{self.pid}/clear_refs", "w") as fh:
            fh.write("5")  # peak RSS from here: this test's
        oom_before = _oom_kills()
        cpu_before = self._cpu_s()
        start = time.monotonic()
        deadline = start + wall_ms / 1000
        header = b'{"input_bytes": %d}\n' % len(stdin)
        killed_for = None
        reply = None
        try:
            self.sock.settimeout(None)
            self.sock.sendall(header + stdin, _socket.MSG_NOSIGNAL)
            poller = select.poll()
            poller.register(self.sock.fileno(), select.POLLIN)
            check_at = start + time_ms / 1000
            while True:
                now = time.monotonic()
                wait = min(check_at, deadline) - now
                if poller.poll(_poll_ms(wait, 0)):
                    break
                now = time.monotonic()
                if now >= deadline:
                    killed_for = "wall"
                    break
                if now >= check_at:
                    used = self._cpu_s() - cpu_before
                    if used * 1000 > time_ms:
                        killed_for = "cpu"
                        break
                    check_at = now + 0.01
            if killed_for is None:
                self.sock.settimeout(max(0.5, deadline - time.monotonic()))
                reply = json_loads(self._line())
                out = self._exactly(reply["stdout_bytes"])
                err = self._exactly(reply["stderr_bytes"])
        except (OSError, ConnectionError, ValueError, KeyError):
            reply = None
        wall = time.monotonic() - start
        if reply is not None:
            cpu_after = self._cpu_s()
            reported_ms = reply["cpu_us"] / 1000
            measured_ms = (cpu_after - cpu_before) * 1000 if cpu_after >= 0 else 0.0
            result = {
                "exit_code": reply["exit_code"],
                "signal": reply["signal"],
                # the harness's own figure (microseconds), unless /proc (in clock ticks)
                # says clearly more: a program cannot make itself look faster
                "time_ms": round(max(reported_ms, measured_ms - 2000 * self.tick_s)),
                "wall_ms": round(wall * 1000),
                "memory_kb": self._peak_kb(),
                "oom_killed": False,
                "wall_timeout": False,
            }
            if reply["signal"] is not None:  # it ended the way a killed process would
                self.stop()
            return result, out, reply["stdout_size"], err
        # killed here, or the node died by itself (V8's heap limit, the OOM killer, ...)
        pid = self.pid
        with _suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        self.sock.close()
        self.pid = self.sock = None
        total = usage.ru_utime + usage.ru_stime
        used_ms = (total - max(cpu_before, 0.0)) * 1000
        stderr = os.pread(self.diag, stderr_cap, diag_from) if killed_for is None else b""
        result = {
            "exit_code": os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "time_ms": round(max(used_ms, time_ms + 1 if killed_for == "cpu" else 0)),
            "wall_ms": round(wall * 1000),
            "memory_kb": usage.ru_maxrss,
            "oom_killed": oom_before >= 0 and _oom_kills() > oom_before,
            "wall_timeout": killed_for == "wall",
        }
        return result, b"", 0, stderr


def node_warm_command(memory_mb: int, mode: str, entry: str, src: str, limits: dict) -> list[str]:
    return [
        *_node_flags(memory_mb),
        *NODE_WARM_FLAGS,
        os.path.join(WRAPPERS, "warm_node.js"),
        mode,
        entry or "-",
        src,
        str(limits["output_bytes"]),
        str(limits.get("stderr_bytes", 65536)),
    ]


def _python_syntax_error(code: str, src: str, limit_ms: int) -> str | None:
    """Byte-compile in a forked child (a hostile source must not crash PID 1)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(read_fd)
            resource.setrlimit(
                resource.RLIMIT_CPU, (max(1, limit_ms // 1000), limit_ms // 1000 + 1)
            )
            try:
                compile(code, src, "exec", dont_inherit=True)
                os._exit(0)
            except BaseException as exc:  # noqa: BLE001 - SyntaxError, RecursionError, ...
                import traceback

                text = "".join(traceback.format_exception_only(type(exc), exc))
                os.write(write_fd, text.encode(errors="replace")[:65536])
                os._exit(1)
        finally:
            os._exit(2)
    os.close(write_fd)
    waited = _wait_until(pid, time.monotonic() + limit_ms / 1000)
    if waited is None:
        os.kill(pid, signal.SIGKILL)
        waited = os.wait4(pid, 0)[1:]
    status = waited[0]
    chunks = []
    while chunk := os.read(read_fd, 65536):
        chunks.append(chunk)
    os.close(read_fd)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return None
    return b"".join(chunks).decode(errors="replace") or "the source could not be compiled\n"


def emit_compile(ok: bool, time_ms: int, exit_code, output: bytes) -> None:
    emit(
        {
            "type": "compile",
            "ok": ok,
            "time_ms": time_ms,
            "exit_code": exit_code,
            "output_bytes": len(output),
        },
        output,
    )


def _write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o444)


# ---------------------------------------------------------------------------- main


def run_job(job: dict) -> None:
    if job.get("protocol") != PROTOCOL:
        raise ValueError(f"protocol {job.get('protocol')!r} is not {PROTOCOL}")
    limits = job["limits"]
    argv, env, keep = prepare(job)
    if not argv:
        return
    out_cap = limits["output_bytes"]
    scratch = Scratch(keep)
    warm = None
    if job["language"] == "javascript" and node_warm_fits(job["code"]):
        memory_mb = max(16, limits["memory_kb"] // 1024)
        src = os.path.join(WORK, "main.js")
        command = node_warm_command(
            memory_mb, job.get("io", "stdio"), job.get("entrypoint"), src, limits
        )
        warm = WarmNode(command, env, out_cap + 1, limits["memory_kb"])
    try:
        _run_tests(job, argv, env, scratch, warm)
    finally:
        if warm is not None:
            warm.close()


def _run_tests(job: dict, argv, env, scratch: Scratch, warm: WarmNode | None) -> None:
    limits = job["limits"]
    out_cap = limits["output_bytes"]
    for index, test_input in enumerate(job["tests"]):
        ran = None
        if warm is not None:
            ran = warm.run(
                test_input.encode(),
                time_ms=limits["time_ms"],
                wall_ms=limits["wall_ms"],
                stderr_cap=limits.get("stderr_bytes", 65536),
            )
            if ran is None:  # the warm node would not start: the per-test way from here
                warm.close()
                warm = None
        if ran is not None:
            result, out, size, err = ran
        else:
            for _attempt in range(2):
                result, out_fd, err = run_process(
                    argv,
                    env,
                    test_input.encode(),
                    time_ms=limits["time_ms"],
                    wall_ms=limits["wall_ms"],
                    memory_kb=limits["memory_kb"],
                    fsize=out_cap + 1,
                    stderr_cap=limits.get("stderr_bytes", 65536),
                )
                if result is not ZYGOTE_LOST:
                    break
                scratch.reset()  # the test killed the zygote: again, the exec way
            out, size = _read_head(out_fd, out_cap + 1)
            os.close(out_fd)
        scratch.reset()
        header = {"type": "test", "index": index, "status": "ok", **result}
        header.update(stdout_size=size, stdout_bytes=len(out), stderr_bytes=len(err))
        emit(header, out, err)
        if job.get("fail_fast") and _hit_limit(result, err, limits):
            if index + 1 < len(job["tests"]):
                emit({"type": "skipped", "from": index + 1})
            return


# How a runtime says it ran out of memory (as sandbox.judge reads them): a program that
# dies with one of these hit the memory limit as surely as one the kernel killed.
_MEMORY_MESSAGES = (
    b"MemoryError",
    b"JavaScript heap out of memory",
    b"std::bad_alloc",
    b"fatal error: runtime: out of memory",
)


def _hit_limit(result: dict, stderr: bytes, limits: dict) -> bool:
    """Did this test exceed its time or memory limit (the rest of the part can wait)?"""
    failed = result["exit_code"] not in (0, None) or result["signal"] is not None
    return bool(
        result["wall_timeout"]
        or result["time_ms"] > limits["time_ms"]
        or result["signal"] == signal.SIGXCPU
        or result["oom_killed"]
        or result["memory_kb"] > limits["memory_kb"]
        or (failed and any(m in stderr for m in _MEMORY_MESSAGES))
    )


def main() -> int:
    try:
        return _main()
    finally:
        FRAMES.flush()


def _main() -> int:
    _make_undumpable()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # PID 1 gets only the signals it handles: handle none (Python's SIGINT handler would
    # let a candidate raise KeyboardInterrupt in the runner)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    idle = float(os.environ.get("MOCKLOOP_IDLE_TIMEOUT_S", "600"))
    prefork = os.environ.get("MOCKLOOP_PREFORK") == "python"
    if prefork and IS_INIT and _LIBC is not None and os.path.exists(f"{HERE}/zygote.py"):
        try:
            ZYGOTE.start(_child_env(PYTHON_ENV))
        except Exception:  # noqa: BLE001 - the tests run the exec way
            ZYGOTE.stop()
    try:
        job = _read_job(idle)
    except ValueError as exc:
        emit({"type": "error", "message": f"bad job: {exc}"})
        return 2
    if job is None:
        return 0
    os.close(0)
    os.open("/dev/null", os.O_RDONLY)
    emit({"type": "hello", "protocol": PROTOCOL})
    try:
        run_job(job)
    except Exception as exc:  # noqa: BLE001 - reported to the host as internal_error
        emit({"type": "error", "message": f"{type(exc).__name__}: {exc}"})
        return 2
    emit({"type": "done"})
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--build-node-snapshots"]:
        sys.exit(build_node_snapshots())
    sys.exit(main())
