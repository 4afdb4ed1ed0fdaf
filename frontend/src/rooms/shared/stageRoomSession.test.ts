// The room session on its own, without React: how it opens, follows the socket, reloads
// the stage, backs off, and stops — with the real StageSocket over a fake WebSocket.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";

import { api, ApiError, NetworkError, type StageDetail } from "../../api/client";
import { FakeSocket } from "../../ws/fakeSocket";
import { StageRoomSession, type StageRoomState } from "./stageRoomSession";

function stageFixture(extra: Record<string, unknown> = {}): StageDetail {
  return {
    id: 7,
    loop: 3,
    kind: "coding",
    title: "Live coding",
    status: "live",
    deadline: new Date(Date.now() + 30 * 60_000).toISOString(),
    time_remaining_ms: 30 * 60_000,
    candidate: "grace",
    coach: null,
    questions: [],
    follow_ups: [],
    answers: [],
    ...extra,
  } as unknown as StageDetail;
}

const offline = () => new NetworkError(new TypeError("Failed to fetch"));
const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

let stageApi: MockInstance<typeof api.stage>;
let session: StageRoomSession;
let seen: StageRoomState[];

function openSession(): StageRoomSession {
  session = new StageRoomSession({ stageId: 7, editable: true });
  seen = [];
  session.subscribe(() => seen.push(session.getSnapshot()));
  session.open();
  return session;
}

const room = () => session.getSnapshot().room!;

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, "random").mockReturnValue(1); // no jitter: retries after exactly 1 s, 2 s …
  FakeSocket.all = [];
  vi.stubGlobal("WebSocket", FakeSocket);
  stageApi = vi.spyOn(api, "stage").mockResolvedValue(stageFixture());
  vi.spyOn(api, "stageDocuments").mockResolvedValue({ last_seq: 2, documents: [] });
  vi.spyOn(api, "stageEvents").mockResolvedValue([
    { seq: 1, type: "chat", text: "hello" },
    { seq: 2, type: "follow_up", text: "Now at most K." },
  ] as never);
  vi.spyOn(api, "stageSubmissions").mockResolvedValue([]);
});

