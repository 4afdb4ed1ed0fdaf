"""Live rooms under load: R rooms (a candidate and a coach socket each) on the shipped web
server (uvicorn) and Redis, beside a bare Redis PUBLISH→SUBSCRIBE baseline measured in the same run.

    .venv/bin/python bench/live.py [--rooms 200] [--seconds 30] [--web 1] [--postgres]
        [--follow-up-every 20] [--wait-quiet S] [--json FILE] [--profile FILE.svg|.txt]

Starts its own redis-server and `--web` web processes on loopback with a fresh database
(SQLite in a temporary directory, or PostgreSQL with --postgres via scripts/postgres.sh,
database `mockloop_live`, dropped afterwards), seeds R live coding stages each with its
candidate and assigned coach, and opens 2R websockets (the `websockets` package). Then,
for `--seconds` after a short warm-up:

- every room's candidate types one character a second: a Yjs update built with pycrdt,
  sent as `doc.update`; measured from the send to its arrival on the coach's socket, both
  as relayed (`doc.relay`, what the coach sees) and as logged (`doc.update` with its `seq`,
  after the room log's batch; a server without the relay shows only the latter);
- every room's coach pushes a free-text follow-up every `--follow-up-every` seconds
  (default 20: 10 pushes a second at 200 rooms) through
  `POST /api/v1/stages/{id}/follow-ups/`; measured from the request to the `follow_up`
  event on the candidate's socket.

Baseline: a bare Redis PUBLISH→SUBSCRIBE round trip (redis-py), just before the rooms
open, same run. Prints median / p99 of each, their ratios to the baseline, how many
messages were lost, the bench client's own event-loop lag (a sanity check: a lagging
client inflates latencies) and the CPU used by the server processes, the client and
everything else on the machine (a shared host skews the numbers; `--wait-quiet` waits for
it to calm down first). `--profile` records web process 0 with py-spy (CPU held by Python).
Bounded: everything on 127.0.0.1, at most 2000 rooms and 300 s, every process it started
is stopped at the end. Results: bench/README.md.

Targets (issue 4, a 2-core machine): 200 rooms, p99 ≤ 50 ms for both code updates and
follow-ups.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import redis
import redis.asyncio as aioredis
import requests
from _common import PY, ROOT, bench_env, manage, postgres_url, wait_http
from pycrdt import Doc, Text
from websockets.asyncio.client import connect

from mockloop.web import POOL_ENV, free_port, web_command

ORIGIN = "http://127.0.0.1"
PG_NAME = os.environ.get("BENCH_PG_NAME", "mockloop_live")  # another name per bencher
MAX_ROOMS, MAX_SECONDS = 2000, 300
WARMUP_S, GRACE_S = 3.0, 3.0


# --- processes -----------------------------------------------------------------------------


def machine_cpu_seconds() -> float:
    """Busy CPU time of the whole machine so far (all cores), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def wait_quiet(limit_s: float, our_pids: list[int], threshold: float = 0.25) -> float:
    """On a shared machine, wait (at most `limit_s`) until other processes use less than
    `threshold` CPUs over a second; returns the last background load seen."""
    deadline = time.monotonic() + limit_s
    while True:
        machine, ours = machine_cpu_seconds(), sum(cpu_seconds(pid) for pid in our_pids)
        time.sleep(1.0)
        busy = machine_cpu_seconds() - machine - (sum(cpu_seconds(p) for p in our_pids) - ours)
        if busy < threshold or time.monotonic() > deadline:
            return busy


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SEED = """
import json, os
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from knox.models import AuthToken
from interviews.models import Loop, LoopTemplate, Part, Question, Stage, StageQuestion
from interviews.roles import COACH_GROUP

# Bulk rows, unusable passwords (the bench signs in with tokens): hashing 2R passwords
# would take minutes.
rooms = int(os.environ["BENCH_ROOMS"])
User = get_user_model()
template = LoopTemplate.objects.create(slug="bench-live", title="Bench", status="published")
question = Question.objects.create(
    slug="bench-sum", kind="coding", title="Sum", prompt="Add.", status="published",
    languages=["python"], io="stdio", checker="exact",
)
Part.objects.create(question=question, position=1, title="Part 1", prompt="Add.")
users = User.objects.bulk_create(
    [User(username=f"{who}{i}", password="!") for i in range(rooms) for who in ("cand", "coach")]
)
candidates, coaches = users[0::2], users[1::2]
Group.objects.get_or_create(name=COACH_GROUP)[0].user_set.add(*coaches)
loops = Loop.objects.bulk_create(
    [Loop(candidate=c, template=template, title="Bench", coached=True) for c in candidates]
)
now = timezone.now()
stages = Stage.objects.bulk_create([
    Stage(loop=loop, position=1, kind="coding", title="Live coding", minutes=120, coach=coach,
          status="live", started_at=now, deadline=now + timedelta(minutes=120))
    for loop, coach in zip(loops, coaches)
])
StageQuestion.objects.bulk_create(
    [StageQuestion(stage=stage, question=question, position=1) for stage in stages]
)
tokens = [AuthToken.objects.create(user=u)[1] for u in users]
out = [
    {"stage": stage.pk, "doc": f"code:{question.pk}", "candidate": cand, "coach": coach}
    for stage, cand, coach in zip(stages, tokens[0::2], tokens[1::2])
]
print(json.dumps(out))
"""


