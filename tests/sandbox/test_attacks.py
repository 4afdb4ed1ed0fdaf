"""Hostile programs get the right verdict and leave the host as it was.

Each case runs in a real container (real Docker engine, real runner image); after each
the ``clean_host`` fixture checks that no container with the sandbox label is left
(besides the engine's idle warm pool) and no process runs on the host as the sandbox uid.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import pytest

from sandbox import UNCHECKED, Job, Limits, Test, run_tests

pytestmark = pytest.mark.integration

FAST = Limits(time_limit_ms=500, memory_limit_mb=128, wall_time_limit_ms=1500)


@dataclass
class Attack:
    name: str
    code: str
    verdict: str
    language: str = "python"
    stdin: str = ""
    expected: object = UNCHECKED
    max_seconds: float = 10.0


ATTACKS = [
    Attack(
        "fork bomb",
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "time_limit",
    ),
    Attack(
        "fork bomb (c++)",
        "#include <unistd.h>\nint main(){ for(;;) fork(); }\n",
        "time_limit",
        language="cpp",
    ),
    Attack(
        "fork bomb (go)",
        'package main\nimport "syscall"\nfunc main() {\n\tfor {\n'
        '\t\tsyscall.ForkExec("/proc/self/exe", []string{"x"}, nil)\n\t}\n}\n',
        "time_limit",
        language="go",
    ),
    Attack(
        # goroutines that each pin a thread: the pids limit stops the threads and the
        # Go runtime dies ("failed to create new OS thread")
        "thread explosion (go)",
        'package main\nimport "runtime"\nfunc main() {\n\tfor {\n'
        "\t\tgo func() { runtime.LockOSThread(); select {} }()\n\t}\n}\n",
        "runtime_error",
        language="go",
    ),
    Attack(
        "goroutine explosion (go)",
        "package main\nfunc main() {\n\tfor {\n\t\tgo func() { select {} }()\n\t}\n}\n",
        "memory_limit",
        language="go",
    ),
    Attack(
        "memory bomb",
        "chunks = []\nwhile True:\n    chunks.append('x' * 10_000_000)\n",
        "memory_limit",
    ),
    Attack(
        "memory bomb (one huge allocation)",
        "x = 'y' * (50 * 1024**3)\n",
        "memory_limit",
    ),
    Attack(
        "memory bomb (node)",
        "const a = []; for (;;) a.push(new Array(1e6).fill(1.5));\n",
        "memory_limit",
        language="javascript",
    ),
    Attack(
        "memory bomb (c++)",
        "#include <cstring>\n#include <cstdlib>\nint main(){ for(;;){ char*p=(char*)malloc(1<<24);"
        " if(p) memset(p,1,1<<24); } }\n",
        "memory_limit",
        language="cpp",
    ),
    Attack(
        "memory bomb (go)",
        "package main\nvar keep [][]byte\nfunc main() {\n\tfor {\n\t\tb := make([]byte, 1<<24)\n"
        "\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tkeep = append(keep, b)\n\t}\n}\n",
        "memory_limit",
        language="go",
    ),
    Attack(
        "memory bomb (go, one huge allocation)",
        'package main\nimport "fmt"\nfunc main() {\n\tb := make([]byte, 50<<30)\n'
        "\tfor i := 0; i < len(b); i += 4096 {\n\t\tb[i] = 1\n\t}\n\tfmt.Println(len(b))\n}\n",
        "memory_limit",
        language="go",
    ),
    Attack("infinite loop", "while True:\n    pass\n", "time_limit"),
    Attack("sleep forever", "import time\ntime.sleep(10**6)\n", "time_limit"),
    Attack(
        "100 MB of output",
        "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(100):\n    sys.stdout.write(chunk)\n",
        "output_limit",
    ),
    Attack(
        "100 MB of output (c++)",
        "#include <cstdio>\nint main(){ static char b[1<<20]; for(int i=0;i<(1<<20);i++) b[i]='x';"
        " for(int i=0;i<100;i++) fwrite(b,1,sizeof b,stdout); }\n",
        "output_limit",
        language="cpp",
    ),
    Attack(
        "100 MB of output (go)",
        'package main\nimport (\n\t"bufio"\n\t"os"\n)\nfunc main() {\n'
        "\tw := bufio.NewWriter(os.Stdout)\n\tb := make([]byte, 1<<20)\n"
        "\tfor i := range b {\n\t\tb[i] = 'x'\n\t}\n"
        "\tfor i := 0; i < 100; i++ {\n\t\tw.Write(b)\n\t}\n\tw.Flush()\n}\n",
        "output_limit",
        language="go",
    ),
    Attack(
        "write to / and /etc",
        "import os\nresults = []\n"
        "for path in ('/pwned', '/etc/pwned', '/etc/passwd', '/usr/bin/x'):\n"
        "    try:\n        open(path, 'a').write('x')\n        results.append('WROTE ' + path)\n"
        "    except OSError:\n        results.append('blocked')\nprint(*results)\n",
        "accepted",
        expected="blocked blocked blocked blocked\n",
    ),
    Attack(
        "socket to 127.0.0.1 and outside",
        "import socket, time\nout = []\n"
        "for host, port in (('127.0.0.1', 22), ('127.0.0.1', 2375), ('1.1.1.1', 80),"
        " ('8.8.8.8', 53)):\n"
        "    t = time.monotonic()\n    s = socket.socket()\n    s.settimeout(5)\n"
        "    try:\n        s.connect((host, port))\n        out.append('CONNECTED')\n"
        "    except OSError:\n"
        "        out.append('fast' if time.monotonic() - t < 0.5 else 'slow')\n"
        "try:\n    socket.getaddrinfo('pypi.org', 443)\n    out.append('RESOLVED')\n"
        "except OSError:\n    out.append('no-dns')\nprint(*out)\n",
        "accepted",
        expected="fast fast fast fast no-dns\n",
    ),
    Attack(
        "socket to 127.0.0.1 and outside (go)",
        'package main\nimport (\n\t"fmt"\n\t"net"\n\t"time"\n)\nfunc main() {\n'
        '\tfor _, a := range []string{"127.0.0.1:22", "127.0.0.1:2375",'
        ' "1.1.1.1:80", "8.8.8.8:53"} {\n'
        '\t\tt := time.Now()\n\t\tc, err := net.DialTimeout("tcp", a, 5*time.Second)\n'
        '\t\tif err == nil {\n\t\t\tc.Close()\n\t\t\tfmt.Print("CONNECTED ")\n'
        '\t\t} else if time.Since(t) < 500*time.Millisecond {\n\t\t\tfmt.Print("fast ")\n'
        '\t\t} else {\n\t\t\tfmt.Print("slow ")\n\t\t}\n\t}\n'
        '\tif _, err := net.LookupHost("pypi.org"); err == nil {\n\t\tfmt.Println("RESOLVED")\n'
        '\t} else {\n\t\tfmt.Println("no-dns")\n\t}\n}\n',
        "accepted",
        language="go",
        expected="fast fast fast fast no-dns\n",
    ),
    Attack(
        "kill the runner",
        "import os, signal\n"
        "for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGKILL,"
        " signal.SIGSTOP):\n"
        "    try:\n        os.kill(1, sig)\n    except OSError:\n        pass\nprint('alive')\n",
        "accepted",
        expected="alive\n",
    ),
    Attack(
        "read the runner's memory and environment",
        "out = []\n"
        "for path in ('/proc/1/environ', '/proc/1/mem', '/proc/1/maps', '/proc/1/fd/0'):\n"
        "    try:\n        with open(path, 'rb') as fh:\n            fh.read(1)\n"
        "        out.append('READ ' + path)\n    except OSError:\n        out.append('denied')\n"
        "print(*out)\n",
        "accepted",
        expected="denied denied denied denied\n",
    ),
    Attack(
        "privileges",
        "import os\nstatus = dict(l.split(':', 1) for l in open('/proc/self/status'))\n"
        "print(os.getuid(), os.geteuid(), status['CapEff'].strip(), status['CapBnd'].strip(),"
        " status['NoNewPrivs'].strip())\n",
        "accepted",
        expected="10001 10001 0000000000000000 0000000000000000 1\n",
    ),
    Attack(
        "exec from the noexec work dir",
        "import os, shutil, subprocess\n"
        "shutil.copy('/bin/true', '/work/t')\nos.chmod('/work/t', 0o755)\n"
        "shutil.copy('/bin/true', '/tmp/t')\nos.chmod('/tmp/t', 0o755)\nout = []\n"
        "for p in ('/work/t', '/tmp/t'):\n    try:\n        subprocess.run([p])\n"
        "        out.append('EXECUTED')\n"
        "    except PermissionError:\n        out.append('noexec')\n"
        "print(*out)\n",
        "accepted",
        expected="noexec noexec\n",
    ),
    Attack(
        "background process outliving main",
        "import subprocess, os\n"
        "subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
        "if os.fork() == 0:\n    os.setsid()\n    import time\n    time.sleep(1000)\n"
        "print('main done')\n",
        "accepted",
        expected="main done\n",
        max_seconds=3.0,
    ),
    Attack(
        "compile error",
        "int main() { return undefined_thing; }\n",
        "compile_error",
        language="cpp",
    ),
    Attack(
        "compile error (go)",
        "package main\nfunc main() {\n\tx := undefined_thing\n}\n",
        "compile_error",
        language="go",
    ),
    Attack(
        "panic (go)",
        'package main\nfunc main() {\n\tvar m map[string]int\n\tm["a"] = 1\n}\n',
        "runtime_error",
        language="go",
    ),
    Attack(
        "segfault",
        "int main(){ volatile int *p = nullptr; *p = 1; return 0; }\n",
        "runtime_error",
        language="cpp",
    ),
    Attack("segfault (python)", "import ctypes\nctypes.string_at(0)\n", "runtime_error"),
    Attack(
        "compiler bomb (python)",
        "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n" + "y = " + "-" * 100_000 + "1\n",
        "compile_error",
    ),
    Attack("non-zero exit", "import sys\nsys.exit(3)\n", "runtime_error"),
    Attack(
        "read stdin to EOF when none is given",
        "import sys\nprint(len(sys.stdin.read()))\n",
        "accepted",
        expected="0\n",
    ),
    Attack(
        "read stdin to EOF when none is given (node)",
        "console.log(require('fs').readFileSync(0, 'utf8').length);\n",
        "accepted",
        language="javascript",
        expected="0\n",
    ),
    Attack(
        "read stdin to EOF when none is given (go)",
        'package main\nimport (\n\t"fmt"\n\t"io"\n\t"os"\n)\nfunc main() {\n'
        "\tb, _ := io.ReadAll(os.Stdin)\n\tfmt.Println(len(b))\n}\n",
        "accepted",
        language="go",
        expected="0\n",
    ),
    Attack(
        "read stdin to EOF when none is given (c++)",
        "#include <iostream>\nint main(){ std::string s; long n=0; while (std::cin >> s) n++;"
        " std::cout << n << std::endl; }\n",
        "accepted",
        language="cpp",
        expected="0\n",
    ),
]


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_attack(attack: Attack, clean_host) -> None:
    started = time.monotonic()
    job = Job(language=attack.language, code=attack.code, limits=FAST, job_id="attack")
    result = run_tests(job, [Test(attack.stdin, attack.expected)], engine=clean_host)
    elapsed = time.monotonic() - started
    test = result.tests[0]
    assert result.verdict == attack.verdict, (result.error, test, result.compile_output)
    assert elapsed < attack.max_seconds
    if attack.verdict == "compile_error" and attack.language in ("cpp", "go"):
        assert "undefined_thing" in result.compile_output
    if attack.name.startswith("segfault"):
        assert test.exit_signal == "SIGSEGV"
    if attack.name == "non-zero exit":
        assert test.exit_code == 3
    if attack.name == "panic (go)":
        assert test.exit_code == 2 and "panic: assignment to entry in nil map" in test.stderr
    if attack.name == "thread explosion (go)":
        assert "failed to create new OS thread" in test.stderr
    if attack.verdict == "output_limit":
        assert len(test.output) <= 64 * 1024  # what comes back for display is capped
    _host_still_works(clean_host)


def _host_still_works(engine) -> None:
    assert subprocess.run(["true"]).returncode == 0  # the host can still fork
    assert shutil.disk_usage("/").free > 1 << 30
    job = Job(language="python", code="print(input())\n", limits=FAST)
    assert run_tests(job, [Test("ok\n", "ok\n")], engine=engine).verdict == "accepted"


def test_worker_environment_does_not_reach_the_container(clean_host, monkeypatch) -> None:
    sentinel = "sentinel-7f3a9c-do-not-leak"
    monkeypatch.setenv("MOCKLOOP_SENTINEL", sentinel)
    monkeypatch.setenv("SECRET_KEY", sentinel)
    monkeypatch.setenv("DATABASE_URL", f"postgres://u:{sentinel}@db/x")
    code = (
        "import os, json\nprint(json.dumps(dict(os.environ)))\n"
        "import sys\nprint(open('/proc/self/environ','rb').read(), file=sys.stderr)\n"
    )
    job = Job(language="python", code=code, limits=FAST)
    result = run_tests(job, [Test("")], engine=clean_host)
    assert result.verdict == "accepted", result
    env = json.loads(result.tests[0].output)
    assert sentinel not in result.tests[0].output + result.tests[0].stderr
    assert not {"SECRET_KEY", "DATABASE_URL", "MOCKLOOP_SENTINEL"} & set(env)
    assert set(env) <= {"PATH", "LANG", "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "LC_CTYPE"}


def test_a_job_cannot_see_another_jobs_files(clean_host) -> None:
    writer = (
        "import time\nfor d in ('/work', '/tmp'):\n"
        "    open(d + '/secret-of-job-a', 'w').write('s3cret')\n"
        "print('written', flush=True)\ntime.sleep(3)\n"
    )
    reader = (
        "import os, time\ntime.sleep(1)\nfound = []\n"
        "for base in ('/work', '/tmp', '/dev/shm', '/var/tmp', '/run'):\n"
        "    for root, dirs, files in os.walk(base):\n"
        "        found += [f for f in files if 'secret' in f]\n"
        "print('found', found)\n"
    )
    limits = Limits(time_limit_ms=1000, wall_time_limit_ms=5000)
    results = {}

    def run(name, code):
        job = Job(language="python", code=code, limits=limits, job_id=name)
        results[name] = run_tests(job, [Test("")], engine=clean_host)

    first = threading.Thread(target=run, args=("a", writer))
    first.start()
    time.sleep(0.5)
    run("b", reader)
    first.join()
    assert results["a"].tests[0].output == "written\n"
    assert results["b"].tests[0].output == "found []\n"


def test_files_do_not_survive_between_tests_of_a_job(clean_host) -> None:
    code = (
        "import os\nprint(sorted(os.listdir('/work')), sorted(os.listdir('/tmp')))\n"
        "open('/tmp/state', 'w').write('1')\nopen('/work/state', 'w').write('1')\n"
    )
    job = Job(language="python", code=code, limits=FAST)
    result = run_tests(job, [Test(""), Test("")], engine=clean_host)
    assert [t.output for t in result.tests] == ["['main.py'] []\n"] * 2


# Each test prints what it finds a previous test could have left, then leaves all of it:
# files and mode-000 directories in /work, /tmp, /dev/shm; a POSIX message queue; SysV
# shared memory, a message queue and semaphores; a daemon with an abstract socket.
LEAVE_STATE = r"""
import ctypes, os, socket, sys, time
libc = ctypes.CDLL(None, use_errno=True)
found = []
for base in ("/work", "/tmp", "/dev/shm", "/dev/mqueue"):
    found += [f"{base}/{n}" for n in sorted(os.listdir(base)) if n != "main.py"]
