"""Python tests fork a pre-warmed interpreter (sandbox/zygote.py) instead of exec'ing one:
same behaviour as the exec path, same limits, nothing of other tests visible, and a test
that attacks the helper only hurts its own submission (real Docker)."""

from __future__ import annotations

import pytest

from sandbox import UNCHECKED, Job, Limits, Test, run_tests
from sandbox.engine import Engine

pytestmark = pytest.mark.integration

LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=128, wall_time_limit_ms=2000)


@pytest.fixture(scope="module")
def exec_engine(images):
    """An engine whose containers run every Python test the exec way (no zygote)."""
    eng = Engine(pool_size=0)
    eng.zygote = False
    yield eng
    eng.close()


def _run(engine, code: str, tests: list[Test], **job) -> object:
    return run_tests(Job(language="python", code=code, limits=LIMITS, **job), tests, engine=engine)


# Programs whose observable behaviour must not depend on fork-vs-exec.
PARITY = {
    "echo": ("print(input()[::-1])\n", "abc\n"),
    "argv, path and __main__": (
        "import sys, os\nprint(sys.argv, sys.path[0], __name__, __file__, os.getcwd())\n"
        "print(__spec__, __package__, sys.modules['__main__'].__name__)\n",
        "",
    ),
    "stdio configuration": (
        "import sys\nfor s in (sys.stdin, sys.stdout, sys.stderr):\n"
        "    print(s.encoding, s.errors, s.line_buffering, s.mode, s.isatty(), s.fileno())\n"
        "print(sys.stdin is sys.__stdin__, sys.stdout is sys.__stdout__)\n",
        "",
    ),
    "uncaught exception": ("def f():\n    raise ValueError('boom')\nf()\n", ""),
    "sys.exit with a message": ("import sys\nsys.exit('bye')\n", ""),
    "sys.exit(3)": ("import sys\nsys.exit(3)\n", ""),
    "exit() builtin from site": ("print('x')\nexit(4)\n", ""),
    "site's other builtins and directories": (
        "import sys\nprint(type(quit).__name__, type(help).__name__, type(license).__name__)\n"
        "print([p for p in sys.path if 'dist-packages' in p], sys.flags.no_site)\nquit()\n",
        "",
    ),
    "atexit and threads": (
        "import atexit, threading, time\natexit.register(lambda: print('atexit'))\n"
        "def work():\n    time.sleep(0.1)\n    print('thread', flush=True)\n"
        "threading.Thread(target=work).start()\nprint('main')\n",
        "",
    ),
    "text and binary writes": (
        "import sys\nprint(len(sys.stdin.read()))\nprint('err', file=sys.stderr)\n"
        "sys.stdout.buffer.write(b'bin\\n')\n",
        "x" * 100_000,
    ),
    "stdin at EOF": ("import sys\nprint(repr(sys.stdin.read()))\n", ""),
    "unicode": ("print(input().upper(), 'é')\n", "straße\n"),
    "signals as Python sets them": (
        "import signal\nprint(signal.getsignal(signal.SIGINT) is signal.default_int_handler,"
        " [signal.getsignal(s) for s in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM,"
        " signal.SIGHUP, signal.SIGUSR1, signal.SIGTSTP, signal.SIGCHLD)])\n",
        "",
    ),
    "limits and OOM score": (
        "import resource\nprint([resource.getrlimit(r) for r in (resource.RLIMIT_CPU,"
        " resource.RLIMIT_CORE, resource.RLIMIT_FSIZE)])\n"
        "print(open('/proc/self/oom_score_adj').read().strip())\n"
        "print(len(open('/proc/self/environ', 'rb').read()) > 0)\n",
        "",
    ),
    "environment": ("import os\nprint(sorted(os.environ.items()))\n", ""),
    "killed by a signal": ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", ""),
    "output over the limit": ("import sys\nsys.stdout.write('x' * (9 << 20))\n", ""),
}


