// The live rooms, with the real useStageRoom hook and StageSocket over a fake WebSocket:
// a room survives a failed reload of its stage (notice, retries, recovery), and a room
// whose socket the server refused (4403) is inert.
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";

import { api, ApiError, NetworkError, type StageDetail } from "../api/client";
import { CoachRoomPage } from "../coach/CoachRoom";
import { STAGE_KINDS_FIXTURE } from "../lib/stageKindsFixture";
import { FakeSocket } from "../ws/fakeSocket";
import { StageRoomPage } from "./StageRoomPage";

// jsdom lays nothing out: the chat's scroll-to-bottom has nothing to do, and CodeMirror
// measures text ranges that have no size.
Element.prototype.scrollTo ??= () => undefined;
const noRect = { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0, toJSON: () => ({}) };
Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => noRect as DOMRect;

const me = { current: { id: 1, username: "grace", role: "candidate" } };
vi.mock("../auth/session", () => ({ useMe: () => me.current }));

/** The server accepts, answers the resync, and says who is here. */
function goLive(socket: FakeSocket, presence: { user: string; role: string }[] = []) {
  socket.open();
  socket.deliver({ type: "hello", presence });
  socket.deliver({ type: "resync.done", last_seq: 4 });
}

function stageFixture(extra: Record<string, unknown> = {}): StageDetail {
  return {
    id: 7,
    loop: 3,
    position: 2,
    kind: "coding",
    title: "Live coding",
    minutes: 45,
    status: "live",
    deadline: new Date(Date.now() + 30 * 60_000).toISOString(),
    time_remaining_ms: 30 * 60_000,
    coach_requested: true,
    coach: null,
    coached: true,
    candidate: "grace",
    server_time: new Date().toISOString(),
    rubric: null,
    questions: [
      {
        id: 11,
        slug: "token-batcher",
        version: 1,
        kind: "coding",
        title: "Token batcher",
        prompt: "Batch the tokens.",
        difficulty: "medium",
        languages: ["python"],
        starter: { python: "import sys\n" },
        time_limit_ms: 2000,
        memory_limit_mb: 256,
        checker: "exact",
        parts: [{ number: 1, title: "Fixed batches", prompt: "", samples: [] }],
        follow_ups: [{ id: 21, position: 1, prompt: "Now at most K.", trigger: "manual", pushed: false, coach_notes: "" }],
      },
    ],
    follow_ups: [],
    answers: [],
    ...extra,
  } as unknown as StageDetail;
}

const offline = () => new NetworkError(new TypeError("Failed to fetch"));

/** Let timers run for `ms` (fake time) and the promises and renders they start settle. */
const elapse = (ms = 0) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

