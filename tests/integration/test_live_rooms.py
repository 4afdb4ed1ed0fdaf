"""Live rooms end to end: real websocket clients (the `websockets` package) against the
shipped web server (uvicorn) on a real Redis, REST over HTTP, and the real Celery worker
(with beat) for the deadline.

Each test sets up its rows through the ORM (committed: the server is another process),
then drives the room from one `asyncio.run(...)`; `RoomClient` is the small reconnecting
client a browser would be: it remembers the last `seq` it applied and resyncs after it.
"""

import asyncio
import base64
import json
import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.db import connections
from django.utils import timezone
from pycrdt import Doc, Map, Text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from interviews.models import Stage, StageEvent, StageQuestion, Submission
from interviews.realtime.consumers import WATCH_S
from interviews.realtime.events import emit
from interviews.services.stages import stage_start
from mockloop.env import VAR_DIR
from mockloop.web import WS_MAX_BYTES, free_port
from tests import factories
from tests.conftest import running_web_server
from tests.factories import (
    CoachFactory,
    FollowUpFactory,
    PartFactory,
    StageFactory,
    UserFactory,
    api_token_for,
)

pytestmark = pytest.mark.integration

PASSWORD = "pw-Correct-Horse-9"  # the factories' password
ORIGIN = "http://127.0.0.1"
COACH_ONLY = "SENTINEL-coach-only-4471"
REFERENCE = "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"
WAIT_S = 10
#: What the log watcher promises a socket that missed broadcasts (consumers.RoomWatcher):
#: caught up by the second pass after the events, each pass WATCH_S ± 20% apart; plus
#: time for a loaded machine to run it.
CATCH_UP_S = 2 * WATCH_S * 1.2 + 5


# --- HTTP ------------------------------------------------------------------------------