@pytest.mark.parametrize("name", list(PARITY))
def test_fork_and_exec_behave_alike(name, clean_host, exec_engine) -> None:
    code, stdin = PARITY[name]
    forked = _run(clean_host, code, [Test(stdin)])
    execed = _run(exec_engine, code, [Test(stdin)])
    a, b = forked.tests[0], execed.tests[0]
    assert (a.verdict, a.exit_code, a.exit_signal) == (b.verdict, b.exit_code, b.exit_signal)
    assert a.output == b.output
    assert a.stderr == b.stderr
    if name == "limits and OOM score":  # the OOM killer picks a test, never the runner
        assert a.output.splitlines()[1] == "1000"


def test_python_tests_are_forked_and_cheap(clean_host) -> None:
    """The zygote serves the tests: the test process's parent is not PID 1 and no test
    pays for an interpreter start-up."""
    code = "import os\nprint(os.getppid() != 1)\n"
    result = _run(clean_host, code, [Test("", "True\n")] * 5)
    assert result.verdict == "accepted", result
    assert max(t.time_ms for t in result.tests) < 20


def test_function_mode_through_the_zygote(clean_host, exec_engine) -> None:
    code = "def add(a, b):\n    print('debug')\n    return a + b\n"
    tests = [Test([1, 2], 3), Test([5, 6], 11), Test([1, 1], 3)]
    for engine in (clean_host, exec_engine):
        result = _run(engine, code, tests, io="function", entrypoint="add")
        assert [t.verdict for t in result.tests] == ["accepted", "accepted", "wrong_answer"]
        assert [t.stderr for t in result.tests] == ["debug\n"] * 3


SITE_FOR_A_SCRIPT = (
    "import os, site, sys\n"
    "wanted = [p for p in site.getsitepackages() if os.path.isdir(p)]\n"
    "print([p for p in sys.path if p in wanted] == wanted, wanted != [], sys.flags.no_site)\n"
    "print(sys.path[0], 'site' in sys.modules)\n"
    "exit(4)\n"
)


def test_a_script_starts_without_site_and_gets_what_it_gives(clean_host, exec_engine) -> None:
    """Both ways a Python test runs skip `site` (its start-up cost, once per test on the
    exec path) and give the script what it would have had: the `exit`/`quit` builtins
    and the image's dist-packages directories on sys.path, in site's order."""
    for engine in (clean_host, exec_engine):
        result = _run(engine, SITE_FOR_A_SCRIPT, [Test("")])
        test = result.tests[0]
        assert (test.verdict, test.exit_code) == ("runtime_error", 4), test
        # `import site` under -S only imports it (its main() runs when start-up runs it)
        assert test.output == "True True 1\n/work True\n", test


def test_a_test_sees_nothing_of_the_other_tests(clean_host) -> None:
    """Neither other tests' inputs (anywhere in its memory) nor state left by earlier
    tests: each test process is a fresh fork of a helper that never held the job."""
    code = (
        "import builtins, re, sys\n"
        "mine = sys.stdin.read().strip()\n"
        "prefix = ('hidden' + '-input-').encode()\n"
        "found = set()\n"
        "with open('/proc/self/maps') as maps, open('/proc/self/mem', 'rb') as mem:\n"
        "    for line in maps:\n"
        "        addr, perms = line.split()[:2]\n"
        "        if perms[0] != 'r' or line.rstrip().endswith(('[vvar]', '[vsyscall]')):\n"
        "            continue\n"
        "        start, end = (int(x, 16) for x in addr.split('-'))\n"
        "        try:\n"
        "            mem.seek(start)\n"
        "            chunk = mem.read(end - start)\n"
        "        except OSError:\n"
        "            continue\n"
        "        found.update(m.decode() for m in re.findall(prefix + rb'[0-9]', chunk))\n"
        "print(getattr(builtins, 'LEFT_BEHIND', None), sorted(found))\n"
        "builtins.LEFT_BEHIND = 'yes'\n"
    )
    tests = [Test(f"hidden-input-{i}\n", UNCHECKED) for i in range(3)]
    result = _run(clean_host, code, tests)
    # each finds its own input in its memory (the scan works), and only that
    assert [t.output for t in result.tests] == [f"None ['hidden-input-{i}']\n" for i in range(3)], (
        result
    )


