"""The two-layer engine: a warm container per worker slot, a bubblewrap sandbox per job.

Pinned here (real Docker, real runner images): the warm container is reused and stays
hardened; nothing one submission leaves (files in /dev/shm and /dev/mqueue, SysV IPC,
an abstract socket, a daemon) reaches the next one in the same container; candidate
code cannot create namespaces, mount or use io_uring; containers are recycled after N
jobs, after T seconds, after an abnormal end and when they stop answering (a job that
finds its unpinged container gone runs again in a fresh one); the fallback
engine (one container per job) still works.
"""

from __future__ import annotations

import json
import time

import pytest

from sandbox import Job, Limits, Test, run_tests
from sandbox.api import profile_for
from sandbox.engine import CONTAINER_PER_JOB, TWO_LAYER, Engine
from tests.sandbox.test_attacks import DEEP_TMP_CHAIN, LEAVE_STATE

pytestmark = pytest.mark.integration

FAST = Limits(time_limit_ms=1000, memory_limit_mb=128, wall_time_limit_ms=2000)


@pytest.fixture
def slot_engine(images):
    eng = Engine(pool_size=1, mode=TWO_LAYER)
    yield eng
    eng.close()


def _run(engine: Engine, code: str, tests: list[Test], language: str = "python", **limits):
    job = Job(language=language, code=code, limits=Limits(**{**FAST.__dict__, **limits}))
    return run_tests(job, tests, engine=engine)


def test_the_warm_container_serves_job_after_job(slot_engine) -> None:
    first = _run(slot_engine, "print(input())\n", [Test("a\n", "a\n")])
    second = _run(slot_engine, "print(input())\n", [Test("b\n", "b\n")])
    assert first.verdict == second.verdict == "accepted", (first.error, second.error)
    assert first.container_id == second.container_id
    assert second.warm
    assert slot_engine.recycled == 0


def test_nothing_a_submission_leaves_reaches_the_next_one(slot_engine) -> None:
    """Files in /work, /tmp, /dev/shm and /dev/mqueue, SysV shm, queues and semaphores,
    an abstract socket held by a daemon: the next submission in the same warm container
    sees none of it (nor does the next test of the same submission)."""
    first = _run(slot_engine, LEAVE_STATE, [Test("")] * 2)
    second = _run(slot_engine, LEAVE_STATE, [Test("")])
    assert first.container_id == second.container_id
    assert [t.output for t in first.tests + second.tests] == ["[]\n"] * 3, (
        first.error,
        second.error,
        first.tests,
    )


def test_a_deep_tmp_chain_is_gone_for_the_next_submission(slot_engine) -> None:
    """3000 levels of directories (paths past PATH_MAX, deeper than Python's recursion
    limit): neither the next test nor the next submission in the container sees them,
    and the container stays in service."""
    limits = {"time_limit_ms": 3000, "wall_time_limit_ms": 6000}
    first = _run(slot_engine, DEEP_TMP_CHAIN, [Test("")] * 2, **limits)
    second = _run(slot_engine, DEEP_TMP_CHAIN, [Test("")], **limits)
    assert first.verdict == second.verdict == "accepted", (first.error, second.error)
    assert [t.output for t in first.tests + second.tests] == ["[]\n"] * 3
    assert first.container_id == second.container_id
    assert slot_engine.recycled == 0


# a daemon that outlives the program (and its test): double fork, new session, ignores
# SIGTERM; the next submission looks for its socket and its process
DAEMON = r"""
import os, signal, socket, sys, time
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect("\0mockloop-daemon")
    print("daemon answered")
except OSError:
    print("no daemon")
print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()) == [1, os.getpid()])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind("\0mockloop-daemon")
        server.listen()
        time.sleep(120)
    os._exit(0)
time.sleep(0.2)
"""


def test_a_background_daemon_is_gone_for_the_next_submission(slot_engine) -> None:
    slot_engine.zygote = False  # the exec path: the test is the only process but PID 1
    first = _run(slot_engine, DAEMON, [Test("")])
    second = _run(slot_engine, DAEMON, [Test("")])
    assert first.container_id == second.container_id
    assert [t.output for t in (first.tests + second.tests)] == ["no daemon\nTrue\n"] * 2