# --- statistics ----------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (ms in, ms out); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p * len(ordered) + 0.5)) - 1))]


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "median": percentile(values, 0.50),
        "p90": percentile(values, 0.90),
        "p99": percentile(values, 0.99),
        "max": max(values) if values else float("nan"),
    }


# --- the baseline ------------------------------------------------------------------------------


async def redis_baseline(url: str, samples: int) -> list[float]:
    """Bare PUBLISH→SUBSCRIBE round trips (ms): publish, wait until the subscriber has it."""
    subscriber = aioredis.from_url(url)
    publisher = aioredis.from_url(url)
    pubsub = subscriber.pubsub()
    await pubsub.subscribe("bench:baseline")
    await pubsub.get_message(timeout=1)  # the subscribe confirmation
    out = []
    for i in range(samples + 50):
        started = time.perf_counter()
        await publisher.publish("bench:baseline", str(i))
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                break
        if i >= 50:  # warm-up
            out.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.001)
    await pubsub.aclose()
    await subscriber.aclose()
    await publisher.aclose()
    return out


# --- the rooms ---------------------------------------------------------------------------------


@dataclass
class Results:
    measuring: bool = False
    edit_sent: dict[str, float] = field(default_factory=dict)  # update → send time
    edit_ms: list[float] = field(default_factory=list)  # to the logged doc.update
    relay_sent: dict[str, float] = field(default_factory=dict)
    relay_ms: list[tuple[float, float]] = field(default_factory=list)  # (sent at, ms)
    follow_up_sent: dict[str, float] = field(default_factory=dict)  # text → request time
    follow_up_ms: list[tuple[float, float]] = field(default_factory=list)  # (sent at, ms)
    http_errors: list[str] = field(default_factory=list)
    ws_errors: list[str] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)


async def open_socket(url: str):
    ws = await connect(url, origin=ORIGIN, compression=None, max_queue=None, open_timeout=30)
    hello = json.loads(await ws.recv())
    assert hello["type"] == "hello", hello
    return ws


async def read_coach(ws, results: Results) -> None:
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] == "doc.update":
            sent = results.edit_sent.pop(message["update"], None)
            if sent is not None:
                results.edit_ms.append((time.perf_counter() - sent) * 1000)
        elif message["type"] == "doc.relay":
            sent = results.relay_sent.pop(message["update"], None)
            if sent is not None:
                results.relay_ms.append((sent, (time.perf_counter() - sent) * 1000))
        elif message["type"] == "error":
            results.ws_errors.append(message.get("detail", "?"))


async def read_candidate(ws, results: Results) -> None:
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] == "follow_up":
            sent = results.follow_up_sent.pop(message["text"], None)
            if sent is not None:
                results.follow_up_ms.append((sent, (time.perf_counter() - sent) * 1000))
        elif message["type"] == "error":
            results.ws_errors.append(message.get("detail", "?"))


async def type_code(ws, room: dict, results: Results, offset: float, interval: float, stop: float):
    doc = Doc()
    text = doc.get("code", type=Text)
    await asyncio.sleep(offset)
    next_at = time.perf_counter()
    while next_at < stop:
        before = doc.get_state()
        text.insert(len(text), "x")
        update = base64.b64encode(doc.get_update(before)).decode()
        if results.measuring:
            results.edit_sent[update] = results.relay_sent[update] = time.perf_counter()
        await ws.send(json.dumps({"type": "doc.update", "doc": room["doc"], "update": update}))
        next_at += interval
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


