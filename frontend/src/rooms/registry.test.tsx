// Stage kinds reach the rooms through the server's spec and the room registry: each kind
// renders the room its spec names, and a kind (or room) this build does not know says so
// instead of falling back to some other room.
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { api, type RoomName, type StageDetail } from "../api/client";
import { StageKinds, stageKindsStore } from "../lib/stageKinds";
import { ReplayPage } from "../replay/ReplayPage";
import { STAGE_KINDS_FIXTURE } from "../lib/stageKindsFixture";
import { CodingWorkspace } from "./coding/CodingWorkspace";
import { DiscussionWorkspace } from "./discussion/DiscussionRoom";
import { ROOMS, roomFor } from "./registry";
import type { Room } from "./shared/useStageRoom";
import { StageRoomPage } from "./StageRoomPage";

Element.prototype.scrollTo ??= () => undefined;

const current: { kind: string } = { kind: "values" };

vi.mock("../auth/session", () => ({ useMe: () => ({ username: "cand", role: "candidate" }) }));
vi.mock("./shared/useStageRoom", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./shared/useStageRoom")>()),
  useStageRoom: () => ({
    room: {
      stage: {
        id: 1,
        loop: 2,
        kind: current.kind,
        title: "Tell me about a project",
        status: "live",
        candidate: "cand",
        minutes: 45,
        questions: [{ id: 5, kind: "discussion", title: "A project you led", prompt: "Walk me through it." }],
        follow_ups: [],
        answers: [],
      },
      socket: null,
      connection: "live",
      refused: false,
      reloadProblem: null,
      events: [],
      presence: [],
      timer: { remainingMs: 60_000, paused: false, at: 0, status: "live" },
      lastError: null,
      syncedSeq: 0,
    } as unknown as Room,
    problem: null,
    retry: () => undefined,
  }),
}));

const kinds = new StageKinds(STAGE_KINDS_FIXTURE);

function renderRoom(kind: string) {
  current.kind = kind;
  render(
    <MemoryRouter initialEntries={["/stages/1"]}>
      <Routes>
        <Route path="/stages/:stageId" element={<StageRoomPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(async () => {
  vi.spyOn(api, "stageKinds").mockResolvedValue(STAGE_KINDS_FIXTURE);
  await stageKindsStore.load();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the room registry", () => {
  it("maps every served kind to the room its spec names (the challenge to the coding room)", () => {
    for (const spec of STAGE_KINDS_FIXTURE) expect(roomFor(kinds, spec.kind)?.view).toBe(ROOMS[spec.room as RoomName]);
    expect(roomFor(kinds, "challenge")?.view.Workspace).toBe(CodingWorkspace);
    expect(roomFor(kinds, "deep_dive")?.view.Workspace).toBe(DiscussionWorkspace);
    expect(roomFor(kinds, "deep_dive")?.view.sideChat).toBe(true);
    expect(roomFor(kinds, "review")?.view.sideChat).toBe(false);
  });

  it("knows no room for a kind the server does not list, nor for a room this build lacks", () => {
    expect(roomFor(kinds, "pair_programming")).toBeUndefined();
    const newer = new StageKinds([
      ...STAGE_KINDS_FIXTURE,
      { kind: "jam", label: "Whiteboard jam", live: true, question_kinds: ["design"], room: "jam" },
    ]);
    expect(newer.label("jam")).toBe("Whiteboard jam");
    expect(roomFor(newer, "jam")).toBeUndefined();
    expect(roomFor(newer, "toString")).toBeUndefined();
  });
});

describe("a stage room by kind", () => {
  it("shows a discussion kind in the discussion room with the chat beside it, labelled from the spec", () => {
    renderRoom("values");
    expect(document.querySelector(".crumbs")?.textContent).toBe("Loop / Culture & values");
    expect(screen.getByText("A project you led", { selector: "h2" })).toBeTruthy();
    expect(document.querySelector(".room-body.with-side aside.room-side")).toBeTruthy();
    expect(screen.queryByTestId("stage-kind-unsupported")).toBeNull();
  });

  it("says an unknown kind isn't supported by this version instead of showing the discussion room", () => {
    renderRoom("pair_programming");
    const panel = screen.getByTestId("stage-kind-unsupported");
    expect(panel.textContent).toContain("This stage kind isn't supported by this version");
    expect(panel.textContent).toContain("“pair_programming”");
    expect(screen.queryByText("A project you led", { selector: "h2" })).toBeNull();
    expect(document.querySelector(".crumbs")?.textContent).toBe("Loop / pair programming"); // the slug as words
    expect(screen.getByTestId("stage-room")).toBeTruthy(); // the header and its clock stay
  });
});

describe("a replay by kind", () => {
  function renderReplay(kind: string) {
    vi.spyOn(api, "stage").mockResolvedValue({
      id: 1,
      loop: 2,
      kind,
      title: "Tell me about a project",
      status: "done",
      questions: [{ id: 5, kind: "discussion", title: "A project you led", prompt: "Walk me through it." }],
      answers: [{ question: 5, text: "I cut P99 from 900 ms to 250 ms." }],
    } as unknown as StageDetail);
    vi.spyOn(api, "stageEvents").mockResolvedValue([{ seq: 1, type: "answer.saved", at: new Date().toISOString() }] as never);
    render(
      <MemoryRouter initialEntries={["/stages/1/replay"]}>
        <Routes>
          <Route path="/stages/:stageId/replay" element={<ReplayPage />} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it("plays a discussion kind back in the discussion room's replay", async () => {
    renderReplay("deep_dive");
    expect(await screen.findByText("I cut P99 from 900 ms to 250 ms.")).toBeTruthy();
    expect(screen.getByText("Project deep dive")).toBeTruthy();
    expect(screen.queryByTestId("stage-kind-unsupported")).toBeNull();
  });

  it("says an unknown kind isn't supported instead of replaying it as a discussion", async () => {
    renderReplay("pair_programming");
    expect((await screen.findByTestId("stage-kind-unsupported")).textContent).toContain("“pair_programming”");
    expect(screen.queryByText("I cut P99 from 900 ms to 250 ms.")).toBeNull();
  });
});
