import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { QueueEntry } from "../api/client";
import { coachPresent, coachState } from "../lib/coachedStage";
import { useNewQueueEntries } from "./CoachHome";

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