def make_poster(base_urls: list[str]):
    local = threading.local()

    def post(room_index: int, room: dict, text: str) -> str | None:
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = requests.Session()
        base = base_urls[(room_index + 1) % len(base_urls)]
        url = f"{base}/api/v1/stages/{room['stage']}/follow-ups/"
        try:
            response = session.post(
                url,
                json={"text": text},
                headers={"Authorization": f"Token {room['coach']}"},
                timeout=10,
            )
        except requests.RequestException as exc:
            return type(exc).__name__
        return None if response.status_code == 201 else str(response.status_code)

    return post


async def push_follow_ups(
    pool, post, index: int, room: dict, results: Results, offset: float, every: float, stop: float
):
    loop = asyncio.get_running_loop()
    await asyncio.sleep(offset)
    next_at, n = time.perf_counter(), 0
    while next_at < stop:
        text = f"follow-up {index}.{n}"
        n += 1
        measured = results.measuring
        if measured:
            results.follow_up_sent[text] = time.perf_counter()
        error = await loop.run_in_executor(pool, post, index, room, text)
        if error is not None:
            results.http_errors.append(error)
            results.follow_up_sent.pop(text, None)
        next_at += every
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


async def watch_lag(results: Results, stop: float) -> None:
    """How late the bench client's own loop wakes up (ms) — its measurement noise."""
    while time.perf_counter() < stop:
        started = time.perf_counter()
        await asyncio.sleep(0.05)
        if results.measuring:
            results.lag_ms.append((time.perf_counter() - started - 0.05) * 1000)


async def drive(args, rooms: list[dict], base_urls: list[str], on_open) -> Results:
    results = Results()
    sockets: list = []
    ws_bases = [u.replace("http://", "ws://") for u in base_urls]
    connect_limit = asyncio.Semaphore(20)

    async def open_room(i: int, room: dict):
        path = f"/ws/stages/{room['stage']}/?token="
        async with connect_limit:
            candidate = await open_socket(f"{ws_bases[i % len(ws_bases)]}{path}{room['candidate']}")
            coach = await open_socket(f"{ws_bases[(i + 1) % len(ws_bases)]}{path}{room['coach']}")
        return candidate, coach

    started = time.perf_counter()
    pairs = await asyncio.gather(*(open_room(i, room) for i, room in enumerate(rooms)))
    print(f"opened {2 * len(pairs)} sockets in {time.perf_counter() - started:.1f}s", flush=True)
    on_open()
    readers = []
    for candidate, coach in pairs:
        sockets += [candidate, coach]
        readers.append(asyncio.create_task(read_candidate(candidate, results)))
        readers.append(asyncio.create_task(read_coach(coach, results)))

    now = time.perf_counter()
    measure_from = now + WARMUP_S
    stop = measure_from + args.seconds
    pool = ThreadPoolExecutor(max_workers=32)
    post = make_poster(base_urls)
    tasks = [asyncio.create_task(watch_lag(results, stop))]
    for i, ((candidate, _), room) in enumerate(zip(pairs, rooms, strict=True)):
        offset = i / len(rooms)
        tasks.append(asyncio.create_task(type_code(candidate, room, results, offset, 1.0, stop)))
        if args.follow_up_every > 0:
            fu_offset = args.follow_up_every * i / len(rooms)
            tasks.append(
                asyncio.create_task(
                    push_follow_ups(
                        pool, post, i, room, results, fu_offset, args.follow_up_every, stop
                    )
                )
            )
    await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
    results.measuring = True
    print(f"measuring for {args.seconds:.0f}s ...", flush=True)
    await asyncio.gather(*tasks)
    results.measuring = False
    await asyncio.sleep(GRACE_S)  # let in-flight messages land
    for ws in sockets:
        await ws.close()
    for reader in readers:
        reader.cancel()
    pool.shutdown(wait=True)
    return results


