import { cleanup, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api, type Loop, type QueueEntry } from "../api/client";
import { coachPresent, coachState } from "../lib/coachedStage";
import { CoachHome, useNewQueueEntries } from "./CoachHome";
import type { Room } from "../rooms/shared/useStageRoom";
import { ExtendClock, isShadowing } from "./CoachRoom";

vi.mock("../auth/session", () => ({ useMe: () => ({ username: "lin", role: "coach" }) }));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const entry = (id: number) => ({ id, title: `Stage ${id}`, candidate: "grace", status: "pending" }) as unknown as QueueEntry;

describe("the coach queue's new entries", () => {
  it("flags entries that arrive after the first load, until they leave the queue", () => {
    const { result, rerender } = renderHook(({ entries }) => useNewQueueEntries(entries), {
      initialProps: { entries: undefined as QueueEntry[] | undefined },
    });
    rerender({ entries: [entry(1)] });
    expect(result.current).toEqual([]); // there when the console opened: not new
    rerender({ entries: [entry(1)] }); // a poll with nothing new keeps the first set
    expect(result.current).toEqual([]);
    rerender({ entries: [entry(1), entry(2)] });
    expect(result.current.map((e) => e.id)).toEqual([2]);
    rerender({ entries: [entry(1), entry(2), entry(3)] });
    expect(result.current.map((e) => e.id)).toEqual([2, 3]);
    rerender({ entries: [entry(1), entry(3)] }); // 2 was claimed
    expect(result.current.map((e) => e.id)).toEqual([3]);
  });
});

describe("a coached stage's state for its candidate", () => {
  it("waits for a coach until one claims it, and knows when the coach is in the room", () => {
    expect(coachState({ coach_requested: true, coach: null })).toBe("waiting");
    expect(coachState({ coach_requested: true, coach: "lin" })).toBe("claimed");
    expect(coachState({ coach_requested: false, coach: null })).toBe("none");
    expect(coachPresent({ coach: "lin" }, [{ user: "grace" }])).toBe(false);
    expect(coachPresent({ coach: "lin" }, [{ user: "grace" }, { user: "lin" }])).toBe(true);
    expect(coachPresent({ coach: null }, [{ user: "lin" }])).toBe(false);
  });
});

describe("the coach console", () => {
  it("flags finished stages of the coach's without a submitted scorecard", async () => {
    const stage = (id: number, title: string, submitted: boolean) => ({
      id,
      loop: 1,
      title,
      kind: "coding",
      status: "done",
      coach: "lin",
      scorecard_submitted: submitted,
    });
    vi.spyOn(api, "coachQueue").mockResolvedValue([]);
    vi.spyOn(api, "loops").mockResolvedValue([
      { id: 1, title: "Loop", candidate: "grace", stages: [stage(3, "Coding", false), stage(4, "Design", true)] },
    ] as unknown as Loop[]);
    render(
      <MemoryRouter>
        <CoachHome />
      </MemoryRouter>,
    );
    const flag = await screen.findByTestId("unscored");
    expect(flag.textContent).toContain("1 finished stage has no submitted scorecard");
    expect(flag.textContent).toContain("grace · Coding");
    expect(flag.textContent).not.toContain("Design");
  });
});

describe("extending the clock", () => {
  it("adds the chosen number of minutes, and refuses what the server would", async () => {
    const timer = vi.spyOn(api, "timer").mockResolvedValue({} as never);
    render(<ExtendClock stageId={7} />);
    const input = screen.getByLabelText("Minutes to add");
    fireEvent.change(input, { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Extend" }));
    await waitFor(() => expect(timer).toHaveBeenCalledWith(7, "extend", 12));
    fireEvent.change(input, { target: { value: "500" } });
    expect((screen.getByRole("button", { name: "Extend" }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("shadowing", () => {
  it("joins a stage by its number or room link, then opens its room", async () => {
    vi.spyOn(api, "coachQueue").mockResolvedValue([]);
    vi.spyOn(api, "loops").mockResolvedValue([]);
    const shadow = vi.spyOn(api, "shadow").mockResolvedValue({} as never);
    render(
      <MemoryRouter>
        <CoachHome />
      </MemoryRouter>,
    );
    const input = screen.getByLabelText("Stage number or room link");
    const button = screen.getByRole("button", { name: "Shadow" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: "https://mockloop.example/coach/stages/42/" } });
    fireEvent.click(button);
    await waitFor(() => expect(shadow).toHaveBeenCalledWith(42));
  });

  it("is any coach in a stage that is not theirs; an admin keeps the coach tools", () => {
    const room = { stage: { coach: "lin" } } as unknown as Room;
    expect(isShadowing(room, { username: "lin", role: "coach" })).toBe(false);
    expect(isShadowing(room, { username: "ada", role: "coach" })).toBe(true);
    expect(isShadowing(room, { username: "root", role: "admin" })).toBe(false);
  });
});
