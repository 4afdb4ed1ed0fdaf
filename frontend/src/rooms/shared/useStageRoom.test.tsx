// One websocket per room page: React's StrictMode mounts, unmounts and mounts the room again
// in development, and the page must still end up with exactly one open socket (the first
// mount's opening is abandoned before it connects, or closed).
import { act, cleanup, render } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { api, type StageDetail } from "../../api/client";
import { FakeSocket } from "../../ws/fakeSocket";
import { useStageRoom } from "./useStageRoom";

function Page({ stageId }: { stageId: number }) {
  const { room } = useStageRoom(stageId, false);
  return <p>{room ? `room ${room.stage.id}` : "loading"}</p>;
}

const openSockets = () => FakeSocket.all.filter((s) => s.readyState !== 3);

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.spyOn(api, "stage").mockImplementation(async (id) => ({ id, status: "live", time_remaining_ms: 60_000, questions: [] }) as unknown as StageDetail);
  vi.spyOn(api, "stageDocuments").mockResolvedValue({ last_seq: 0, documents: [] });
  vi.spyOn(api, "stageEvents").mockResolvedValue([]);
  vi.spyOn(api, "stageSubmissions").mockResolvedValue([]);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("useStageRoom", () => {
  it("opens one socket per page, under StrictMode too", async () => {
    const view = render(
      <StrictMode>
        <Page stageId={7} />
      </StrictMode>,
    );
    await view.findByText("room 7");
    expect(openSockets().map((s) => s.url)).toEqual([expect.stringMatching(/\/ws\/stages\/7\/$/)]);
  });

  it("closes the old stage's socket when the page moves to another stage", async () => {
    const view = render(<Page stageId={7} />);
    await view.findByText("room 7");
    view.rerender(<Page stageId={8} />);
    await view.findByText("room 8");
    expect(openSockets().map((s) => s.url)).toEqual([expect.stringMatching(/\/ws\/stages\/8\/$/)]);
    act(() => view.unmount());
    expect(openSockets()).toEqual([]);
  });
});