def test_the_zygote_cannot_be_read(clean_host) -> None:
    code = (
        "import os\nout = []\nppid = os.getppid()\n"
        "for name in ('environ', 'mem', 'maps', 'fd/0', 'cmdline'):\n"
        "    try:\n        with open(f'/proc/{ppid}/{name}', 'rb') as fh:\n"
        "            fh.read(1)\n        out.append('READ ' + name)\n"
        "    except OSError:\n        out.append('denied')\n"
        "print(*out[:4])\n"
    )
    result = _run(clean_host, code, [Test("", "denied denied denied denied\n")])
    assert result.verdict == "accepted", result.tests[0]


@pytest.mark.parametrize(
    "attack",
    [
        "os.kill(os.getppid(), signal.SIGKILL)",
        "os.kill(-1, signal.SIGKILL)",
        "os.kill(os.getppid(), signal.SIGTERM)",
        "os.kill(-1, signal.SIGTERM); os.kill(-1, signal.SIGINT); os.kill(-1, signal.SIGTSTP)",
        "os.kill(os.getppid(), signal.SIGSTOP)",
    ],
)
def test_attacking_the_zygote_changes_no_verdict(attack, clean_host, exec_engine) -> None:
    """Whatever a test does to the zygote (kill it, stop it), every test gets the verdict
    it gets the exec way; a killed zygote's test runs again the exec way, and so do the
    tests after it."""
    code = f"import os, signal\ntry:\n    {attack}\nexcept OSError:\n    pass\nprint(input())\n"
    tests = [Test(f"{i}\n", f"{i}\n") for i in range(3)]
    for _ in range(3):  # the zygote races with the test it forked: try a few times
        result = _run(clean_host, code, tests)
        assert [t.verdict for t in result.tests] == ["accepted"] * 3, result
        assert [t.output for t in result.tests] == ["0\n", "1\n", "2\n"]
    execed = _run(exec_engine, code, tests)
    assert [t.verdict for t in execed.tests] == ["accepted"] * 3
    after = _run(clean_host, "print(input())\n", [Test("ok\n", "ok\n")])
    assert after.verdict == "accepted"


def test_kill_everything_behaves_as_in_exec(clean_host, exec_engine) -> None:
    """kill(-1) finds no other process the exec way (ESRCH); forked, it finds the
    zygote, which is then lost: the test runs again the exec way and fails the same."""
    code = "import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('unreachable')\n"
    forked = _run(clean_host, code, [Test(""), Test("")])
    execed = _run(exec_engine, code, [Test(""), Test("")])
    assert [t.verdict for t in forked.tests] == [t.verdict for t in execed.tests]
    assert [t.verdict for t in execed.tests] == ["runtime_error"] * 2
    assert "ProcessLookupError" in forked.tests[0].stderr


def test_leftovers_of_a_forked_test_are_killed(clean_host) -> None:
    code = (
        "import os, subprocess, sys, time\n"
        "if input() == 'spawn':\n"
        "    subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
        "    if os.fork() == 0:\n        os.setsid()\n        time.sleep(1000)\n"
        "print(len([p for p in os.listdir('/proc') if p.isdigit()]))\n"
    )
    result = _run(clean_host, code, [Test("spawn\n"), Test("count\n"), Test("count\n")])
    assert result.verdict == "accepted"
    # later tests see the runner, the zygote and themselves: nothing was left running
    assert [t.output for t in result.tests[1:]] == ["3\n", "3\n"], result
