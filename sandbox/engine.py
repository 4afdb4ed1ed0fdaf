"""Docker side of the sandbox: warm hardened containers, a fresh inner sandbox per job.

Two engines behind one interface (``Engine.run``), chosen by ``MOCKLOOP_SANDBOX_ENGINE``:

- ``two-layer`` (the default): a **warm slot** — one hardened container per limit
  profile (i.e. per language) and worker process, kept across jobs, whose PID 1 is
  ``sandbox/slot.py``. Each job runs ``sandbox/runner.py`` as PID 1 of a new bubblewrap
  sandbox inside it (fresh namespaces and tmpfs, the stricter inner seccomp filter), so
  nothing a job leaves reaches the next one. The container is recycled after
  ``MOCKLOOP_SANDBOX_RECYCLE_JOBS`` jobs, ``MOCKLOOP_SANDBOX_RECYCLE_S`` seconds, and
  whenever a job ended abnormally (the runner did not finish, a deadline, a protocol
  error); it is health-checked (a ping) before each job. Its extra settings: Docker's
  default seccomp profile plus what bubblewrap needs (``sandbox/outer_seccomp.py``) and
  unmasked ``/proc`` (``MaskedPaths``/``ReadonlyPaths`` empty), which bubblewrap needs
  to mount a new one. Threat model: ``docs/decisions.md``, "Two-layer sandbox".
- ``container``: the fallback, one fresh container per job (described below).

The container engine, in detail:

A job's container runs ``sandbox/runner.py`` as PID 1. The worker delivers the job as
one JSON line on the container's stdin through an *attach* connection and reads the
runner's frames back on the same connection (protocol in ``sandbox/runner.py``). No
host directory is mounted and nothing the job prints is logged on the host (log driver
``none``): the attach stream is the only way out, and its size is capped.

Hardening of every container (contract in DESIGN.md "Sandbox"): ``network_mode=none``,
read-only root, tmpfs ``/work`` and ``/tmp`` (``noexec`` except ``/work`` for compiled
languages, which must exec their binary), uid 10001, ``cap_drop=ALL``,
``no-new-privileges``, pids / memory (= memory+swap) / CPU limits, ``nofile`` and core
ulimits, an explicit environment (nothing of the worker's), labels for the orphan sweep,
``auto_remove`` (plus an explicit forced removal whenever the runner did not finish by
itself), and a host-side wall-clock deadline.

Warm pool: ``Engine`` keeps up to ``pool_size`` started, idle containers per limit
profile it has seen (the runner blocks reading its job). A container serves exactly one
job and is then removed; as soon as a job takes a container, its replacement starts in
the background, so a job that follows finds a warm one.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sandbox import outer_seccomp

LABEL = "mockloop.sandbox"
LABEL_OWNER = "mockloop.sandbox.owner"
LABEL_EXPIRES = "mockloop.sandbox.expires"
LABEL_JOB = "mockloop.sandbox.job"
LABEL_LANGUAGE = "mockloop.sandbox.language"
RUNNER_UID = "10001:10001"
CONTAINER_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",
}
COMPILED = {"cpp", "go"}  # compiled once per job: exec /work, compile limits
STDERR_CAP = 64 * 1024  # the runner's own diagnostics
MAX_JOB_SECONDS = 900  # sweep backstop for containers whose worker vanished
SLOT_ENTRYPOINT = ["/usr/bin/python3", "-I", "-B", "/opt/mockloop/slot.pyc"]
TWO_LAYER, CONTAINER_PER_JOB = "two-layer", "container"
HEALTH_CHECK_S = 3.0
# A warm container that ended a job cleanly this recently is used without a ping first
# (its PID 1 exits only after MOCKLOOP_IDLE_TIMEOUT_S idle, minutes): back-to-back jobs
# skip a round trip through dockerd. If it died anyway (killed from outside), the job
# finds it gone before anything ran and runs again in a fresh one.
SLOT_FRESH_S = 30.0


class SandboxUnavailable(RuntimeError):
    """Infrastructure failure (engine down, image missing): retry, do not blame the code."""


@dataclass(frozen=True)
class Profile:
    """Everything fixed at container creation; pooled containers are keyed by it."""

    language: str
    image: str
    memory_mb: int
    pids: int = 64
    nano_cpus: int = 1_000_000_000
    tmpfs_mb: int = 64


@dataclass
class Frame:
    header: dict
    payloads: list[bytes] = field(default_factory=list)


@dataclass
class RawRun:
    """What came back from one container."""

    frames: list[Frame] = field(default_factory=list)
    finished: bool = False  # the runner sent "done"
    error: str = ""  # the runner's or the engine's own failure
    host_killed: bool = False  # the host-side deadline fired
    slot_status: int | None = None  # two-layer: the inner sandbox's exit status
    runner_stderr: bytes = b""
    container_id: str = ""
    warm: bool = False
    acquire_ms: float = 0.0
    total_ms: float = 0.0


@dataclass
class Slot:
    """A warm container of the two-layer engine and the attach stream to its PID 1."""

    cid: str
    sock: Any
    profile: Profile
    born: float
    warm: bool  # started ahead of the job that takes it
    jobs: int = 0
    ended: float = 0.0  # when its last job ended cleanly (monotonic; 0: none yet)


def _owner() -> str:
    return f"{socket.gethostname()}/{os.getpid()}"


def _api(client):
    return getattr(client, "api", client)


def docker_client():
    try:
        import docker

        return docker.from_env(timeout=30)
    except Exception as exc:  # noqa: BLE001 - DockerException and friends
        raise SandboxUnavailable(f"Docker engine unavailable: {exc}") from exc


def ping(timeout: float = 3.0) -> bool:
    """Whether the Docker engine answers (a cheap call with a short timeout)."""
    try:
        import docker

        client = docker.from_env(timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # noqa: BLE001 - any failure means "not now"
        return False


class Engine:
    def __init__(
        self,
        client=None,
        *,
        pool_size: int | None = None,
        idle_timeout_s: int = 600,
        mode: str | None = None,
        recycle_jobs: int | None = None,
        recycle_s: float | None = None,
    ) -> None:
        self._client = client
        self._pid = os.getpid()
        self.created_pid = os.getpid()
        self.pool_size = (
            int(os.environ.get("MOCKLOOP_SANDBOX_POOL", "1")) if pool_size is None else pool_size
        )
        self.idle_timeout_s = idle_timeout_s
        self.mode = mode or os.environ.get("MOCKLOOP_SANDBOX_ENGINE", TWO_LAYER)
        if self.mode not in (TWO_LAYER, CONTAINER_PER_JOB):
            raise ValueError(f"unknown sandbox engine {self.mode!r}")
        # two-layer: a warm container serves at most this many jobs, for this long
        self.recycle_jobs = (
            int(os.environ.get("MOCKLOOP_SANDBOX_RECYCLE_JOBS", "200"))
            if recycle_jobs is None
            else recycle_jobs
        )
        self.recycle_s = (
            float(os.environ.get("MOCKLOOP_SANDBOX_RECYCLE_S", "900"))
            if recycle_s is None
            else recycle_s
        )
        self._slots: dict[Profile, deque[Slot]] = {}
        self._slot_fills: dict[Profile, Future] = {}  # a warm container being started
        self.recycled = 0  # warm containers retired (job count, age, abnormal end, health)
        # optional: nest every container's cgroup under this one (cgroupfs driver: a path
        # such as /mockloop-sandbox; systemd driver: a slice) to cap or account all
        # sandboxes together
        self.cgroup_parent = os.environ.get("MOCKLOOP_SANDBOX_CGROUP_PARENT") or None
        # Python tests fork a pre-warmed interpreter in the container (sandbox/zygote.py)
        # instead of exec'ing one per test; MOCKLOOP_SANDBOX_ZYGOTE=0 turns it off
        self.zygote = os.environ.get("MOCKLOOP_SANDBOX_ZYGOTE", "1") != "0"
        # JavaScript tests start node from the image's start-up snapshot (see
        # sandbox/wrappers/snapshot_node.js); MOCKLOOP_SANDBOX_NODE_SNAPSHOT=0 turns it off
        self.node_snapshot = os.environ.get("MOCKLOOP_SANDBOX_NODE_SNAPSHOT", "1") != "0"
        # JavaScript tests of a submission share one warm node, each in a fresh vm context
        # (sandbox/wrappers/warm_node.js); MOCKLOOP_SANDBOX_NODE_WARM=0: a node per test
        self.node_warm = os.environ.get("MOCKLOOP_SANDBOX_NODE_WARM", "1") != "0"
        self._lock = threading.Lock()
        self._pool: dict[Profile, deque[tuple[str, float]]] = {}
        self._wanted: dict[Profile, float] = {}
        self._live: set[str] = set()
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-bg")
        self._filling = False
        self._closed = False

    # --------------------------------------------------------------------- plumbing

    @property
    def api(self):
        if self._client is None or self._pid != os.getpid():
            self._client, self._pid = docker_client(), os.getpid()
        return _api(self._client)

    def live_containers(self) -> set[str]:
        """Ids this engine created and has not removed yet (pool and running jobs)."""
        with self._lock:
            return set(self._live)

    def _environment(self, profile: Profile) -> dict[str, str]:
        env = {**CONTAINER_ENV, "MOCKLOOP_IDLE_TIMEOUT_S": str(self.idle_timeout_s)}
        if profile.language == "python" and self.zygote:
            env["MOCKLOOP_PREFORK"] = "python"  # the runner starts sandbox/zygote.py
        if profile.language == "javascript" and not self.node_snapshot:
            env["MOCKLOOP_NODE_SNAPSHOT"] = "0"  # the runner starts plain node
        if profile.language == "javascript" and not self.node_warm:
            env["MOCKLOOP_NODE_WARM"] = "0"  # a node per test
        return env

    def _create(self, profile: Profile, job_id: str, *, slot: bool = False) -> str:
        """Create and start a container: a job's own, or (``slot``) a warm slot."""
        import docker.errors
        from docker.types import LogConfig, Ulimit

        api = self.api
        work_opts = f"rw,nosuid,nodev,size={profile.tmpfs_mb}m,uid=10001,gid=10001,mode=0700"
        # Docker's tmpfs default is noexec; only compiled languages get an exec /work
        work_opts += ",exec" if profile.language in COMPILED else ",noexec"
        expires = int(time.time()) + self.idle_timeout_s + MAX_JOB_SECONDS
        security_opt = ["no-new-privileges:true"]
        if slot:
            expires += int(self.recycle_s)
            security_opt.append(f"seccomp={outer_seccomp.profile_json()}")
        host_config = api.create_host_config(
            network_mode="none",
            read_only=True,
            tmpfs={
                "/work": work_opts,
                "/tmp": f"rw,nosuid,nodev,noexec,size={profile.tmpfs_mb}m,mode=1777",
            },
            cap_drop=["ALL"],
            security_opt=security_opt,
            pids_limit=profile.pids,
            mem_limit=f"{profile.memory_mb}m",
            memswap_limit=f"{profile.memory_mb}m",
            nano_cpus=profile.nano_cpus,
            shm_size="8m",
            ulimits=[
                Ulimit(name="nofile", soft=1024, hard=1024),
                Ulimit(name="core", soft=0, hard=0),
            ],
            log_config=LogConfig(type=LogConfig.types.NONE),
            oom_score_adj=500,
            auto_remove=True,
            init=False,
            cgroup_parent=self.cgroup_parent,
        )
        if slot:
            # bubblewrap mounts a new /proc for each sandbox, which the kernel allows only
            # where /proc is fully visible (the CLI's systempaths=unconfined; refused by
            # the API, so through HostConfig); each sandbox masks them again itself
            host_config["MaskedPaths"] = []
            host_config["ReadonlyPaths"] = []
        try:
            created = api.create_container(
                profile.image,
                hostname="sandbox",
                user=RUNNER_UID,
                stdin_open=True,
                tty=False,
                network_disabled=True,
                environment=self._environment(profile),
                labels={
                    LABEL: "1",
                    LABEL_OWNER: _owner(),
                    LABEL_EXPIRES: str(expires),
                    LABEL_JOB: job_id,
                    LABEL_LANGUAGE: profile.language,
                },
                working_dir="/work",
                entrypoint=SLOT_ENTRYPOINT if slot else None,
                host_config=host_config,
                use_config_proxy=False,
            )
        except docker.errors.ImageNotFound as exc:
            raise SandboxUnavailable(
                f"runner image {profile.image} is missing; run "
                "`python -m sandbox.images.build ensure`"
            ) from exc
        except docker.errors.DockerException as exc:
            raise SandboxUnavailable(f"cannot create a sandbox container: {exc}") from exc
        cid = created["Id"]
        with self._lock:
            self._live.add(cid)
        try:
            api.start(cid)
        except docker.errors.DockerException as exc:
            self._remove(cid)
            raise SandboxUnavailable(f"cannot start a sandbox container: {exc}") from exc
        return cid

    def _remove(self, cid: str) -> None:
        import docker.errors

        try:
            self.api.remove_container(cid, force=True)
        except docker.errors.NotFound:
            pass
        except docker.errors.APIError:
            # e.g. 409: auto_remove is already removing it (a killed warm container);
            # wait a moment for that, so that "removed" means gone
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    self.api.inspect_container(cid)
                except docker.errors.DockerException:
                    break
                time.sleep(0.05)
        with self._lock:
            self._live.discard(cid)

    def _kill(self, cid: str) -> None:
        import docker.errors

        with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
            self.api.kill(cid)

    # --------------------------------------------------------------------- pool

    def _take(self, profile: Profile) -> str | None:
        now = time.monotonic()
        with self._lock:
            queue = self._pool.get(profile)
            while queue:
                cid, born = queue.popleft()
                if now - born < self.idle_timeout_s - 30:
                    return cid
                self._background.submit(self._remove, cid)
        return None

    def prewarm(self, profile: Profile, *, wait: bool = False) -> None:
        """Ask for ``pool_size`` idle containers of ``profile`` (filled in the background)."""
        if self.pool_size <= 0:
            return
        if self.mode == TWO_LAYER:
            future = self._schedule_slot(profile)
            if wait and future is not None:
                future.result()
            return
        with self._lock:
            self._wanted[profile] = time.monotonic()
        future = self._schedule_fill()
        if wait and future is not None:
            future.result()

    def _schedule_fill(self):
        with self._lock:
            if self._filling or self._closed:
                return None
            self._filling = True
        return self._background.submit(self._fill)

    def _fill(self) -> None:
        try:
            while True:
                with self._lock:
                    if self._closed:
                        return
                    now = time.monotonic()
                    todo = None
                    for profile, last in list(self._wanted.items()):
                        if now - last > self.idle_timeout_s:
                            del self._wanted[profile]
                            continue
                        if len(self._pool.setdefault(profile, deque())) < self.pool_size:
                            todo = profile
                            break
                    if todo is None:
                        return
                try:
                    cid = self._create(todo, "pool")
                except SandboxUnavailable:
                    return
                with self._lock:
                    self._pool.setdefault(todo, deque()).append((cid, time.monotonic()))
        finally:
            with self._lock:
                self._filling = False

    def close(self) -> None:
        """Remove every container this engine still holds (idle pool included)."""
        with self._lock:
            self._closed = True
            pooled = [cid for queue in self._pool.values() for cid, _ in queue]
            self._pool.clear()
            slots = [slot for queue in self._slots.values() for slot in queue]
            self._slots.clear()
        for slot in slots:
            with contextlib.suppress(OSError):
                slot.sock.close()
            pooled.append(slot.cid)
        for cid in pooled:
            self._remove(cid)
        self._background.shutdown(wait=True)
        for cid in self.live_containers():
            self._remove(cid)

    def drain(self) -> None:
        """Wait until background removals and refills queued so far have run."""
        if not self._closed:
            self._background.submit(lambda: None).result()

    # --------------------------------------------------------------------- jobs

    def run(
        self,
        profile: Profile,
        job: dict,
        *,
        deadline_s: float,
        max_output_bytes: int,
        job_id: str | None = None,
        on_frame=None,
    ) -> RawRun:
        """Run one job in a fresh container (or a fresh inner sandbox of a warm one);
        never raises for what the code does."""
        if self.mode == TWO_LAYER:
            return self._run_in_slot(
                profile,
                job,
                deadline_s=deadline_s,
                max_output_bytes=max_output_bytes,
                on_frame=on_frame,
            )
        started = time.monotonic()
        raw = RawRun()
        job_id = job_id or uuid.uuid4().hex
        line = json.dumps(job, separators=(",", ":")).encode() + b"\n"
        cid = None
        clean = False
        try:
            cid, sock = self._acquire(profile, job_id, raw)
            raw.acquire_ms = (time.monotonic() - started) * 1000
            self._replace(profile)  # start the next job's container while this one runs
            try:
                sock.settimeout(max(1.0, deadline_s))
                sock.sendall(line)
                clean = self._read(sock, raw, started + deadline_s, max_output_bytes, on_frame)
            finally:
                with contextlib.suppress(OSError):
                    sock.close()
        finally:
            if cid is not None:
                if clean:
                    # the runner finished and exited (the stream ended): Docker's
                    # auto_remove is removing the container; one API call less per job
                    with self._lock:
                        self._live.discard(cid)
                else:
                    self._kill(cid)  # stop it now; removal can happen in the background
                    self._background.submit(self._remove, cid)
            self._replace(profile)
            raw.total_ms = (time.monotonic() - started) * 1000
        return raw

    # --------------------------------------------------------------------- two-layer

    def _run_in_slot(
        self, profile: Profile, job: dict, *, deadline_s: float, max_output_bytes: int, on_frame
    ) -> RawRun:
        started = time.monotonic()
        line = json.dumps(job, separators=(",", ":")).encode() + b"\n"
        while True:
            raw = RawRun()
            slot, checked = self._take_slot(profile)
            raw.acquire_ms = (time.monotonic() - started) * 1000
            raw.container_id, raw.warm = slot.cid, slot.warm
            clean = False
            try:
                slot.sock.settimeout(max(1.0, deadline_s))
                slot.sock.sendall(line)
                clean = self._read(
                    slot.sock,
                    raw,
                    started + deadline_s,
                    max_output_bytes,
                    on_frame,
                    until="slot-end",
                )
            except OSError as exc:
                raw.error = raw.error or f"lost the sandbox connection: {exc}"
            finally:
                slot.jobs += 1
                slot.warm = True
                if clean:
                    slot.ended = time.monotonic()
                self._release(slot, clean)
                raw.total_ms = (time.monotonic() - started) * 1000
            if clean or checked or raw.frames or raw.host_killed or raw.slot_status is not None:
                return raw
            # an unpinged warm container that was gone before anything came back (no
            # frame, not even the slot's end: the runner writes its frames together, so
            # one that failed early may have sent none): nothing of the job ran; once
            # more, in a container that answers

    def _take_slot(self, profile: Profile) -> tuple[Slot, bool]:
        """An idle, healthy warm container for ``profile`` (a new one if there is none),
        and whether it was started or pinged just now (else: it ended a job cleanly
        under ``SLOT_FRESH_S`` ago, and is trusted to be alive)."""
        while True:
            with self._lock:
                queue = self._slots.get(profile)
                slot = queue.popleft() if queue else None
                filling = self._slot_fills.get(profile)
            if slot is None and filling is not None and not filling.done():
                # its replacement is starting (a recycled one's): wait for it rather
                # than start a second
                with contextlib.suppress(Exception):
                    filling.result(timeout=30)
                continue
            if slot is None:
                return self._new_slot(profile, warm=False), True
            now = time.monotonic()
            if now - slot.born < self.recycle_s:
                if slot.ended and now - slot.ended < SLOT_FRESH_S:
                    return slot, False
                if self._healthy(slot):
                    return slot, True
            self._retire(slot)

    def _new_slot(self, profile: Profile, *, warm: bool) -> Slot:
        cid = self._create(profile, "slot", slot=True)
        try:
            sock = self._attach(cid)
        except BaseException:
            self._kill(cid)
            self._background.submit(self._remove, cid)
            raise
        return Slot(cid=cid, sock=sock, profile=profile, born=time.monotonic(), warm=warm)

    def _healthy(self, slot: Slot) -> bool:
        """Does the slot's PID 1 answer a ping (it exits when idle too long)?"""
        try:
            slot.sock.settimeout(HEALTH_CHECK_S)
            slot.sock.sendall(b'{"type":"ping"}\n')
            stream = _Demux(slot.sock, time.monotonic() + HEALTH_CHECK_S)
            reply = b""
            while not reply.endswith(b"\n"):
                chunk = stream.next()
                if chunk is None:
                    return False
                if chunk[0] == 1:
                    reply += chunk[1]
            return reply == b'{"type":"pong"}\n' and not stream.pending
        except (OSError, TimeoutError):
            return False

    def _release(self, slot: Slot, clean: bool) -> None:
        """Back to the idle pool, or retired (and replaced in the background)."""
        keep = (
            clean
            and slot.jobs < self.recycle_jobs
            and time.monotonic() - slot.born < self.recycle_s
        )
        with self._lock:
            queue = self._slots.setdefault(slot.profile, deque())
            if keep and not self._closed and len(queue) < self.pool_size:
                queue.append(slot)
                return
        self._retire(slot)
        if self.pool_size > 0:
            self._schedule_slot(slot.profile)

    def _retire(self, slot: Slot) -> None:
        with contextlib.suppress(OSError):
            slot.sock.close()
        self._kill(slot.cid)  # removed automatically (auto_remove); and explicitly, later
        with self._lock:
            self.recycled += 1
            closed = self._closed
        if closed:
            self._remove(slot.cid)
        else:
            self._background.submit(self._remove, slot.cid)

    def _schedule_slot(self, profile: Profile):
        with self._lock:
            if self._closed:
                return None
            future = self._background.submit(self._fill_slot, profile)
            self._slot_fills[profile] = future
        return future

    def _fill_slot(self, profile: Profile) -> None:
        """Start a warm container for ``profile`` unless enough are idle already."""
        with self._lock:
            if self._closed or len(self._slots.get(profile, ())) >= self.pool_size:
                return
        try:
            slot = self._new_slot(profile, warm=True)
        except SandboxUnavailable:
            return
        with self._lock:
            queue = self._slots.setdefault(profile, deque())
            if not self._closed and len(queue) < self.pool_size:
                queue.append(slot)
                return
        self._retire(slot)

    def _replace(self, profile: Profile) -> None:
        """Keep the pool of this profile full (a no-op while a refill is running)."""
        if self.pool_size > 0:
            with self._lock:
                self._wanted[profile] = time.monotonic()
            self._schedule_fill()

    def _acquire(self, profile: Profile, job_id: str, raw: RawRun):
        """A started container for this job, attached: a warm one if possible."""
        cid = self._take(profile)
        if cid is not None:
            try:
                raw.container_id, raw.warm = cid, True
                return cid, self._attach(cid)
            except SandboxUnavailable:  # the idle container is gone (idle timeout)
                self._background.submit(self._remove, cid)
        cid = self._create(profile, job_id)
        raw.container_id, raw.warm = cid, False
        try:
            return cid, self._attach(cid)
        except BaseException:
            self._kill(cid)
            self._background.submit(self._remove, cid)
            raise

    def _attach(self, cid: str):
        import docker.errors

        try:
            sock = self.api.attach_socket(
                cid, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
        except docker.errors.DockerException as exc:
            raise SandboxUnavailable(f"cannot attach to the sandbox container: {exc}") from exc
        return getattr(sock, "_sock", sock)

    def _read(
        self, sock, raw: RawRun, deadline: float, cap: int, on_frame, until: str | None = None
    ) -> bool:
        """Demultiplex the attach stream and parse frames; True if the runner finished.

        ``until``: the frame that ends the job on a stream that stays open (two-layer:
        the slot's ``slot-end``); clean only if the runner finished, the sandbox exited
        0 and nothing else came."""
        buf = bytearray()
        header: dict | None = None
        sizes: list[int] = []
        total = 0
        stream = _Demux(sock, deadline)
        while True:
            try:
                chunk = stream.next()
            except TimeoutError:
                raw.host_killed = True
                raw.error = "the job exceeded its overall deadline"
                return False
            except OSError as exc:
                raw.error = f"lost the sandbox connection: {exc}"
                return False
            if chunk is None:
                break
            kind, data = chunk
            if kind == 2:
                if len(raw.runner_stderr) < STDERR_CAP:
                    raw.runner_stderr += data[: STDERR_CAP - len(raw.runner_stderr)]
                continue
            total += len(data)
            if total > cap:
                raw.error = f"the runner sent more than {cap} bytes"
                return False
            buf += data
            while True:
                if header is None:
                    nl = buf.find(b"\n")
                    if nl < 0:
                        break
                    try:
                        header = json.loads(bytes(buf[:nl]))
                    except ValueError:
                        raw.error = f"bad frame from the runner: {bytes(buf[:80])!r}"
                        return False
                    del buf[: nl + 1]
                    sizes = [int(v) for k, v in header.items() if k.endswith("_bytes")]
                if len(buf) < sum(sizes):
                    break
                payloads, offset = [], 0
                for size in sizes:
                    payloads.append(bytes(buf[offset : offset + size]))
                    offset += size
                del buf[:offset]
                frame, header = Frame(header, payloads), None
                kind_ = frame.header.get("type")
                if until is not None and kind_ == until:
                    raw.slot_status = frame.header.get("status")
                    return raw.finished and raw.slot_status == 0 and not buf and not stream.pending
                if kind_ == "error":
                    raw.error = str(frame.header.get("message", "runner error"))
                elif kind_ == "done":
                    raw.finished = True
                else:
                    raw.frames.append(frame)
                    if on_frame is not None:
                        on_frame(frame)
        if not raw.finished and not raw.error:
            raw.error = "the runner stopped without finishing" + (
                f": {raw.runner_stderr[-2000:].decode(errors='replace')}"
                if raw.runner_stderr
                else ""
            )
        return raw.finished


class _Demux:
    """Reads Docker's multiplexed attach stream: 8-byte header (stream, size) + data.

    Buffered: one ``recv`` takes whatever has arrived (up to 256 KiB), often several
    frames of the runner's at once, rather than two calls (header, then data) per frame.
    A job's stream ends with the slot's ``slot-end`` line and nothing follows it until
    the next job is sent, so nothing of the next job is read into this one's buffer;
    ``pending`` says whether anything did come after what was consumed."""

    CHUNK = 1 << 18

    def __init__(self, sock, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline
        self.buf = bytearray()

    @property
    def pending(self) -> bool:
        return bool(self.buf)

    def _fill(self, n: int) -> bool:
        """At least ``n`` bytes buffered; False at the end of the stream with none."""
        while len(self.buf) < n:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self.sock.settimeout(remaining)
            chunk = self.sock.recv(max(self.CHUNK, n - len(self.buf)))  # timeout: TimeoutError
            if not chunk:
                if self.buf:
                    raise OSError("truncated attach stream")
                return False
            self.buf += chunk
        return True

    def next(self) -> tuple[int, bytes] | None:
        if not self._fill(8):
            return None
        size = int.from_bytes(self.buf[4:8], "big")
        self._fill(8 + size)
        kind, data = self.buf[0], bytes(self.buf[8 : 8 + size])
        del self.buf[: 8 + size]
        return kind, data


# ------------------------------------------------------------------------------- sweep


def sweep_orphans(client=None, *, everything: bool = False, keep: set[str] | None = None):
    """Remove sandbox containers nobody will use: their worker is gone or they expired.

    Run at worker start. A container is an orphan if its owner (``host/pid`` label) is
    this host and that process is dead, or if its ``expires`` label has passed (covers
    workers on other hosts that vanished). ``everything=True`` removes all of them
    (tests, ``manage.py`` ops). Returns the removed container ids.
    """
    import docker.errors

    api = _api(client or docker_client())
    keep = keep or set()
    host = socket.gethostname()
    now = time.time()
    removed = []
    for info in api.containers(all=True, filters={"label": LABEL}):
        cid, labels = info["Id"], info.get("Labels") or {}
        if cid in keep:
            continue
        orphan = everything
        owner_host, _, owner_pid = labels.get(LABEL_OWNER, "/").partition("/")
        if owner_host == host and owner_pid.isdigit():
            pid = int(owner_pid)
            if pid != os.getpid() and not _pid_alive(pid):
                orphan = True
        with contextlib.suppress(ValueError):
            if float(labels.get(LABEL_EXPIRES, "inf")) < now:
                orphan = True
        if orphan:
            with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
                api.remove_container(cid, force=True)
                removed.append(cid)
    return removed


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a killed worker's processes can linger as zombies until an init reaps them
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True


_default: Engine | None = None
_default_lock = threading.Lock()


def get_engine() -> Engine:
    """The process-wide engine (a new one after fork, e.g. in a prefork Celery child)."""
    global _default
    with _default_lock:
        if _default is None or _default.created_pid != os.getpid():
            _default = Engine()
            atexit.register(_default.close)
        return _default
