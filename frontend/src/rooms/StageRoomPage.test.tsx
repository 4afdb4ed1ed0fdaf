import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { api } from "../api/client";
import { stageKindsStore } from "../lib/stageKinds";
import { STAGE_KINDS_FIXTURE } from "../lib/stageKindsFixture";
import type { ConnectionState } from "../ws/socket";
import { StageRoomPage } from "./StageRoomPage";
import type { Room } from "./shared/useStageRoom";

const current: { connection: ConnectionState } = { connection: "live" };

vi.mock("../auth/session", () => ({ useMe: () => ({ username: "cand", role: "candidate" }) }));
vi.mock("./shared/useStageRoom", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./shared/useStageRoom")>()),
  useStageRoom: () => ({
    room: {
      stage: { id: 1, loop: 2, kind: "coding", title: "Rate limiter", status: "pending", candidate: "cand", minutes: 45 },
      socket: null,
      connection: current.connection,
      refused: current.connection === "refused",
      reloadProblem: null,
      events: [],
      presence: [],
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

afterEach(cleanup);

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