function renderRoom(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/stages/:stageId" element={<StageRoomPage />} />
        <Route path="/coach/stages/:stageId" element={<CoachRoomPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

let stageApi: MockInstance<typeof api.stage>;

beforeEach(() => {
  vi.useFakeTimers();
  // No jitter: retries come exactly 1 s, 2 s, 4 s … after a failure; socket reconnects 0.5 s.
  vi.spyOn(Math, "random").mockReturnValue(1);
  FakeSocket.all = [];
  vi.stubGlobal("WebSocket", FakeSocket);
  me.current = { id: 1, username: "grace", role: "candidate" };
  stageApi = vi.spyOn(api, "stage").mockResolvedValue(stageFixture());
  vi.spyOn(api, "stageKinds").mockResolvedValue(STAGE_KINDS_FIXTURE);
  vi.spyOn(api, "stageDocuments").mockResolvedValue({ last_seq: 0, documents: [] });
  vi.spyOn(api, "stageSubmissions").mockResolvedValue([]);
  vi.spyOn(api, "notes").mockResolvedValue([]);
  vi.spyOn(api, "scorecard").mockRejectedValue(new ApiError(404, "Not found."));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Open the candidate's room and let its socket go live; the reload after the first resync
 * is the next call of `api.stage`. */
async function openCandidateRoom() {
  renderRoom("/stages/7");
  await elapse();
  expect(screen.getByTestId("stage-room")).toBeTruthy();
  goLive(FakeSocket.last, [{ user: "grace", role: "candidate" }]);
}

describe("a room whose stage fails to reload", () => {
  it("keeps the room, says the reload failed and is retried, retries with backoff and clears the notice once one succeeds", async () => {
    await openCandidateRoom();
    stageApi.mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline());
    stageApi.mockResolvedValueOnce(stageFixture({ coach: "coach-lin" }));

    await elapse(50); // the reload after the first resync: the network is down
    expect(stageApi).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("stage-room")).toBeTruthy();
    expect(screen.queryByTestId("problem")).toBeNull();
    const notice = screen.getByTestId("room-reload-failed");
    expect(notice.textContent).toContain("Couldn't refresh the stage: the server can't be reached.");
    expect(notice.textContent).toContain("Retrying in 1 s.");
    // The room is as it was: the editor, the stage, the live connection.
    expect(screen.getByText("Token batcher", { selector: "h2" })).toBeTruthy();
    expect(screen.getByTestId("connection").textContent).toBe("Live");
    expect(screen.getByText("waiting for a coach")).toBeTruthy();

    await elapse(1000); // first retry: still down; the next one waits longer
    expect(stageApi).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId("room-reload-failed").textContent).toContain("Retrying in 2 s.");
    await elapse(1000);
    expect(stageApi).toHaveBeenCalledTimes(3);

    await elapse(1000); // second retry: back up
    expect(stageApi).toHaveBeenCalledTimes(4);
    expect(screen.queryByTestId("room-reload-failed")).toBeNull();
    expect(screen.getByText("coach coach-lin")).toBeTruthy();
    await elapse(30_000);
    expect(stageApi).toHaveBeenCalledTimes(4); // and no more retries
  });

  it("retries at once when the browser is back online, and on Retry now", async () => {
    await openCandidateRoom();
    stageApi.mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline());
    await elapse(50);
    expect(stageApi).toHaveBeenCalledTimes(2);

    fireEvent.click(within(screen.getByTestId("room-reload-failed")).getByRole("button", { name: "Retry now" }));
    await elapse();
    expect(stageApi).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId("room-reload-failed")).toBeTruthy();

    await act(async () => {
      window.dispatchEvent(new Event("online"));
    });
    await elapse();
    expect(stageApi).toHaveBeenCalledTimes(4);
    expect(screen.queryByTestId("room-reload-failed")).toBeNull();
  });

  it("retries as soon as the socket is live again after a reconnect", async () => {
    await openCandidateRoom();
    stageApi.mockRejectedValueOnce(offline());
    await elapse(50);
    expect(screen.getByTestId("room-reload-failed")).toBeTruthy();

    FakeSocket.last.serverClose(1006);
    await elapse(500); // the socket's reconnect comes before the reload's 1 s retry
    expect(FakeSocket.all).toHaveLength(2);
    expect(stageApi).toHaveBeenCalledTimes(2);
    await act(async () => goLive(FakeSocket.last));
    await elapse();
    expect(stageApi).toHaveBeenCalledTimes(3);
    expect(screen.queryByTestId("room-reload-failed")).toBeNull();
  });

  it("does not retry by itself a reload the server refused, but says why and offers a retry", async () => {
    await openCandidateRoom();
    stageApi.mockRejectedValueOnce(new ApiError(403, "You do not have permission to perform this action."));
    await elapse(50);
    const notice = screen.getByTestId("room-reload-failed");
    expect(notice.textContent).toContain("You do not have permission to perform this action");
    expect(notice.textContent).not.toContain("Retrying");
    await elapse(60_000);
    expect(stageApi).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("stage-room")).toBeTruthy();
  });

  it("shows a full-page problem when the room cannot open at all, with a retry, and opens by itself once the server answers", async () => {
    stageApi.mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline());
    renderRoom("/stages/7");
    await elapse();
    expect(screen.getByTestId("problem").textContent).toContain("can't be reached");
    expect(screen.getByTestId("problem-retry").textContent).toContain("Trying again in 1 s.");

    fireEvent.click(screen.getByRole("button", { name: "Try again now" }));
    await elapse();
    expect(stageApi).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("problem-retry").textContent).toContain("Trying again in 2 s.");

    await elapse(2000);
    expect(stageApi).toHaveBeenCalledTimes(3);
    expect(screen.queryByTestId("problem")).toBeNull();
    expect(screen.getByTestId("stage-room")).toBeTruthy();
  });
});

