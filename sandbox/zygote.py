"""A pre-warmed Python interpreter that forks one child per test (no exec per test).

Used in Python runner containers only. The runner (``sandbox/runner.py``, PID 1) forks
this helper at container start, while the container still waits in the warm pool, i.e.
**before the job exists**; the helper (the "zygote") is a copy of the runner's
interpreter at that moment, with its stdin (where the job will arrive) and stdout (the
frames to the host) replaced by ``/dev/null``. For each test the runner sends, over a
socketpair, the script to run (``main.py`` or the function-mode wrapper) with its
arguments and limits, plus the test's stdin, stdout and stderr as file descriptors
(``SCM_RIGHTS``). The zygote forks; the child applies the per-test limits of the exec
path (own process group, ``RLIMIT_CPU``/``FSIZE``/``CORE``/``STACK``, ``oom_score_adj``
1000, fds 0-2 only, the same environment) and runs the script as ``__main__`` the way
the exec path does (``sandbox/python_start.py``, shared with it: ``sys.argv``,
``sys.path[0]``, ``site``'s builtins and directories, fresh stdio on fds 0-2,
Python's default signal handlers, exit status, traceback, ``atexit``, non-daemon threads
joined, buffers flushed). The zygote waits for it (``wait4``: CPU time and peak RSS),
kills and reaps whatever it left behind (``kill(-1)``: the zygote is a child subreaper,
so orphans come back to it; PID 1 is immune), and reports.

Replies: ``pid N`` once the child exists, then ``exit STATUS UTIME_US STIME_US
MAXRSS_KB`` once it and its leftovers are gone.

Why (measured, see bench/judge.py): a fresh interpreter costs ~8-10 ms of CPU per test,
a fork of a warm one ~2 ms; the helper itself costs ~1 ms per container (a fork, where
an exec'd helper costs ~15 ms).

What a test's process can see, and why this is safe (the trade-off against exec):
- Its memory is a copy of the zygote's, which never held the job: not the code (each
  child compiles ``main.py`` itself), not any test's input (the runner passes a file
  descriptor per test). Expected outputs never enter the container at all. So a test
  sees its own input only — less than a child forked from the runner after it read the
  job would.
- Each test is a fresh fork that never ran another test's code; files are cleaned by the
  runner between tests as before. What the tests of one job share: modules already
  imported by the runner (e.g. ``ctypes``, ``select``; ``json`` for function mode), the
  hash-randomisation seed, the interpreter's flags (``sys.flags.isolated`` and
  ``no_site`` are 1, as on the exec path: the runner runs with ``-I -S -B``), and CPU
  time excludes the interpreter's start-up (in the candidate's favour).
- The zygote is non-dumpable (no ptrace; ``/proc/<pid>/mem``, ``environ``, ``fd`` are
  root's) and its socket is closed in the child. A test *can* signal it (same uid): that
  harms only its own submission (one container per submission, never reused), and not
  even its verdict: the zygote ignores every signal it can; once the test's process has
  exited the runner sends it SIGCONT (against SIGSTOP); if it was killed, the runner
  kills what is left and runs that test again the exec way (where the same signal hits
  PID 1 and does nothing), and the remaining tests too.
"""

import _signal as signal  # not `signal`: it imports enum
import _socket
import io
import os
import resource
import sys
import time

from python_start import exit_code, run_script, site_builtins  # beside us in the image

MAX_FD = 4096
SHIELDED = (
    signal.SIGHUP,
    signal.SIGINT,
    signal.SIGQUIT,
    signal.SIGTERM,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGVTALRM,
    signal.SIGPROF,
    signal.SIGPIPE,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
)


def _setup(libc, env: dict) -> None:
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)  # the runner's stdin: where the job will arrive
    os.dup2(null, 1)  # the runner's stdout: the frames to the host
    os.close(null)
    # a test can signal us (same uid): ignore what would end us (SIGKILL and SIGSTOP
    # cannot be: the runner copes with those); each child restores Python's dispositions
    for sig in SHIELDED:
        signal.signal(sig, signal.SIG_IGN)
    os.environ.clear()
    os.environ.update(env)
    # the OOM killer must pick a test (or this helper), never the runner: raise our score
    # (inherited by every child) while dumpable, as a non-dumpable process cannot open
    # its own /proc files; no other process of this uid exists yet
    libc.prctl(4, 1, 0, 0, 0)
    try:
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no ptrace, /proc/<pid>/* are root's
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: a test's orphans come back here


def _fresh_stdio() -> None:
    """New sys.stdin/stdout/stderr on fds 0-2, configured as Python's start-up does."""
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        old = getattr(sys, name)
        buffer = io.open(fd, mode + "b", -1, closefd=False)  # noqa: SIM115, UP020 - stays open
        text = io.TextIOWrapper(
            buffer,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=old.line_buffering,
        )
        text.mode = mode
        setattr(sys, name, text)
        setattr(sys, f"__{name}__", text)


def _child(libc, argv, fds, cwd: str, cpu_s: int, fsize: int, stack: int) -> None:
    try:
        for sig in SHIELDED:  # what a fresh interpreter has
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        os.setpgid(0, 0)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], MAX_FD))
        libc.prctl(4, 1, 0, 0, 0)  # dumpable again, like any freshly exec'd program
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
        if stack_hard != resource.RLIM_INFINITY:
            stack = min(stack, stack_hard)
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
        os.chdir(cwd)
        _fresh_stdio()
    except BaseException as exc:  # noqa: BLE001
        try:
            os.write(2, f"mockloop-zygote: cannot start the test: {exc}\n".encode())
        finally:
            os._exit(127)
    try:
        status = run_script(argv)
    except BaseException:  # noqa: BLE001
        status = 1
    os._exit(exit_code(status))


def _kill_leftovers(deadline_s: float = 2.0) -> None:
    """SIGKILL every process but PID 1 and ourselves, reap them (they are ours)."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:  # noqa: SIM105 - no contextlib: it is not imported by the runner
            os.kill(-1, signal.SIGKILL)
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
        time.sleep(0.001)


def _receive(sock):
    msg, ancdata, _flags, _addr = sock.recvmsg(65536, _socket.CMSG_SPACE(3 * 4))
    fds = []
    for level, kind, data in ancdata:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(data) - len(data) % 4
            fds += [int.from_bytes(data[i : i + 4], sys.byteorder) for i in range(0, usable, 4)]
    return msg, fds


def serve(sock, env: dict, libc) -> int:
    """The zygote's loop (in the child the runner forked); returns when the runner is gone."""
    _setup(libc, env)
    site_builtins()  # the runner runs without `site`; a test's script gets what it gives
    while True:
        msg, fds = _receive(sock)
        if not msg:
            return 0
        fields = msg.decode().split("\0")
        if len(fds) != 3 or len(fields) < 5:
            for fd in fds:
                os.close(fd)
            sock.send(b"error bad request")
            continue
        cwd, cpu_s, fsize, stack, *argv = fields
        if os.path.basename(argv[0]) == "function_python.py" and "json" not in sys.modules:
            import json  # noqa: F401 - the function-mode wrapper's; once, not per test
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child(libc, argv, fds, cwd, int(cpu_s), int(fsize), int(stack))
        for fd in fds:
            os.close(fd)
        sock.send(b"pid %d" % pid)
        _, status, usage = os.wait4(pid, 0)
        _kill_leftovers()
        utime, stime = round(usage.ru_utime * 1e6), round(usage.ru_stime * 1e6)
        sock.send(b"exit %d %d %d %d" % (status, utime, stime, usage.ru_maxrss))