ESCAPES = r"""
import ctypes, errno, json, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def call(name, *args):
    result = getattr(libc, name)(*args)
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
params = ctypes.create_string_buffer(120)
out = {
    "io_uring_setup": call("syscall", 425, 8, params),
    "unshare(user)": call("unshare", 0x10000000),
    "unshare(net)": call("unshare", 0x40000000),
    "clone(user)": call("syscall", 56, 0x10000000 | 17, 0, 0, 0, 0),
    "mount": call("mount", b"none", b"/tmp", b"tmpfs", 0, None),
    "keyctl": call("syscall", 250, 0, 0, 0, 0, 0),
    "bpf": call("syscall", 321, 0, 0, 0),
    "userfaultfd": call("syscall", 323, 0),
    "perf_event_open": call("syscall", 298, 0, 0, -1, -1, 0),
    "ptrace": call("ptrace", 16, 1, 0, 0),
}
for family in ("AF_NETLINK", "AF_PACKET"):
    try:
        socket.socket(getattr(socket, family), socket.SOCK_RAW, 0)
        out[family] = "ok"
    except OSError as exc:
        out[family] = errno.errorcode[exc.errno]
masked = ("/proc/kcore", "/proc/keys", "/proc/timer_list", "/proc/sysrq-trigger")
# what Docker masks is /dev/null in the sandbox's own /proc
out["unmasked"] = [p for p in masked if os.path.exists(p) and os.stat(p).st_rdev == 0]
out["net"] = sorted(os.listdir("/sys/class/net")) if os.path.exists("/sys/class/net") else []
print(json.dumps(out))
"""


def test_candidate_code_cannot_nest_namespaces_mount_or_use_io_uring(slot_engine) -> None:
    result = _run(slot_engine, ESCAPES, [Test("")])
    assert result.verdict == "accepted", (result.error, result.tests[0].stderr)
    found = json.loads(result.tests[0].output)
    refused = {k: v for k, v in found.items() if k not in ("unmasked", "net")}
    assert all(v in ("EPERM", "ENOSYS", "EAFNOSUPPORT") for v in refused.values()), found
    assert found["unmasked"] == [] and found["net"] == []


def test_recycled_after_n_jobs(images) -> None:
    eng = Engine(pool_size=1, mode=TWO_LAYER, recycle_jobs=2)
    try:
        ids = [_run(eng, "print(1)\n", [Test("", "1\n")]).container_id for _ in range(3)]
        assert ids[0] == ids[1] != ids[2]
        assert eng.recycled == 1
    finally:
        eng.close()


def test_recycled_after_its_time(images) -> None:
    eng = Engine(pool_size=1, mode=TWO_LAYER, recycle_s=1.0)
    try:
        first = _run(eng, "print(1)\n", [Test("", "1\n")])
        time.sleep(1.2)
        second = _run(eng, "print(1)\n", [Test("", "1\n")])
        assert first.container_id != second.container_id
        assert second.verdict == "accepted"
    finally:
        eng.close()


def test_recycled_after_an_abnormal_end(slot_engine, monkeypatch) -> None:
    """A job that overran the host-side deadline: its container is not used again."""
    import sandbox.api

    monkeypatch.setattr(sandbox.api, "_deadline_s", lambda job, n: 1.0)
    stuck = _run(slot_engine, "import time\ntime.sleep(30)\n", [Test("")], time_limit_ms=5000)
    assert "deadline" in stuck.error
    monkeypatch.undo()
    after = _run(slot_engine, "print(2)\n", [Test("", "2\n")])
    assert after.verdict == "accepted"
    assert after.container_id != stuck.container_id
    assert slot_engine.recycled >= 1


def test_a_container_that_stopped_answering_is_replaced(slot_engine) -> None:
    first = _run(slot_engine, "print(1)\n", [Test("", "1\n")])
    slot_engine.api.kill(first.container_id)
    second = _run(slot_engine, "print(1)\n", [Test("", "1\n")])
    assert second.verdict == "accepted", second.error
    assert second.container_id != first.container_id


