"""How a Python test's program starts, in both ways the runner runs one.

- **Exec** (the warm interpreter off, or after a test killed it): the runner spawns
  ``python3 -I -S -B python_start.pyc --limits CPU_S,FSIZE,STACK,CWD SCRIPT ARGS...``
  for each test (``posix_spawn``: nothing runs between its fork and exec, so
  ``apply_limits`` sets the test's limits here, before SCRIPT runs);
- **Fork** (``sandbox/zygote.py``): the zygote calls ``site_builtins()`` once and each
  forked child calls ``run_script(argv)``.

Why ``-S``: the ``site`` module is ~1.8 ms of the ~9 ms CPU a ``python3`` start-up costs
in the runner image (Debian's ``sitecustomize``, path scans, ``.pth`` processing), once
per test on the exec path. A script run the usual way gets two things from it, and
``site_builtins`` gives back both: the ``exit``/``quit``/``help``/``copyright``/``credits``
/``license`` builtins, and the image's ``dist-packages`` directories on ``sys.path`` (the
image has no ``.pth`` files; user site-packages are off under ``-I`` anyway). Then
``run_script`` runs SCRIPT as ``__main__`` the way ``python3 -B SCRIPT`` would:
``sys.argv``, ``sys.path[0]`` (``-I`` leaves the script's directory out), the exit status
of ``SystemExit``, a traceback without our frame, ``atexit`` and non-daemon threads,
flushed buffers. It imports nothing beyond what the interpreter has loaded at start-up
(``_sitebuiltins`` is a few lines), so it costs a fraction of what ``site`` does.
"""

import _sitebuiltins
import atexit
import builtins
import os
import sys
from _frozen_importlib_external import SourceFileLoader  # importlib.machinery's, loaded


def site_builtins() -> None:
    """What ``site`` gives a script: its builtins and the dist-packages directories."""
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()
    builtins.copyright = _sitebuiltins._Printer("copyright", sys.copyright)
    builtins.credits = _sitebuiltins._Printer(
        "credits",
        "    Thanks to CWI, CNRI, BeOpen.com, Zope Corporation and a cast of thousands\n"
        "    for supporting Python development.  See www.python.org for more information.",
    )
    here = os.path.dirname(os.__file__)
    builtins.license = _sitebuiltins._Printer(
        "license",
        "See https://www.python.org/psf/license/",
        ["LICENSE.txt", "LICENSE"],
        [os.path.join(here, os.pardir), here, os.curdir],
    )
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for directory in (  # Debian's site.getsitepackages() for /usr, in its order
        f"/usr/local/lib/python{version}/dist-packages",
        f"{sys.prefix}/lib/python3/dist-packages",
        f"{sys.prefix}/lib/python{version}/dist-packages",
    ):
        if directory not in sys.path and os.path.isdir(directory):
            sys.path.append(directory)


MAX_FD = 4096


def apply_limits(cpu_s: int, fsize: int, stack: int, cwd: str) -> None:
    """What the runner's fork path does for a test between fork and exec: fds 3 and up
    closed, the CPU, file-size, core and stack rlimits (hard ones included, so the
    script cannot raise them), the OOM killer's first choice, the working directory.
    Nothing of the test's own code has run yet."""
    import resource

    os.closerange(3, min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], MAX_FD))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_STACK, (stack, resource.getrlimit(resource.RLIMIT_STACK)[1]))
    try:  # noqa: SIM105 - no contextlib: it is not loaded at start-up
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass
    os.chdir(cwd)


def exit_status(exc: SystemExit) -> int:
    """The process status for ``SystemExit`` as the interpreter computes it."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code if -(2**31) <= code < 2**31 else -1
    try:  # noqa: SIM105 - no contextlib: it is not loaded at start-up
        sys.stderr.write(f"{code}\n")
    except Exception:  # noqa: BLE001
        pass
    return 1


def run_script(argv: list[str]) -> int:
    """Run ``argv[0]`` as ``__main__`` like the interpreter's own script start-up."""
    script = argv[0]
    sys.argv = list(argv)
    sys.orig_argv = [sys.executable, "-B", *argv]
    sys.path.insert(0, os.path.dirname(script))
    main = type(sys)("__main__")
    main.__file__ = script
    main.__cached__ = None
    main.__loader__ = SourceFileLoader("__main__", script)
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    try:
        with open(script, "rb") as fh:
            code = compile(fh.read(), script, "exec", dont_inherit=True)
        exec(code, main.__dict__)
        status = 0
    except SystemExit as exc:
        status = exit_status(exc)
    except BaseException as exc:  # noqa: BLE001 - reported like an uncaught exception
        tb = exc.__traceback__
        exc.__traceback__ = tb.tb_next if tb is not None else None  # not our own frame
        sys.excepthook(type(exc), exc, exc.__traceback__)
        status = 1
    # the interpreter's shutdown, in its order: threads, atexit, flush
    try:
        if "threading" in sys.modules:
            sys.modules["threading"]._shutdown()
        atexit._run_exitfuncs()
    except SystemExit as exc:
        status = exit_status(exc)
    except BaseException:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - e.g. EFBIG past the output limit
            if stream is sys.stdout and status == 0:
                status = 120  # what the interpreter exits with when the flush fails
    return status


def exit_code(status: int) -> int:
    """A status for ``os._exit``: the interpreter's own teardown is skipped (everything
    it would still do for a script was done by ``run_script``)."""
    return status & 0xFF if status >= 0 else 255


def main(args: list[str]) -> int:
    if args[:1] == ["--limits"]:
        cpu_s, fsize, stack, cwd = args[1].split(",", 3)
        try:
            apply_limits(int(cpu_s), int(fsize), int(stack), cwd)
        except BaseException as exc:  # noqa: BLE001 - no limits: the script must not run
            os.write(2, f"mockloop-runner: cannot start the test: {exc}\n".encode())
            return 127
        args = args[2:]
    site_builtins()
    return exit_code(run_script(args))


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))