for kind in ("shm", "msg", "sem"):
    rows = open(f"/proc/sysvipc/{kind}").read().splitlines()[1:]
    found += [f"sysv-{kind}"] * len(rows)
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect("\0mockloop-leftover")
    found.append("abstract socket")
except OSError:
    pass
print(found)
for base in ("/work", "/tmp", "/dev/shm"):
    open(base + "/left", "w").write("state")
    os.makedirs(base + "/locked/inner")
    open(base + "/locked/inner/file", "w").write("state")
    os.chmod(base + "/locked/inner", 0)
    os.chmod(base + "/locked", 0)
open("/dev/mqueue/left", "w").close()
libc.shmget(0, 4096, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
libc.msgget(0, 0o1600)
libc.semget(0, 2, 0o1600)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind("\0mockloop-leftover")
        server.listen()
        time.sleep(60)
    os._exit(0)
time.sleep(0.2)
"""


def test_nothing_a_test_leaves_reaches_the_next_test(clean_host) -> None:
    job = Job(language="python", code=LEAVE_STATE, limits=FAST)
    result = run_tests(job, [Test("")] * 3, engine=clean_host)
    assert [t.output for t in result.tests] == ["[]\n"] * 3, (result.error, result.tests)


DEEP_TMP_CHAIN = r"""
import os
print(os.listdir("/tmp"), flush=True)
os.chdir("/tmp")
for _ in range(3000):  # 3000 levels: deeper than recursion, the path longer than PATH_MAX
    os.mkdir("d" * 40)
    os.chdir("d" * 40)
    open("f", "w").close()
os.mkfifo("fifo")
os.symlink("/work/main.py", "link")
"""


def test_a_tmp_chain_deeper_than_path_max_is_removed_between_tests(clean_host) -> None:
    job = Job(language="python", code=DEEP_TMP_CHAIN, limits=Limits(time_limit_ms=3000))
    result = run_tests(job, [Test("")] * 2, engine=clean_host)
    assert result.verdict == "accepted", (result.error, result.tests)
    assert [t.output for t in result.tests] == ["[]\n"] * 2


def test_a_test_cannot_change_the_program_the_next_test_runs(clean_host) -> None:
    code = (
        "import os\nprint('original')\n"
        "os.chmod('/work/main.py', 0o644)\n"
        "open('/work/main.py', 'w').write('print(\"tampered\")\\n')\n"
    )
    job = Job(language="python", code=code, limits=FAST)
    result = run_tests(job, [Test("")] * 2, engine=clean_host)
    assert [t.output for t in result.tests] == ["original\n"] * 2
    binary = (
        "#include <cstdio>\n#include <unistd.h>\n"
        'int main(){ std::puts("original"); unlink("/work/main");'
        ' FILE* f = std::fopen("/work/main", "w"); std::fputs("#!/bin/sh\\necho tampered\\n", f);'
        ' std::fclose(f); chmod("/work/main", 0755); }\n'
    )
    job = Job(
        language="cpp",
        code=binary.replace("<unistd.h>", "<unistd.h>\n#include <sys/stat.h>"),
        limits=FAST,
    )
    result = run_tests(job, [Test("")] * 2, engine=clean_host)
    assert [t.output for t in result.tests] == ["original\n"] * 2, (result.error, result.tests)


def test_output_limit_is_configurable(clean_host) -> None:
    code = "print('x' * 300_000)\n"
    small = Limits(time_limit_ms=1000, output_limit_mb=0.25)
    result = run_tests(
        Job(language="python", code=code, limits=small), [Test("")], engine=clean_host
    )
    assert result.verdict == "output_limit"
    exactly = "import sys\nsys.stdout.write('x' * 262144)\n"
    result = run_tests(
        Job(language="python", code=exactly, limits=small), [Test("")], engine=clean_host
    )
    assert result.verdict == "accepted"


def test_killed_worker_leaves_no_container(images, engine) -> None:
    """A worker SIGKILLed mid-job: the startup sweep removes its container."""
    from sandbox import sweep_orphans

    script = (
        f"import sys\nsys.path.insert(0, {os.getcwd()!r})\n"
        "from sandbox import Job, Limits, Test, run_tests\n"
        "from sandbox.engine import Engine\n"
        "print('started', flush=True)\n"
        "run_tests(Job(language='python', code='import time\\ntime.sleep(60)\\n',"
        " limits=Limits(time_limit_ms=30000)), [Test('')], engine=Engine(pool_size=0))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    deadline = time.monotonic() + 20
    api = engine.api
    from tests.sandbox.conftest import labelled_containers

    while time.monotonic() < deadline:
        mine = [
            c
            for c in labelled_containers(api, mine=False)
            if c["Labels"].get("mockloop.sandbox.owner", "").endswith(f"/{proc.pid}")
            and c["State"] == "running"
        ]
        if mine:
            break
        time.sleep(0.05)
    assert mine, "the worker never started its container"
    proc.kill()
    proc.wait()
    removed = sweep_orphans(api)
    assert {c["Id"] for c in mine} <= set(removed)
    assert_no_owner(api, proc.pid)


def assert_no_owner(api, pid: int) -> None:
    from tests.sandbox.conftest import labelled_containers

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        left = [
            c
            for c in labelled_containers(api, mine=False)
            if c["Labels"].get("mockloop.sandbox.owner", "").endswith(f"/{pid}")
        ]
        if not left:
            return
        time.sleep(0.1)
    pytest.fail(f"containers of the killed worker remain: {left}")


def test_container_hardening_settings(images, engine) -> None:
    """Inspect a live job container: every hardening option is in place."""
    from sandbox.api import profile_for

    job = Job(language="cpp", code="int main(){}", limits=FAST)
    cid = engine._create(profile_for(job), "inspect")
    try:
        info = engine.api.inspect_container(cid)
    finally:
        engine._remove(cid)
    host = info["HostConfig"]
    assert host["NetworkMode"] == "none"
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"] and not host.get("CapAdd")
    assert "no-new-privileges:true" in host["SecurityOpt"]
    assert host["Privileged"] is False
    assert host["PidsLimit"] == 64
    assert host["Memory"] == host["MemorySwap"] > 0
    assert host["NanoCpus"] == 1_000_000_000
    assert host["LogConfig"]["Type"] == "none"
    assert host["AutoRemove"] is True
    assert not host.get("Binds") and not info.get("Mounts")
    assert "noexec" in host["Tmpfs"]["/tmp"] and "exec" in host["Tmpfs"]["/work"]
    assert info["Config"]["User"] == "10001:10001"
    env = {e.split("=", 1)[0] for e in info["Config"]["Env"]}
    assert env <= {"PATH", "LANG", "HOME", "MOCKLOOP_IDLE_TIMEOUT_S"}
    assert info["Config"]["Labels"]["mockloop.sandbox"] == "1"


def test_host_side_deadline_kills_a_stuck_job(clean_host, monkeypatch) -> None:
    """If the runner overran its own limits, the worker's deadline still ends the job."""
    import sandbox.api

    monkeypatch.setattr(sandbox.api, "_deadline_s", lambda job, n: 1.0)
    limits = Limits(time_limit_ms=5000, wall_time_limit_ms=10_000)
    job = Job(language="python", code="import time\ntime.sleep(60)\n", limits=limits)
    started = time.monotonic()
    result = run_tests(job, [Test(""), Test("")], engine=clean_host)
    assert time.monotonic() - started < 4
    assert [t.verdict for t in result.tests] == ["time_limit", "time_limit"]
    assert "deadline" in result.error


def test_warm_pool_serves_jobs_and_is_never_reused(images) -> None:
    """The fallback engine (one container per job): pre-started, never reused."""
    from sandbox import warm_up
    from sandbox.engine import CONTAINER_PER_JOB, Engine

    engine = Engine(pool_size=1, mode=CONTAINER_PER_JOB)
    try:
        warm_up(["python"], FAST, engine=engine)
        engine.drain()
        code = "import socket\nprint(socket.gethostname())\n"
        job = Job(language="python", code=code, limits=FAST)
        first = run_tests(job, [Test("")], engine=engine)
        engine.drain()
        second = run_tests(job, [Test("")], engine=engine)
        assert first.warm and second.warm
        assert first.verdict == second.verdict == "accepted"
        assert first.container_id != second.container_id
        pooled = engine.live_containers()
        assert pooled  # refilled, with a fresh container
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("code", "verdict"),
    [
        ("while True:\n    pass\n", "time_limit"),
        ("import time\ntime.sleep(30)\n", "time_limit"),
        ("x = bytearray(1 << 30)\n", "memory_limit"),
    ],
    ids=["busy loop", "sleep", "memory"],
)
def test_a_limit_hit_skips_the_rest_of_the_part(clean_host, code, verdict) -> None:
    """Fail fast: 13 tests of `while True: pass` take about one time limit, not 13; the
    rest are `skipped`, and a timed-out test shows the limit, not the kill time."""
    limits = Limits(time_limit_ms=1000, memory_limit_mb=128)
    job = Job(language="python", code=code, limits=limits)
    started = time.monotonic()
    result = run_tests(job, [Test("")] * 13, engine=clean_host)
    elapsed = time.monotonic() - started
    verdicts = [t.verdict for t in result.tests]
    assert verdicts == [verdict] + ["skipped"] * 12, (result.error, result.tests)
    assert result.verdict == verdict and result.passed == 0
    assert elapsed < limits.wall_ms / 1000 + 4, elapsed  # one test's worth, not 13
    if verdict == "time_limit":
        assert result.tests[0].time_ms == limits.time_limit_ms
    assert "not run" in result.tests[1].message


def test_without_fail_fast_every_test_runs(clean_host) -> None:
    job = Job(
        language="python",
        code="import sys\nif sys.stdin.read() == 'slow':\n    while True: pass\nprint(1)\n",
        limits=FAST,
        fail_fast=False,
    )
    result = run_tests(job, [Test("slow"), Test("", "1\n")], engine=clean_host)
    assert [t.verdict for t in result.tests] == ["time_limit", "accepted"]
