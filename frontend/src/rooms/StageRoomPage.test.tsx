import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { api } from "../api/client";
import { stageKindsStore } from "../lib/stageKinds";
import { STAGE_KINDS_FIXTURE } from "../lib/stageKindsFixture";
import type { ConnectionState } from "../ws/socket";
import { StageRoomPage } from "./StageRoomPage";
import type { Room } from "./shared/useStageRoom";

const current: {
  connection: ConnectionState;
  coach: { coach_requested: boolean; coach: string | null };
  presence: { user: string; role: string }[];
} = { connection: "live", coach: { coach_requested: false, coach: null }, presence: [] };

vi.mock("../auth/session", () => ({ useMe: () => ({ username: "cand", role: "candidate" }) }));
vi.mock("./shared/useStageRoom", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./shared/useStageRoom")>()),
  useStageRoom: () => ({
    room: {
      stage: { id: 1, loop: 2, kind: "coding", title: "Rate limiter", status: "pending", candidate: "cand", minutes: 45, ...current.coach },
      socket: null,
      connection: current.connection,
      refused: current.connection === "refused",
      reloadProblem: null,
      events: [],
      presence: current.presence,
      reloadStage: async () => undefined,
      timer: { remainingMs: 0, paused: false, at: 0, status: "pending" },
      lastError: null,
    } as unknown as Room,
    problem: null,
    retry: () => undefined,
  }),
}));

function renderRoom(connection: ConnectionState) {
  current.connection = connection;
  render(
    <MemoryRouter initialEntries={["/stages/1"]}>
      <Routes>
        <Route path="/stages/:stageId" element={<StageRoomPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

// The room waits for the served stage kinds; have them here before the first render.
beforeEach(async () => {
  vi.spyOn(api, "stageKinds").mockResolvedValue(STAGE_KINDS_FIXTURE);
  await stageKindsStore.load();
});

afterEach(() => {
  cleanup();
  current.coach = { coach_requested: false, coach: null };
  current.presence = [];
});

describe("stage room connection", () => {
  it("says the stage is no longer open to the viewer, with a way back, once the server refused the socket", () => {
    renderRoom("refused");
    const notice = screen.getByTestId("room-refused");
    expect(notice.textContent).toContain("You no longer have access to this stage.");
    expect(screen.getByRole("link", { name: "Go back to your dashboard." }).getAttribute("href")).toBe("/");
  });

  it("shows no such notice while merely reconnecting", () => {
    renderRoom("reconnecting");
    expect(screen.queryByTestId("room-refused")).toBeNull();
  });
});

describe("a coached stage's clock waits for the coach", () => {
  it("says the candidate waits for their coach, offers to continue solo and starts solo when asked", () => {
    current.coach = { coach_requested: true, coach: null };
    const start = vi.spyOn(api, "stageStart").mockResolvedValue({} as never);
    renderRoom("live");
    expect(screen.getByRole("heading", { name: "Waiting for your coach" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Start the clock" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Continue solo (the scripted interviewer takes over)" }));
    expect(start).toHaveBeenCalledWith(1, { solo: true });
  });

  it("says the coach joined once the claiming coach is in the room, and lets the candidate start", () => {
    current.coach = { coach_requested: true, coach: "lin" };
    current.presence = [{ user: "lin", role: "coach" }];
    renderRoom("live");
    expect(screen.getByTestId("coach-joined").textContent).toContain("Coach joined: lin is in the room");
    expect(screen.getByRole("button", { name: "Start the clock" })).toBeTruthy();
  });
});
