"""Load test of the main read endpoints against the shipped web server, beside a baseline.

    .venv/bin/python bench/api.py [--rate 100] [--seconds 15] [--postgres]
        [--endpoints healthz,stage] [--checkout DIR] [--profile FILE.svg|.txt]

Starts its own Redis and web server (uvicorn, `--workers` processes; `--server daphne`
for one daphne, to compare) on loopback with a fresh database (SQLite under a
temporary directory, or PostgreSQL with --postgres via scripts/postgres.sh), creates a
candidate with a loop, then drives open-loop traffic (requests are scheduled at a fixed
rate and latency is measured from the scheduled time, so a slow server cannot hide its
queueing) at each endpoint in turn:

- baseline: `GET /healthz` — a Django view that touches nothing;
- `GET /api/v1/loops/{id}/` and `GET /api/v1/stages/{id}/` (token auth);
- `POST /api/v1/stages/{id}/answers/` (a write).

Prints p50/p95/p99, errors and achieved rate per endpoint, the ratio of each p95 to the
baseline's, the web processes' CPU time per request (from /proc: on a shared machine it
moves less than latency does) and the database queries per request (constant = no N+1).
Targets (issues 7 and 15): stage detail (and loop detail) at 100 req/s with p95 ≤ 50 ms
and zero errors, on SQLite and on PostgreSQL.

`--checkout DIR` serves another checkout's code (e.g. a `git worktree` of the base branch,
with this one's `.venv`) under this script, so two versions are measured the same way;
`--profile` records one web process with py-spy during the stage-detail load;
`BENCH_PG_NAME` names the PostgreSQL database (default: one per run, so benches running
side by side never share one).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from _common import PY, ROOT, bench_env, manage, postgres_url, wait_http

from mockloop.web import APP, POOL_ENV, free_port, web_command

SEED = """
import json
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from interviews.models import LoopTemplate
from interviews.services.loops import loop_start
from interviews.services.stages import stage_start
user = get_user_model().objects.create_user("bench", password="bench-Password-1")
loop = loop_start(candidate=user, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde"))
stage = loop.stages.get(kind="screen")
stage_start(stage=stage, actor=user)
print(json.dumps({"token": AuthToken.objects.create(user=user)[1], "loop": loop.pk,
                  "stage": stage.pk, "question": stage.questions.first().pk}))
"""


def run_load(method: str, url: str, headers: dict, body: dict | None, rate: float, seconds: float):
    """Open-loop: one request every 1/rate s; latency from the scheduled start."""
    total = int(rate * seconds)
    latencies: list[float] = []
    timeline: list[tuple[float, float]] = []  # (scheduled offset s, latency s)
    errors: list[str] = []
    lock = threading.Lock()
    local = threading.local()

    def one(scheduled: float) -> None:
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = requests.Session()
        try:
            response = session.request(method, url, headers=headers, json=body, timeout=10)
            ok = response.status_code < 400
            detail = f"{response.status_code}"
        except requests.RequestException as exc:
            ok, detail = False, type(exc).__name__
        elapsed = time.perf_counter() - scheduled
        with lock:
            latencies.append(elapsed)
            timeline.append((scheduled - start, elapsed))
            if not ok:
                errors.append(detail)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=64) as pool:
        for i in range(total):
            scheduled = start + i / rate
            delay = scheduled - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(one, scheduled)
    duration = time.perf_counter() - start
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    # Per-second p95s: a miss from one stall (a second or two of slow answers) looks
    # different from a server that is slow throughout.
    by_second: dict[int, list[float]] = {}
    for offset, latency in timeline:
        by_second.setdefault(int(offset), []).append(latency)
    second_p95 = {
        sec: sorted(values)[min(len(values) - 1, int(0.95 * len(values)))] * 1000
        for sec, values in by_second.items()
    }
    worst = max(second_p95, key=second_p95.get) if second_p95 else 0
    return {
        "worst_second": (worst, second_p95.get(worst, 0.0)),
        "slow_seconds": sum(1 for v in second_p95.values() if v > 50),
        "n": len(latencies),
        "rate": len(latencies) / duration,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "mean": statistics.fmean(latencies) * 1000,
        "errors": len(errors),
        "error_kinds": sorted(set(errors))[:5],
    }


QUERY_COUNT = """
import json, os
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
ids = json.loads(os.environ["BENCH_IDS"])
client = APIClient()
client.credentials(HTTP_AUTHORIZATION="Token " + ids["token"])
paths = {"loop": "/api/v1/loops/%d/" % ids["loop"], "stage": "/api/v1/stages/%d/" % ids["stage"]}
out = {}
for name, path in paths.items():
    counts = []
    for _ in range(3):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        counts.append(len(ctx.captured_queries))
    out[name] = counts
print(json.dumps(out))
"""


def count_queries(env: dict, ids: dict, checkout: Path) -> dict:
    """Queries per request for the detail endpoints, measured in-process."""
    output = manage(
        {**env, "BENCH_IDS": json.dumps(ids)}, "shell", "-c", QUERY_COUNT, checkout=checkout
    )
    return json.loads(output.strip().splitlines()[-1])


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc (Linux); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def web_cpu_seconds(pid: int) -> float:
    """CPU time of the web server and its worker processes (uvicorn's supervisor forks
    them), so far."""
    return _cpu_seconds(pid) + sum(_cpu_seconds(child) for child in _children(pid))


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


ENDPOINTS = {"healthz": 0, "loop": 1, "stage": 2, "answers": 3}


def _start_profile(py_spy: str, server_pid: int, out: Path, seconds: float) -> subprocess.Popen:
    """py-spy on the first web worker (uvicorn's supervisor and multiprocessing's resource
    tracker serve no requests)."""
    workers = [
        pid
        for pid in _children(server_pid)
        if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    ] or [server_pid]
    fmt = "flamegraph" if out.suffix == ".svg" else "raw"  # raw: folded stacks
    command = [py_spy, "record", "-p", str(workers[0]), "-o", str(out), "-f", fmt]
    command += ["-d", str(int(seconds)), "-r", "100", "--nonblocking"]
    log = out.with_name(out.name + ".log").open("wb")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--bank", default="bank", help="bank file or directory")
    parser.add_argument("--server", choices=["uvicorn", "daphne"], default="uvicorn")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument(
        "--endpoints",
        default=",".join(ENDPOINTS),
        help="which to load, comma-separated: " + ", ".join(ENDPOINTS) + " (healthz, the "
        "baseline, always runs first)",
    )
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="serve this checkout's code (default: this)"
    )
    parser.add_argument(
        "--profile", type=Path, help="py-spy record of one web process under stage detail"
    )
    args = parser.parse_args()
    wanted = {name.strip() for name in args.endpoints.split(",") if name.strip()} | {"healthz"}
    if wanted - ENDPOINTS.keys():
        raise SystemExit(f"--endpoints: unknown {sorted(wanted - ENDPOINTS.keys())}")
    checkout = args.checkout.resolve()
    py_spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(PY).parent))
    if args.profile and py_spy is None:
        raise SystemExit("--profile needs py-spy (pip install py-spy)")

    tmp = Path(tempfile.mkdtemp(prefix="mockloop-bench-api-"))
    procs: list[subprocess.Popen] = []
    env = bench_env(tmp)
    db_label = "SQLite"
    pg_name = os.environ.get("BENCH_PG_NAME") or f"mockloop_bench_{os.getpid()}"
    if args.postgres:
        env["DATABASE_URL"] = postgres_url(pg_name)
        env.update(POOL_ENV)  # as the Procfile's web
        db_label = "PostgreSQL"
    try:
        redis_port = free_port()
        procs.append(
            subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(tmp),
                ],
                stdout=subprocess.DEVNULL,
            )
        )
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        # Generous limits: this measures latency, not the throttles.
        env.update(THROTTLE_SUBMISSIONS="100000/min", THROTTLE_LOGIN="100000/min")
        manage(env, "migrate", "-v0", checkout=checkout)
        manage(env, "import_bank", args.bank, "--no-verify", checkout=checkout)
        seeded = manage(env, "shell", "-c", SEED, checkout=checkout)
        ids = json.loads(seeded.strip().splitlines()[-1])

        port = free_port()
        bindir = Path(PY).parent
        if args.server == "daphne":
            command = [str(bindir / "daphne"), "-b", "127.0.0.1", "-p", str(port), APP]
            server_label = "daphne (1 process)"
        else:
            command = web_command(port, workers=args.workers)
            server_label = f"uvicorn ({args.workers} processes)"
        web = subprocess.Popen(
            command,
            cwd=checkout,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(web)
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/healthz", web)

        auth = {"Authorization": f"Token {ids['token']}"}
        every_case = [
            ("baseline GET /healthz", "GET", "/healthz", {}, None),
            ("GET /api/v1/loops/{id}/", "GET", f"/api/v1/loops/{ids['loop']}/", auth, None),
            ("GET /api/v1/stages/{id}/", "GET", f"/api/v1/stages/{ids['stage']}/", auth, None),
            (
                "POST /api/v1/stages/{id}/answers/",
                "POST",
                f"/api/v1/stages/{ids['stage']}/answers/",
                auth,
                {"question": ids["question"], "text": "Because the mission is safety."},
            ),
        ]
        cases = [case for name, case in zip(ENDPOINTS, every_case, strict=True) if name in wanted]
        for _, method, path, headers, body in cases:  # warm up every route
            run_load(method, base + path, headers, body, rate=20, seconds=1)
        print(
            f"# bench/api.py — {db_label}, {server_label}, {args.rate:.0f} req/s "
            f"for {args.seconds:.0f} s per endpoint, open loop; checkout {checkout}; "
            f"load average {load_average()}"
        )
        print(
            f"{'endpoint':40} {'rate':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
            f"{'errors':>7} {'p95/base':>9} {'CPU ms/req':>10}  worst second (p95 ms)  "
            "seconds p95>50"
        )
        baseline_p95 = None
        results = {}
        for label, method, path, headers, body in cases:
            profiler = None
            if args.profile and path.startswith("/api/v1/stages/") and method == "GET":
                profiler = _start_profile(py_spy, web.pid, args.profile, args.seconds)
            cpu_before = web_cpu_seconds(web.pid)
            r = run_load(method, base + path, headers, body, args.rate, args.seconds)
            cpu_ms = (web_cpu_seconds(web.pid) - cpu_before) * 1000 / max(1, r["n"])
            if profiler is not None:
                profiler.wait(timeout=60)  # py-spy stops by itself and writes the profile
            results[label] = r
            baseline_p95 = baseline_p95 or r["p95"]
            print(
                f"{label:40} {r['rate']:7.1f} {r['p50']:8.1f} {r['p95']:8.1f} {r['p99']:8.1f} "
                f"{r['errors']:7d} {r['p95'] / baseline_p95:9.2f} {cpu_ms:10.2f}"
                f"  t={r['worst_second'][0]:>2d}s {r['worst_second'][1]:7.1f}"
                f"  {r['slow_seconds']:>14d}" + (f"  {r['error_kinds']}" if r["errors"] else ""),
                flush=True,
            )
        print(f"load average after: {load_average()}")
        queries = count_queries(env, ids, checkout)
        print(
            f"queries per request: loop detail {queries['loop']}, stage detail {queries['stage']}"
        )
        detail = ("GET /api/v1/loops/{id}/", "GET /api/v1/stages/{id}/")
        targets = [k for k in detail if k in results]
        ok = all(results[k]["p95"] <= 50 and results[k]["errors"] == 0 for k in targets)
        print("target (detail p95 ≤ 50 ms, 0 errors):", "met" if ok else "MISSED")
    finally:
        for proc in reversed(procs):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)
        if args.postgres:
            for drop in (f"dropdb --if-exists {pg_name}", f"dropuser --if-exists {pg_name}"):
                # (scripts/postgres.sh made a role of the same name; a named one is kept)
                if drop.startswith("dropdb") or "BENCH_PG_NAME" not in os.environ:
                    subprocess.run(["su", "postgres", "-c", drop], check=False, capture_output=True)


if __name__ == "__main__":
    main()