def test_back_to_back_jobs_skip_the_ping(slot_engine, monkeypatch) -> None:
    """A warm container that has just ended a job cleanly takes the next one without a
    round trip first; one idle for longer is pinged again (a dead one that was not
    pinged is covered above: the job runs again in a fresh container)."""
    import sandbox.engine

    first = _run(slot_engine, "print(1)\n", [Test("", "1\n")])
    pinged = []
    healthy = slot_engine._healthy
    monkeypatch.setattr(
        slot_engine, "_healthy", lambda slot: pinged.append(slot.cid) or healthy(slot)
    )
    second = _run(slot_engine, "print(2)\n", [Test("", "2\n")])
    assert (second.verdict, second.container_id) == ("accepted", first.container_id)
    assert pinged == []
    monkeypatch.setattr(sandbox.engine, "SLOT_FRESH_S", 0.0)
    third = _run(slot_engine, "print(3)\n", [Test("", "3\n")])
    assert (third.verdict, third.container_id) == ("accepted", first.container_id)
    assert pinged == [first.container_id]


def test_warm_container_hardening(slot_engine) -> None:
    """Every flag of the per-job container, plus the two-layer ones: the seccomp profile
    that lets bubblewrap in, and unmasked /proc."""
    job = Job(language="python", code="", limits=FAST)
    cid = slot_engine._create(profile_for(job), "inspect", slot=True)
    try:
        info = slot_engine.api.inspect_container(cid)
    finally:
        slot_engine._remove(cid)
    host = info["HostConfig"]
    assert host["NetworkMode"] == "none" and host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"] and not host.get("CapAdd")
    assert host["Privileged"] is False and host["PidsLimit"] == 64
    assert host["Memory"] == host["MemorySwap"] > 0
    assert "no-new-privileges:true" in host["SecurityOpt"]
    (seccomp,) = [o for o in host["SecurityOpt"] if o.startswith("seccomp=")]
    profile = json.loads(seccomp.removeprefix("seccomp="))
    refused = profile["syscalls"][0]["names"]
    assert {"ptrace", "keyctl", "bpf", "setns", "chroot"} <= set(refused)
    assert not {"clone", "unshare", "mount", "umount2", "pivot_root"} & set(refused)
    assert host.get("MaskedPaths") in ([], None) and host.get("ReadonlyPaths") in ([], None)
    assert info["Config"]["User"] == "10001:10001"
    assert info["Config"]["Entrypoint"][-1].endswith("slot.pyc")


def test_the_fallback_engine_runs_one_container_per_job(images) -> None:
    eng = Engine(pool_size=1, mode=CONTAINER_PER_JOB)
    try:
        first = _run(eng, "print(1)\n", [Test("", "1\n")])
        second = _run(eng, "print(1)\n", [Test("", "1\n")])
        assert first.verdict == second.verdict == "accepted"
        assert first.container_id != second.container_id
    finally:
        eng.close()


@pytest.mark.parametrize("language", ["python", "javascript", "cpp", "go"])
def test_a_busy_loop_on_13_tests_is_judged_in_about_one_time_limit(slot_engine, language) -> None:
    """Fail fast, through the inner sandbox: an infinite loop on a 13-test part is judged
    in one time limit plus overhead (issue 15's target: TL + 1 s on an idle machine; the
    time is printed). Asserted: within the test's wall-clock limit plus 1 s, which holds
    however busy the machine is (the CPU limit strikes later in wall time under load)."""
    code = {
        "python": "while True:\n    pass\n",
        "javascript": "for (;;) {}\n",
        "cpp": "int main(){ volatile int x = 0; for(;;) x++; }\n",
        "go": "package main\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n",
    }[language]
    limits = Limits(time_limit_ms=2000, memory_limit_mb=256)
    job = Job(language=language, code=code, limits=limits)
    run_tests(Job(language=language, code="", limits=limits), [Test("")], engine=slot_engine)
    started = time.monotonic()
    result = run_tests(job, [Test("")] * 13, engine=slot_engine)
    elapsed = time.monotonic() - started
    compile_s = 3.0 if language in ("cpp", "go") else 0.0  # compiling the loop
    print(f"{language}: 13-test busy loop judged in {elapsed:.2f} s (TL 2 s)")
    assert [t.verdict for t in result.tests] == ["time_limit"] + ["skipped"] * 12
    assert elapsed <= limits.wall_ms / 1000 + 1 + compile_s, elapsed