def http(
    method: str, url: str, body: dict | None = None, *, token: str = "", cookie: str = ""
) -> tuple[int, dict, dict]:
    """One JSON request → (status, body, headers); never raises for an HTTP error."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as response:
            raw, status, headers = response.read(), response.status, response.headers
    except urllib.error.HTTPError as exc:
        raw, status, headers = exc.read(), exc.code, exc.headers
    return status, (json.loads(raw) if raw else {}), headers


async def apost(base: str, path: str, body: dict, *, token: str) -> dict:
    status, data, _ = await asyncio.to_thread(http, "POST", f"{base}{path}", body, token=token)
    assert status == 201, (path, status, data)
    return data


def session_cookie(base: str, username: str) -> str:
    status, data, headers = http(
        "POST", f"{base}/api/v1/auth/login/", {"username": username, "password": PASSWORD}
    )
    assert status == 200, data
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith("sessionid="):
            return header.split(";", 1)[0]
    raise AssertionError(f"no session cookie in {headers}")


# --- the websocket client ----------------------------------------------------------------


class RoomClient:
    """One participant: reconnects with `connect()`, resyncing after the last `seq` seen.

    `logged` holds every logged event received across connections, in the order a browser
    applies them (frontend/src/ws/socket.ts): in arrival order, except that what arrives
    between a connection's `hello` and its `resync.done` is applied by `seq` — a live event
    broadcast before the server read our `resync` comes ahead of the resync's older answer
    (docs/events.md, "Delivery guarantees"). A repeat stays a repeat.
    """

    def __init__(self, base: str, stage_id: int, *, token: str = "", cookie: str = "") -> None:
        query = f"?token={token}" if token else ""
        self.url = f"ws://{urlsplit(base).netloc}/ws/stages/{stage_id}/{query}"
        self.headers = {"Cookie": cookie} if cookie else {}
        self.logged: list[dict] = []
        self.messages: list[dict] = []  # everything on the current connection
        self.hello: dict = {}
        self.ws = None
        self._reader: asyncio.Task | None = None
        self._resync_from: int | None = None  # where this connection's resync answer starts

    @property
    def last_seq(self) -> int:
        return max((event["seq"] for event in self.logged), default=0)

    @property
    def seqs(self) -> list[int]:
        return [event["seq"] for event in self.logged]

    async def connect(
        self, *, resync: bool = True, before_resync: Callable[[], Awaitable] | None = None
    ) -> "RoomClient":
        """Open, read the `hello`, then (after `before_resync`, if given) resync after the
        last `seq` applied before this connection."""
        self.messages = []
        self.ws = await connect(self.url, origin=ORIGIN, additional_headers=self.headers)
        self.hello = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT_S))
        assert self.hello["type"] == "hello", self.hello
        after = self.last_seq
        self._resync_from = len(self.logged) if resync else None
        self._reader = asyncio.create_task(self._read())
        if before_resync is not None:
            await before_resync()
        if resync:
            mark = len(self.messages)
            await self.send({"type": "resync", "after": after})
            await self.wait_for(lambda m: m["type"] == "resync.done", since=mark)
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                self.messages.append(message)
                if "seq" in message:
                    self.logged.append(message)
                elif message["type"] == "resync.done" and self._resync_from is not None:
                    start, self._resync_from = self._resync_from, None
                    self.logged[start:] = sorted(self.logged[start:], key=lambda e: e["seq"])
        except ConnectionClosed:
            pass

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def wait_for(
        self, predicate: Callable[[dict], bool], *, since: int = 0, timeout: float = WAIT_S
    ) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.messages[since:]:
                if predicate(message):
                    return message
            await asyncio.sleep(0.01)
        raise AssertionError(f"{self.url}: nothing matched in {timeout}s; got {self.messages}")

    async def wait_seq(self, seq: int, timeout: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout
        while self.last_seq < seq:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.url}: stuck at seq {self.last_seq}, want {seq}")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            await self._reader


# --- rooms -------------------------------------------------------------------------------


def make_room(*, minutes: int = 60) -> dict:
    """A live coding stage with an assigned coach: one question, part 2 locked behind a bank
    follow-up that has coach-only notes, one hidden test for part 1."""
    candidate, coach = UserFactory(), CoachFactory()
    part = PartFactory()
    factories.TestCaseFactory(part=part, visibility="sample")
    factories.TestCaseFactory(part=part, visibility="hidden", input="20 22\n", output="42\n")
    PartFactory(question=part.question, position=2)
    follow_up = FollowUpFactory(question=part.question, unlocks_part=2, coach_notes=COACH_ONLY)
    stage = StageFactory(
        loop__candidate=candidate, loop__coached=True, coach=coach, minutes=minutes
    )
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    stage_start(stage=stage, actor=candidate)
    return {
        "stage": stage,
        "question": part.question,
        "follow_up": follow_up,
        "candidate": candidate,
        "coach": coach,
        "candidate_token": api_token_for(candidate),
        "coach_token": api_token_for(coach),
    }


def visible_seqs(stage: Stage, *, private: bool, after: int = 0) -> list[int]:
    events = StageEvent.objects.filter(stage=stage, seq__gt=after)
    if not private:
        events = events.filter(private=False)
    return list(events.order_by("seq").values_list("seq", flat=True))


def assert_exactly_once(client: RoomClient, stage: Stage, *, private: bool) -> None:
    """The client got every event it may see once, in order, without a gap — all but the
    presence `left` events logged after it hung up."""
    expected = visible_seqs(stage, private=private)
    got = client.seqs
    assert got == expected[: len(got)], f"got {got}, want {expected}"
    after = StageEvent.objects.filter(stage=stage, seq__in=expected[len(got) :])
    assert {(e.type, e.payload["state"]) for e in after} <= {("presence", "left")}


def code_update(doc: Doc, text: str) -> str:
    """Append `text` to the shared code document; return the Yjs update, base64."""
    before = doc.get_state()
    code = doc.get("code", type=Text)
    code.insert(len(code), text)
    return base64.b64encode(doc.get_update(before)).decode()


# --- numbering -----------------------------------------------------------------------------


def test_concurrent_emitters_number_events_without_gaps_or_collisions(transactional_db):
    """Threads with their own database connections emit into one stage at once (the web
    process's room thread, request threads, the worker); a stale `last_seq` (a full
    `Stage.save()` of an old copy) does not make numbers collide either."""
    stage = make_room()["stage"]
    before = StageEvent.objects.filter(stage=stage).count()
    errors: list[BaseException] = []

    def emitter(n: int) -> None:
        try:
            for i in range(15):
                emit(stage.pk, "chat", {"text": f"{n}.{i}"})
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=emitter, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    Stage.objects.filter(pk=stage.pk).update(last_seq=1)  # a stale write, mid-flight
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    emit(stage.pk, "chat", {"text": "last"})
    seqs = list(
        StageEvent.objects.filter(stage=stage).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, before + 4 * 15 + 2))
    assert Stage.objects.get(pk=stage.pk).last_seq == seqs[-1]


# --- (a) follow-up push -------------------------------------------------------------------


def test_coach_follow_up_push_reaches_the_candidate_socket(live_server_url):
    room = make_room()
    stage = room["stage"]

    async def scenario():
        candidate = await RoomClient(
            live_server_url, stage.pk, token=room["candidate_token"]
        ).connect()
        coach = await RoomClient(live_server_url, stage.pk, token=room["coach_token"]).connect()
        path = f"/api/v1/stages/{stage.pk}/follow-ups/"
        started = time.monotonic()
        pushed = await apost(
            live_server_url, path, {"follow_up": room["follow_up"].pk}, token=room["coach_token"]
        )
        got = await candidate.wait_for(lambda m: m["type"] == "follow_up")
        elapsed = time.monotonic() - started
        await apost(live_server_url, path, {"text": "What if K = 0?"}, token=room["coach_token"])
        free = await candidate.wait_for(
            lambda m: m["type"] == "follow_up" and m["question"] is None
        )
        await coach.wait_seq(free["seq"])
        await candidate.close()
        await coach.close()
        return candidate, coach, pushed, got, free, elapsed

    candidate, coach, pushed, got, free, elapsed = asyncio.run(scenario())
    assert got["id"] == pushed["id"] and got["unlocks_part"] == 2
    assert got["text"] == room["follow_up"].prompt and got["actor"] == room["coach"].username
    assert free["text"] == "What if K = 0?"
    assert elapsed < 2, f"push took {elapsed:.3f}s to arrive"
    assert COACH_ONLY not in json.dumps(candidate.messages)
    assert [m["type"] for m in coach.logged].count("follow_up") == 2


# --- (b) reconnect + resync ----------------------------------------------------------------


def test_reconnect_and_resync_returns_exactly_the_missed_events_in_order(live_server_url):
    room = make_room()
    stage = room["stage"]
    base, coach_token = live_server_url, room["coach_token"]

    async def scenario():
        candidate = await RoomClient(base, stage.pk, token=room["candidate_token"]).connect()
        coach = await RoomClient(base, stage.pk, token=coach_token).connect()
        await coach.send({"type": "chat", "text": "hello"})
        await candidate.wait_for(lambda m: m.get("text") == "hello")
        await candidate.close()
        seen = candidate.last_seq

        # While the candidate is away: REST pushes, a private note, chat over the socket.
        await apost(
            base, f"/api/v1/stages/{stage.pk}/follow-ups/", {"text": "one"}, token=coach_token
        )
        await apost(
            base, f"/api/v1/stages/{stage.pk}/notes/", {"text": COACH_ONLY}, token=coach_token
        )
        await coach.send({"type": "chat", "text": "two"})
        await apost(
            base, f"/api/v1/stages/{stage.pk}/follow-ups/", {"text": "three"}, token=coach_token
        )
        await coach.wait_for(lambda m: m.get("text") == "three")

        mark = len(candidate.logged)
        await candidate.connect()  # resyncs after `seen`
        resynced = candidate.logged[mark:]
        await coach.send({"type": "chat", "text": "live again"})
        await candidate.wait_for(lambda m: m.get("text") == "live again")
        await candidate.close()
        await coach.close()
        return candidate, seen, resynced

    candidate, seen, resynced = asyncio.run(scenario())
    missed = visible_seqs(stage, private=False, after=seen)
    # The resync answered everything the candidate missed (its own leave and rejoin
    # included), in order, once; the live chat followed; the note never came.
    assert [e["seq"] for e in resynced] == [s for s in missed if s <= resynced[-1]["seq"]]
    assert [e.get("text") for e in resynced if e["type"] in ("chat", "follow_up")] == [
        "one",
        "two",
        "three",
    ]
    assert_exactly_once(candidate, stage, private=False)
    assert COACH_ONLY not in json.dumps(candidate.logged)


def test_a_live_event_that_overtakes_the_resync_answer_is_applied_in_seq_order(live_server_url):
    """docs/events.md's one exception to `seq` order: an event broadcast between a
    socket's `hello` and its `resync` arrives before the resync's (older) answer. It is
    sent once, the answer holds everything older that was missed, and applied by `seq` (as
    the browser does) the stream is the log, in order, without a repeat."""
    room = make_room()
    stage = room["stage"]
    base = live_server_url

    async def scenario():
        candidate = await RoomClient(base, stage.pk, token=room["candidate_token"]).connect()
        coach = await RoomClient(base, stage.pk, token=room["coach_token"]).connect()
        await candidate.close()
        await coach.send({"type": "chat", "text": "while away"})
        await coach.wait_for(lambda m: m.get("text") == "while away")

        async def overtake() -> None:  # the hello is read; our resync is not sent yet
            await coach.send({"type": "chat", "text": "overtakes"})
            await candidate.wait_for(lambda m: m.get("text") == "overtakes")

        await candidate.connect(before_resync=overtake)
        arrived = [m.get("text") for m in candidate.messages if m.get("type") == "chat"]
        await candidate.close()
        await coach.close()
        return candidate, arrived

    candidate, arrived = asyncio.run(scenario())
    assert arrived == ["overtakes", "while away"]  # the race happened
    assert candidate.seqs == sorted(candidate.seqs)
    assert_exactly_once(candidate, stage, private=False)


# --- (d) who may connect -------------------------------------------------------------------


def test_token_and_session_auth_work_and_refusals_close_with_4403(live_server_url):
    room = make_room()
    stage = room["stage"]
    stranger = api_token_for(UserFactory())
    other_coach = api_token_for(CoachFactory())
    cookie = session_cookie(live_server_url, room["coach"].username)
    url = f"ws://{urlsplit(live_server_url).netloc}/ws/stages/{stage.pk}/"

    async def close_code(target: str, **kwargs) -> int:
        async with connect(target, **kwargs) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), WAIT_S)
            return closed.value.rcvd.code

    async def scenario():
        by_token = await RoomClient(
            live_server_url, stage.pk, token=room["candidate_token"]
        ).connect()
        by_cookie = await RoomClient(live_server_url, stage.pk, cookie=cookie).connect()
        await by_token.close()
        await by_cookie.close()
        codes = {
            "anonymous": await close_code(url, origin=ORIGIN),
            "bad token": await close_code(f"{url}?token=nope", origin=ORIGIN),
            "stranger": await close_code(f"{url}?token={stranger}", origin=ORIGIN),
            "other coach": await close_code(f"{url}?token={other_coach}", origin=ORIGIN),
            "bad cookie": await close_code(
                url, origin=ORIGIN, additional_headers={"Cookie": "sessionid=forged"}
            ),
        }
        statuses = {}
        for name, origin in (("no origin", None), ("foreign origin", "http://evil.example")):
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"{url}?token={room['coach_token']}", origin=origin)
            statuses[name] = refused.value.response.status_code
        return by_token.hello, by_cookie.hello, codes, statuses

    token_hello, cookie_hello, codes, statuses = asyncio.run(scenario())
    assert (token_hello["user"], token_hello["role"]) == (room["candidate"].username, "candidate")
    assert (cookie_hello["user"], cookie_hello["role"]) == (room["coach"].username, "coach")
    assert codes == dict.fromkeys(codes, 4403)
    assert statuses == {"no origin": 403, "foreign origin": 403}


def test_oversized_message_closes_the_socket_and_changes_nothing(live_server_url):
    """A frame over the server's cap (mockloop.web.WS_MAX_BYTES) is refused before it is
    parsed: close 1009, nothing logged; a document update of legitimate size still works."""
    room = make_room()
    stage = room["stage"]
    name = f"code:{room['question'].pk}"
    before = StageEvent.objects.filter(stage=stage).count()

    async def scenario():
        candidate = await RoomClient(
            live_server_url, stage.pk, token=room["candidate_token"]
        ).connect()
        huge = code_update(Doc(), "x" * (WS_MAX_BYTES // 2)) + "A" * WS_MAX_BYTES
        await candidate.send({"type": "doc.update", "doc": name, "update": huge})
        await asyncio.wait_for(candidate._reader, WAIT_S)  # ends when the socket closes
        code = candidate.ws.close_code
        await candidate.connect()
        update = code_update(Doc(), "print(42)\n")
        await candidate.send({"type": "doc.update", "doc": name, "update": update})
        await candidate.wait_for(lambda m: m["type"] == "doc.update")
        await candidate.close()
        return code

    code = asyncio.run(scenario())
    assert code == 1009
    events = StageEvent.objects.filter(stage=stage, seq__gt=before).values_list("type", flat=True)
    assert list(events).count("doc.update") == 1


# --- (c) a Redis restart mid-room -----------------------------------------------------------


class RedisServer:
    def __init__(self, port: int, log_path: Path) -> None:
        self.port, self.log_path = port, log_path
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        args += ["--save", "", "--appendonly", "no", "--logfile", str(self.log_path)]
        self.process = subprocess.Popen(args, cwd=VAR_DIR)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise AssertionError(f"redis-server did not start on {self.port}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=WAIT_S)


@pytest.fixture
def own_redis_and_server(live_server_env):
    """A dedicated redis-server (the test restarts it) and a web server that uses it."""
    log_dir = VAR_DIR / "log"
    log_dir.mkdir(parents=True, exist_ok=True)
    redis_server = RedisServer(free_port(), log_dir / f"live-redis-{os.getpid()}.log")
    redis_server.start()
    env = {**live_server_env, "REDIS_URL": redis_server.url}
    try:
        with running_web_server(env, "live-server-own-redis") as server:
            yield redis_server, server
    finally:
        redis_server.kill()


def test_redis_restart_mid_room_loses_nothing(transactional_db, own_redis_and_server):
    redis_server, server = own_redis_and_server
    room = make_room()
    stage = room["stage"]
    base, coach_token = server.url, room["coach_token"]
    follow_ups = f"/api/v1/stages/{stage.pk}/follow-ups/"
    doc = Doc()

    async def edit(client: RoomClient, text: str) -> None:
        name = f"code:{room['question'].pk}"
        await client.send({"type": "doc.update", "doc": name, "update": code_update(doc, text)})

    async def scenario():
        candidate = await RoomClient(base, stage.pk, token=room["candidate_token"]).connect()
        coach = await RoomClient(base, stage.pk, token=coach_token).connect()
        await edit(candidate, "import sys\n")
        await apost(base, follow_ups, {"text": "before"}, token=coach_token)
        await candidate.wait_for(lambda m: m.get("text") == "before")

        redis_server.kill()
        # During the outage: REST writes land in the database; sockets still take edits.
        await apost(base, follow_ups, {"text": "during-1"}, token=coach_token)
        await apost(
            base, f"/api/v1/stages/{stage.pk}/notes/", {"text": COACH_ONLY}, token=coach_token
        )
        await edit(candidate, "print(1)\n")
        await apost(base, follow_ups, {"text": "during-2"}, token=coach_token)
        await asyncio.sleep(0.5)

        redis_server.start()  # same port, empty: every group membership is gone
        await coach.send({"type": "chat", "text": "after-1"})
        await edit(candidate, "print(2)\n")
        await apost(base, follow_ups, {"text": "after-2"}, token=coach_token)
        last = await asyncio.to_thread(lambda: Stage.objects.get(pk=stage.pk).last_seq)

        # The sockets stayed open and caught up from the log...
        await coach.wait_seq(last, timeout=CATCH_UP_S)
        await candidate.wait_for(lambda m: m.get("text") == "after-2", timeout=CATCH_UP_S)
        assert candidate.ws.close_code is None and coach.ws.close_code is None
        # ...and live delivery is back: each push arrives well inside one watcher period.
        for n in range(3):
            started = time.monotonic()
            await apost(base, follow_ups, {"text": f"live-{n}"}, token=coach_token)
            await candidate.wait_for(lambda m, n=n: m.get("text") == f"live-{n}")
            assert time.monotonic() - started < 1.0

        # And clients that reconnect resync to exactly the rest.
        await candidate.close()
        await coach.close()
        await apost(base, follow_ups, {"text": "while-away"}, token=coach_token)
        await candidate.connect()
        await coach.connect()
        await edit(candidate, "print(3)\n")
        final = await candidate.wait_for(
            lambda m: m["type"] == "doc.update" and m["seq"] > last + 3
        )
        await coach.wait_seq(final["seq"])
        await candidate.close()
        await coach.close()
        return candidate, coach

    candidate, coach = asyncio.run(scenario())
    assert_exactly_once(coach, stage, private=True)
    assert_exactly_once(candidate, stage, private=False)
    texts = [e["text"] for e in candidate.logged if e["type"] in ("chat", "follow_up")]
    assert texts == [
        "before",
        "during-1",
        "during-2",
        "after-1",
        "after-2",
        "live-0",
        "live-1",
        "live-2",
        "while-away",
    ]
    merged = Doc()
    for event in coach.logged:
        if event["type"] == "doc.update":
            merged.apply_update(base64.b64decode(event["update"]))
    assert str(merged.get("code", type=Text)) == "import sys\nprint(1)\nprint(2)\nprint(3)\n"
    assert "Exception inside application" not in server.log_tail(400)


# --- (e) the deadline, with the real worker and beat -------------------------------------------


def test_deadline_auto_submits_the_typed_code_and_closes_the_stage(live_server_url, celery_worker):
    room = make_room(minutes=30)
    stage = room["stage"]
    name = f"code:{room['question'].pk}"

    async def scenario():
        candidate = await RoomClient(
            live_server_url, stage.pk, token=room["candidate_token"]
        ).connect()
        doc = Doc()
        start = doc.get_state()
        doc.get("meta", type=Map)["language"] = "python"
        update = base64.b64encode(doc.get_update(start)).decode()
        await candidate.send({"type": "doc.update", "doc": name, "update": update})
        for line in REFERENCE.splitlines(keepends=True):  # typed line by line
            await candidate.send(
                {"type": "doc.update", "doc": name, "update": code_update(doc, line)}
            )
        typed = 1 + len(REFERENCE.splitlines())
        await candidate.wait_for(
            lambda m: [e["type"] for e in candidate.logged].count("doc.update") >= typed
        )
        await asyncio.to_thread(
            lambda: Stage.objects.filter(pk=stage.pk).update(
                deadline=timezone.now() + timedelta(seconds=2)
            )
        )
        closed = await candidate.wait_for(
            lambda m: m["type"] == "stage.status" and m["status"] == "done", timeout=15
        )
        judged = await candidate.wait_for(
            lambda m: m["type"] == "submission.status" and m["status"] in ("done", "error"),
            timeout=20,
        )
        await candidate.close()
        return candidate, closed, judged

    candidate, closed, judged = asyncio.run(scenario())
    assert closed["reason"] == "deadline"
    assert any(m["type"] == "timer" and m["reason"] == "expired" for m in candidate.logged)
    submission = Submission.objects.get(pk=judged["id"])
    assert submission.auto and submission.code == REFERENCE and submission.language == "python"
    assert (judged["verdict"], judged["passed"], judged["total"]) == ("accepted", 1, 1), judged
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.DONE


# --- (f) relay first, log in batches: a web process that dies before writing a batch ---------


def test_a_web_process_dying_before_its_batch_is_written_loses_no_edit(
    transactional_db, live_server_env
):
    """Edits reach the coach at once (`doc.relay`), before they are logged; the process then
    dies with its batch unwritten. The candidate's client sends every edit it has no
    `doc.saved` for again after reconnecting (as sharedDocs.ts does), and both clients'
    logs — and the database's — converge on what was typed."""
    room = make_room()
    stage, name = room["stage"], f"code:{room['question'].pk}"
    doc, typed = Doc(), ["a = 1\n", "b = 2\n", "print(a + b)\n"]
    unsaved: dict[str, dict] = {}

    def acknowledge(client: RoomClient) -> None:
        for message in client.messages:
            if message["type"] == "doc.saved":
                for ref in message["refs"]:
                    unsaved.pop(ref, None)

    async def on(server_url: str, client: RoomClient) -> RoomClient:
        client.url = client.url.replace(urlsplit(client.url).netloc, urlsplit(server_url).netloc)
        return await client.connect()

    slow = {**live_server_env, "ROOM_LOG_FLUSH_MS": "60000"}  # only a leave would write
    with running_web_server(slow, "live-server-dies") as doomed:
        candidate = RoomClient(doomed.url, stage.pk, token=room["candidate_token"])
        coach = RoomClient(doomed.url, stage.pk, token=room["coach_token"])

        async def before_the_crash():
            await candidate.connect()
            await coach.connect()
            for n, text in enumerate(typed):
                message = {"type": "doc.update", "doc": name, "update": code_update(doc, text)}
                unsaved[f"d{n}"] = {**message, "ref": f"d{n}"}
                await candidate.send(unsaved[f"d{n}"])
            for n in range(len(typed)):
                await coach.wait_for(
                    lambda m, n=n: (
                        m["type"] == "doc.relay" and m["update"] == unsaved[f"d{n}"]["update"]
                    )
                )
            doomed.process.send_signal(signal.SIGKILL)  # before the window: nothing written
            doomed.process.wait(timeout=WAIT_S)

        asyncio.run(before_the_crash())
    assert not StageEvent.objects.filter(stage=stage, type="doc.update").exists()

    with running_web_server(live_server_env, "live-server-after") as server:

        async def after_the_crash():
            await on(server.url, candidate)
            await on(server.url, coach)
            for message in list(unsaved.values()):  # not acknowledged: sent again
                await candidate.send(message)
            await candidate.wait_for(
                lambda m: m["type"] == "doc.saved" and "d2" in m["refs"], timeout=WAIT_S
            )
            acknowledge(candidate)
            last = await asyncio.to_thread(lambda: Stage.objects.get(pk=stage.pk).last_seq)
            await coach.wait_seq(last)
            await candidate.close()
            await coach.close()

        asyncio.run(after_the_crash())
    assert unsaved == {}

    def code_of(events) -> str:
        merged = Doc()
        for event in events:
            if event["type"] == "doc.update":
                merged.apply_update(base64.b64decode(event["update"]))
        return str(merged.get("code", type=Text))

    expected = "".join(typed)
    assert code_of(coach.logged) == expected
    assert code_of(candidate.logged) == expected
    logged = StageEvent.objects.filter(stage=stage, type="doc.update").order_by("seq")
    assert code_of({"type": e.type, **e.payload} for e in logged) == expected