afterEach(() => {
  session?.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a stage room session", () => {
  it("opens from REST (stage, documents, history without edits) and then resyncs the socket from last_seq", async () => {
    openSession();
    expect(session.getSnapshot().room).toBeNull();
    await settle();
    expect(api.stageEvents).toHaveBeenCalledWith(7, { after: 0, limit: 5000, exclude: "doc.update,presence,submission.status" });
    expect(room().stage.title).toBe("Live coding");
    expect(room().events.map((e) => e.seq)).toEqual([1, 2]);
    expect(room().connection).toBe("connecting");
    expect(room().synced).toBe(false);

    const socket = FakeSocket.last;
    socket.open();
    expect(socket.sent).toEqual([{ type: "resync", after: 2 }]);
    socket.deliver({ type: "hello", presence: [{ user: "grace", role: "candidate" }], timer: { remaining_ms: 60_000, paused: true, status: "live" } });
    socket.deliver({ type: "resync.done", last_seq: 2 });
    expect(room().connection).toBe("live");
    expect(room().synced).toBe(true);
    expect(room().syncedSeq).toBe(2);
    expect(room().presence).toEqual([{ user: "grace", role: "candidate" }]);
    expect(room().timer).toMatchObject({ remainingMs: 60_000, paused: true });

    await settle(50); // the stage is fetched again once the history is in
    expect(stageApi).toHaveBeenCalledTimes(2);
  });

  it("folds live events in (batched), follows presence and the clock, and reloads the stage after a follow-up", async () => {
    openSession();
    await settle();
    const socket = FakeSocket.last;
    socket.open();
    socket.deliver({ type: "resync.done", last_seq: 2 });
    await settle(50);
    expect(stageApi).toHaveBeenCalledTimes(2);

    const before = seen.length;
    socket.deliver({ seq: 3, type: "chat", text: "one" });
    socket.deliver({ seq: 4, type: "chat", text: "two" });
    await settle();
    expect(room().events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(seen.length).toBe(before + 1); // both chat lines in one change

    socket.deliver({ seq: 5, type: "presence", user: "coach-lin", role: "coach", state: "joined" });
    expect(room().presence).toEqual([{ user: "coach-lin", role: "coach" }]);
    socket.deliver({ seq: 6, type: "presence", user: "coach-lin", role: "coach", state: "left" });
    expect(room().presence).toEqual([]);
    socket.deliver({ seq: 7, type: "timer", remaining_ms: 5000, paused: false, status: "live" });
    expect(room().timer.remainingMs).toBe(5000);

    socket.deliver({ seq: 8, type: "follow_up", text: "And pre-emption?" });
    socket.deliver({ seq: 9, type: "stage.claimed", coach: "coach-lin" });
    await settle(50);
    expect(stageApi).toHaveBeenCalledTimes(3); // one reload for the burst
    socket.deliver({ type: "error", detail: "Too fast." });
    expect(room().lastError).toBe("Too fast.");
  });

  it("keeps the stage when a reload fails, retries with backoff, and takes only the newest reload's answer", async () => {
    openSession();
    await settle();
    stageApi.mockRejectedValueOnce(offline()).mockResolvedValueOnce(stageFixture({ coach: "coach-lin" }));
    await room().reloadStage();
    expect(room().reloadProblem?.failures).toBe(1);
    expect(room().stage.coach).toBeNull();
    await settle(1000);
    expect(room().reloadProblem).toBeNull();
    expect(room().stage.coach).toBe("coach-lin");

    let answerSlow: (s: StageDetail) => void = () => undefined;
    stageApi.mockImplementationOnce(() => new Promise((resolve) => (answerSlow = resolve)));
    stageApi.mockResolvedValueOnce(stageFixture({ title: "newest" }));
    const slow = room().reloadStage();
    await room().reloadStage();
    answerSlow(stageFixture({ title: "stale" }));
    await slow;
    expect(room().stage.title).toBe("newest");
  });

  it("goes inert when the server refuses the socket: no reconnect, no presence, no reload retries", async () => {
    openSession();
    await settle();
    const socket = FakeSocket.last;
    socket.open();
    socket.deliver({ type: "hello", presence: [{ user: "grace", role: "candidate" }] });
    socket.deliver({ type: "resync.done", last_seq: 2 });
    stageApi.mockRejectedValue(offline());
    await settle(50);
    expect(room().reloadProblem).not.toBeNull();

    socket.serverClose(4403);
    expect(room().refused).toBe(true);
    expect(room().presence).toEqual([]);
    expect(room().reloadProblem).toBeNull();
    const calls = stageApi.mock.calls.length;
    await settle(60_000);
    await room().reloadStage();
    expect(stageApi).toHaveBeenCalledTimes(calls);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it("retries a failed opening by itself with backoff, at once on retry(), and when the browser is back online", async () => {
    stageApi.mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline());
    openSession();
    await settle();
    expect(session.getSnapshot().problem).toMatchObject({ failures: 1 });
    await settle(1000);
    expect(stageApi).toHaveBeenCalledTimes(2);
    expect(session.getSnapshot().problem).toMatchObject({ failures: 2 });

    session.getSnapshot().retry();
    expect(session.getSnapshot().problem?.retryAt).toBe(Date.now()); // on screen, being retried
    await settle();
    expect(stageApi).toHaveBeenCalledTimes(3);

    window.dispatchEvent(new Event("online"));
    await settle();
    expect(stageApi).toHaveBeenCalledTimes(4);
    expect(session.getSnapshot().problem).toBeNull();
    expect(session.getSnapshot().room).not.toBeNull();
  });

  it("does not retry an opening the server refused, until asked", async () => {
    stageApi.mockRejectedValueOnce(new ApiError(404, "Not found."));
    openSession();
    await settle(60_000);
    expect(stageApi).toHaveBeenCalledTimes(1);
    expect(session.getSnapshot().problem?.retryAt).toBeNull();
    session.getSnapshot().retry();
    await settle();
    expect(session.getSnapshot().room).not.toBeNull();
  });

  it("closes its socket and documents on close, ignores what the old socket says, and opens afresh (React's strict mode)", async () => {
    openSession();
    await settle();
    const first = FakeSocket.last;
    first.open();
    session.close();
    expect(session.getSnapshot().room).toBeNull();
    expect(first.readyState).toBe(3);
    first.deliver({ seq: 3, type: "chat", text: "late" });

    session.open();
    await settle();
    expect(FakeSocket.all).toHaveLength(2);
    expect(room().events.map((e) => e.seq)).toEqual([1, 2]);
    expect(room().socket).not.toBeNull();
  });

  it("warns before the page unloads while edits are not yet saved", async () => {
    openSession();
    await settle();
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    vi.spyOn(room().docs, "pending", "get").mockReturnValue(1);
    const unsaved = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(unsaved);
    expect(unsaved.defaultPrevented).toBe(true);
  });
});
