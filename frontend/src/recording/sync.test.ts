import { describe, expect, it } from "vitest";

import { buildTimeline } from "../replay/engine";
import type { LoggedEvent } from "../ws/events.gen";
import { replayTimeAt, wallAt } from "./sync";

const T0 = Date.parse("2026-12-01T10:00:00Z");
const chat = (seq: number, ms: number): LoggedEvent => ({ type: "chat", seq, at: new Date(T0 + ms).toISOString(), actor: "owner", private: false, text: `m${seq}` });

// Events at 0 s, 2 s, 30 s (a 28 s gap, shortened to 4 s), 31 s.
const timeline = buildTimeline([chat(1, 0), chat(2, 2000), chat(3, 30_000), chat(4, 31_000)]);

describe("replay time and wall time", () => {
  it("maps each event's replay time to its wall time", () => {
    for (const e of timeline.events) expect(wallAt(timeline, e.t)).toBe(e.at);
    for (const e of timeline.events) expect(replayTimeAt(timeline, e.at)).toBe(e.t);
  });

  it("runs at real speed between events", () => {
    expect(wallAt(timeline, 1000)).toBe(T0 + 1000);
    expect(replayTimeAt(timeline, T0 + 1500)).toBe(1500);
  });

  it("waits at a shortened gap's end while the audio of the gap plays on", () => {
    const third = timeline.events[2]!;
    expect(third.t).toBe(6000);
    expect(replayTimeAt(timeline, T0 + 10_000)).toBe(6000);
    expect(replayTimeAt(timeline, T0 + 29_999)).toBe(6000);
    expect(replayTimeAt(timeline, T0 + 30_500)).toBe(6500);
  });
});