# --- main --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--follow-up-every", type=float, default=20.0, help="seconds per room")
    parser.add_argument("--web", type=int, default=1, help="web processes (one uvicorn each)")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--sqlite-wal", action="store_true", help="SQLite in WAL mode")
    parser.add_argument("--baseline-samples", type=int, default=2000)
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="S",
        help="wait up to S seconds for the rest of the machine to go idle (shared hosts)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--profile", type=Path, help="py-spy flame graph (SVG) of web process 0 while measuring"
    )
    args = parser.parse_args()
    if not 1 <= args.rooms <= MAX_ROOMS or not 1 <= args.seconds <= MAX_SECONDS:
        raise SystemExit(f"--rooms 1..{MAX_ROOMS}, --seconds 1..{MAX_SECONDS}")
    if not 1 <= args.web <= 8:
        raise SystemExit("--web 1..8")

    var_dir = Path(os.environ.get("MOCKLOOP_VAR_DIR", ROOT / "var"))  # on disk, like make run
    var_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="mockloop-bench-live-", dir=var_dir))
    procs: list[subprocess.Popen] = []
    env = bench_env(tmp, THROTTLE_FOLLOW_UPS="100000/min", THROTTLE_CHAT="100000/min")
    db_label = "SQLite"
    if args.postgres:
        env["DATABASE_URL"] = postgres_url(PG_NAME)
        db_label = "PostgreSQL"
    try:
        redis_port = free_port()
        redis_url = f"redis://127.0.0.1:{redis_port}/0"
        redis_args = ["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port)]
        redis_args += ["--save", "", "--appendonly", "no", "--dir", str(tmp)]
        procs.append(subprocess.Popen(redis_args, stdout=subprocess.DEVNULL))
        client = redis.Redis.from_url(redis_url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        env["REDIS_URL"] = redis_url

        manage(env, "migrate", "-v", "0")
        if args.sqlite_wal and not args.postgres:
            import sqlite3

            with sqlite3.connect(tmp / "mockloop.sqlite3") as db:  # persists in the file
                db.execute("PRAGMA journal_mode=WAL")
        rooms = json.loads(
            manage({**env, "BENCH_ROOMS": str(args.rooms)}, "shell", "-c", SEED)
            .strip()
            .splitlines()[-1]
        )
        base_urls, web = [], []
        for i in range(args.web):
            port = free_port()
            log = (tmp / f"web-{i}.log").open("wb")
            proc = subprocess.Popen(
                web_command(port),
                cwd=ROOT,
                env={**POOL_ENV, **env},  # as the Procfile's web (PostgreSQL only)
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            procs.append(proc)
            web.append(proc)
            base_urls.append(f"http://127.0.0.1:{port}")
        for url, proc in zip(base_urls, web, strict=True):
            wait_http(f"{url}/healthz", proc)

        py_spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(PY).parent))
        if args.profile and py_spy is None:
            raise SystemExit("--profile needs py-spy on PATH (pip install py-spy)")

        def start_profile() -> None:  # once the sockets are open: warm-up and measuring
            if args.profile:
                fmt = "flamegraph" if args.profile.suffix == ".svg" else "raw"  # raw: folded
                command = [py_spy, "record", "-p", str(web[0].pid), "-o", str(args.profile)]
                command += ["-f", fmt, "-d", str(int(WARMUP_S + args.seconds))]
                command += ["-r", "50", "--nonblocking", "--gil"]  # CPU held by Python code
                procs.append(
                    subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                )

        ours = [*web, procs[0]]  # web processes, redis
        if args.wait_quiet:
            background = wait_quiet(args.wait_quiet, [p.pid for p in ours] + [os.getpid()])
            print(f"background load before measuring: {background:.2f} CPUs", flush=True)
        baseline = asyncio.run(redis_baseline(redis_url, args.baseline_samples))
        print(f"baseline: {len(baseline)} Redis round trips", flush=True)
        cpu_before = [cpu_seconds(p.pid) for p in ours] + [cpu_seconds(os.getpid())]
        machine_before = machine_cpu_seconds()
        wall = time.perf_counter()
        results = asyncio.run(drive(args, rooms, base_urls, start_profile))
        wall = time.perf_counter() - wall
        cpu_after = [cpu_seconds(p.pid) for p in ours] + [cpu_seconds(os.getpid())]
        machine = machine_cpu_seconds() - machine_before
        if args.profile:
            procs[-1].wait(timeout=60)  # py-spy stops by itself and writes the profile
        used = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
        report(args, db_label, baseline, results, wall, used, machine)
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if args.postgres:
            drop = f'DROP DATABASE IF EXISTS "{PG_NAME}" WITH (FORCE);'
            subprocess.run(
                ["runuser", "-u", "postgres", "--", "psql", "-X", "-q", "-c", drop],
                check=False,
            )
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def report(args, db_label, baseline, results: Results, wall, used, machine) -> None:
    base = summary(baseline)
    edits = summary(results.edit_ms)
    relayed = summary([ms for _, ms in results.relay_ms])
    follow_ups = summary([ms for _, ms in results.follow_up_ms])
    lag = summary(results.lag_ms)
    lost_edits = len(results.edit_sent)
    lost_follow_ups = len(results.follow_up_sent)
    *web_cpu, redis_cpu, client_cpu = used
    others = max(0.0, machine - sum(used))

    def row(name: str, s: dict) -> str:
        return (
            f"{name:<30} {s['n']:>7} {s['median']:>9.2f} {s['p90']:>9.2f} {s['p99']:>9.2f}"
            f" {s['max']:>9.2f}"
        )

    print()
    print(
        f"Live rooms: {args.rooms} rooms ({2 * args.rooms} sockets), {args.seconds:.0f}s, "
        f"{args.web} uvicorn, {db_label}, 1 edit/s/room, a follow-up every "
        f"{args.follow_up_every:g}s/room; {os.cpu_count()} CPUs"
    )
    print(f"{'':<30} {'n':>7} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9}   (ms)")
    print(row("baseline: Redis PUB→SUB", base))
    if relayed["n"]:
        print(row("code update relayed (→coach)", relayed))
    print(row("code update logged (→coach)", edits))
    print(row("follow-up (POST→candidate)", follow_ups))
    print(row("bench client loop lag", lag))
    print()
    shown = [("code update", edits), ("follow-up", follow_ups)]
    if relayed["n"]:
        shown.insert(0, ("code relay", relayed))
    for name, s in shown:
        print(
            f"{name:<12} ratio to baseline: median ×{s['median'] / base['median']:.1f}, "
            f"p99 ×{s['p99'] / base['p99']:.1f}; target p99 ≤ 50 ms: "
            f"{'met' if s['p99'] <= 50 else 'MISSED'}"
        )
    # Does the tail grow over the run? p99 per 10 s of sending, from the first send.
    for name, timed in (("code relay", results.relay_ms), ("follow-up", results.follow_up_ms)):
        if timed:
            first = min(at for at, _ in timed)
            windows: dict[int, list[float]] = {}
            for at, ms in timed:
                windows.setdefault(int((at - first) // 10), []).append(ms)
            print(
                f"{name} p99 per 10 s: "
                + ", ".join(f"{percentile(v, 0.99):.0f}" for _, v in sorted(windows.items()))
                + " ms"
            )
    print(
        f"lost: {lost_edits} code updates"
        + (f" ({len(results.relay_sent)} relays)" if relayed["n"] else "")
        + f", {lost_follow_ups} follow-ups; "
        f"HTTP errors: {len(results.http_errors)} {sorted(set(results.http_errors))[:5]}; "
        f"socket errors: {len(results.ws_errors)} {sorted(set(results.ws_errors))[:3]}"
    )
    print(
        "CPU over the run (% of one core): "
        + ", ".join(f"web{i} {c / wall * 100:.0f}%" for i, c in enumerate(web_cpu))
        + f", redis {redis_cpu / wall * 100:.0f}%, bench client {client_cpu / wall * 100:.0f}%,"
        f" everything else on the machine {others / wall * 100:.0f}%; load average at the end"
        f" {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1 / 5 / 15 min)"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "rooms": args.rooms,
                    "seconds": args.seconds,
                    "web": args.web,
                    "database": db_label,
                    "baseline": base,
                    "code_update": edits,
                    "code_relay": relayed,
                    "follow_up": follow_ups,
                    "client_lag": lag,
                    "lost": {"code_update": lost_edits, "follow_up": lost_follow_ups},
                    "http_errors": len(results.http_errors),
                    "cpu_percent": {
                        "web": [round(c / wall * 100) for c in web_cpu],
                        "redis": round(redis_cpu / wall * 100),
                        "client": round(client_cpu / wall * 100),
                        "others": round(others / wall * 100),
                    },
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