describe("a room the server refused (4403)", () => {
  it("makes the coach's room inert: no clock controls, no pushes, no presence, read-only, and the notice", async () => {
    me.current = { id: 2, username: "coach-lin", role: "coach" };
    stageApi.mockResolvedValue(stageFixture({ coach: "coach-lin" }));
    renderRoom("/coach/stages/7");
    await elapse();
    goLive(FakeSocket.last, [
      { user: "grace", role: "candidate" },
      { user: "coach-lin", role: "coach" },
    ]);
    await elapse(50);
    // Live, everything is there (so what disappears below is the refusal's doing).
    expect(screen.getByRole("button", { name: "Pause clock" })).toBeTruthy();
    expect(screen.getByText("coach coach-lin · here")).toBeTruthy();
    expect(screen.getByText("grace is here")).toBeTruthy();
    expect(screen.getByText("Read-only · live")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Push" }) as HTMLButtonElement).disabled).toBe(false);

    await act(async () => FakeSocket.last.serverClose(4403));
    await elapse(60_000);

    const notice = screen.getByTestId("room-refused");
    expect(notice.textContent).toBe("You no longer have access to this stage. Go back to your dashboard.");
    expect(screen.getByTestId("connection").textContent).toBe("Not allowed");
    expect(screen.getByTestId("coach-room").className).toContain("room-inert");
    for (const name of ["Pause clock", "Resume clock", "Extend", "Finish stage", "Replay"]) {
      expect(screen.queryByRole("button", { name })).toBeNull();
    }
    expect((screen.getByRole("button", { name: "Push" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText("Free-text follow-up") as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.queryByText(/· here/)).toBeNull();
    expect(screen.queryByText(/is here|is away/)).toBeNull();
    expect(screen.getByTestId("read-only").textContent).toBe("Read-only · no access");
    expect(screen.queryByText("Read-only · live")).toBeNull();
    expect(screen.getByRole("timer").className).toContain("stale");
    expect(screen.getByTestId("stage-status").className).toContain("stale");
    // It stopped: no socket reopened, no reload of the stage tried.
    expect(FakeSocket.all).toHaveLength(1);
    expect(stageApi).toHaveBeenCalledTimes(2);
  });

  it("makes the candidate's room read-only and takes away Finish stage, and drops a failing reload's notice", async () => {
    await openCandidateRoom();
    stageApi.mockRejectedValue(offline());
    await elapse(50);
    expect(screen.getByRole("button", { name: "Finish stage" })).toBeTruthy();
    expect(screen.getByTestId("room-reload-failed")).toBeTruthy();
    expect(document.querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("true");

    await act(async () => FakeSocket.last.serverClose(4403));
    await elapse(60_000);

    expect(screen.getByTestId("room-refused")).toBeTruthy();
    expect(screen.queryByTestId("room-reload-failed")).toBeNull();
    expect(stageApi).toHaveBeenCalledTimes(2); // the retries stopped with the refusal
    expect(screen.queryByRole("button", { name: "Finish stage" })).toBeNull();
    expect(document.querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("false");
    expect((screen.getByRole("button", { name: /Run samples/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId("save-status")).toBeNull();
    expect(screen.getByTestId("read-only").textContent).toBe("Read-only · no access");
    expect(screen.queryByLabelText("Message")).toBeNull(); // the chat takes no more messages
  });
});
