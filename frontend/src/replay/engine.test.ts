import { describe, expect, it } from "vitest";
import * as Y from "yjs";

import { toBase64 } from "../ws/sharedDocs";
import type { LoggedEvent } from "../ws/events.gen";
import { chatEvent, docUpdateEvent, noteEvent, stageLiveEvent, submissionEvent } from "../ws/testEvents";
import { buildTimeline, countAt, formatOffset, IDLE_CAP_MS, idleLabel, inFeed, realAt, ReplayDocs } from "./engine";

/** doc.update events that type `text` one character per event, 100 ms apart. */
function typing(text: string, start = 0, t0 = Date.UTC(2026, 0, 1)): LoggedEvent[] {
  const doc = new Y.Doc();
  const events: LoggedEvent[] = [];
  doc.on("update", (update: Uint8Array) => {
    const n = events.length;
    events.push(docUpdateEvent(start + n + 1, "code:7", toBase64(update), new Date(t0 + n * 100).toISOString()));
  });
  for (const ch of text) doc.getText("code").insert(doc.getText("code").length, ch);
  return events;
}

describe("replay timeline", () => {
  it("orders by seq and caps idle gaps", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    const timeline = buildTimeline([
      chatEvent(3, "after a long pause", at(600)),
      stageLiveEvent(1, at(0)),
      chatEvent(2, "hi", at(2)),
    ]);
    expect(timeline.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(timeline.events.map((e) => e.t)).toEqual([0, 2000, 2000 + IDLE_CAP_MS]);
    expect(timeline.duration).toBe(2000 + IDLE_CAP_MS);
    expect(countAt(timeline, 0)).toBe(1);
    expect(countAt(timeline, 1999)).toBe(1);
    expect(countAt(timeline, 2000)).toBe(2);
    expect(countAt(timeline, 1e9)).toBe(3);
  });

  it("labels events with their real offset from the stage's start, across shortened gaps", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    // The clock started at 0; a chat at 23:10, after six idle minutes, then one at 23:15.
    const timeline = buildTimeline(
      [chatEvent(1, "before the clock", at(-30)), stageLiveEvent(2, at(0)), chatEvent(3, "hi", at(17 * 60 + 10)), chatEvent(4, "back", at(23 * 60 + 10)), chatEvent(5, "on", at(23 * 60 + 15))],
      IDLE_CAP_MS,
      at(0),
    );
    expect(timeline.events.map((e) => formatOffset(e.real))).toEqual(["00:00", "00:00", "17:10", "23:10", "23:15"]);
    expect(timeline.events[0]!.real).toBe(-30_000);
    expect(formatOffset(timeline.realDuration)).toBe("23:15");
    // Playback skips the idle stretches: each plays in IDLE_CAP_MS.
    expect(timeline.duration).toBe(4 * IDLE_CAP_MS);
    expect(timeline.gaps.map((g) => [g.t, g.ms, idleLabel(g.ms)])).toEqual([
      [IDLE_CAP_MS, 1030_000, "⋯ 17 min idle"],
      [2 * IDLE_CAP_MS, 360_000, "⋯ 6 min idle"],
    ]);
    // The time label stays real: at an event exactly, and moving in step after the last gap.
    expect(formatOffset(realAt(timeline, timeline.events[3]!.t))).toBe("23:10");
    expect(formatOffset(realAt(timeline, timeline.events[3]!.t + 2000))).toBe("23:12");
    expect(realAt(timeline, 2 * IDLE_CAP_MS + IDLE_CAP_MS / 2)).toBe(17 * 60_000 + 10_000 + 180_000);
    expect(formatOffset(realAt(timeline, 1e9))).toBe("23:15");
  });

  it("lists verdicts once, with their result, and leaves edits out of the feed", () => {
    expect(inFeed(submissionEvent(1, { status: "running" }))).toBe(false);
    expect(inFeed(submissionEvent(2, { status: "done", verdict: "accepted" }))).toBe(true);
    expect(inFeed(docUpdateEvent(3, "code:7", "AAA="))).toBe(false);
    expect(inFeed(noteEvent(4, "private"))).toBe(true);
  });
});

describe("replay documents", () => {
  it("rebuilds the code as typed up to any position, forward and back", () => {
    const text = "def solve():\n    return 42\n";
    const timeline = buildTimeline(typing(text));
    const docs = new ReplayDocs(timeline);
    const code = () => docs.get("code:7").getText("code").toString();

    docs.seek(timeline.events.length);
    expect(code()).toBe(text);
    const generation = docs.generation;

    docs.seek(5);
    expect(code()).toBe(text.slice(0, 5));
    expect(docs.generation).toBeGreaterThan(generation); // went back: fresh docs

    docs.seek(12);
    expect(code()).toBe(text.slice(0, 12));
    docs.seek(0);
    expect(code()).toBe("");
    docs.destroy();
  });

  it("seeks back through checkpoints on long logs", () => {
    const text = "x".repeat(1000);
    const timeline = buildTimeline(typing(text));
    const docs = new ReplayDocs(timeline);
    docs.seek(1000);
    docs.seek(950);
    expect(docs.get("code:7").getText("code").length).toBe(950);
    docs.seek(401);
    expect(docs.get("code:7").getText("code").length).toBe(401);
    docs.destroy();
  });

  it("counts only the updates among the first n events (other events interleave)", () => {
    const edits = typing("abc", 1);
    const events: LoggedEvent[] = [stageLiveEvent(1, edits[0]!.at), ...edits];
    const timeline = buildTimeline(events);
    const docs = new ReplayDocs(timeline);
    docs.seek(1);
    expect(docs.get("code:7").getText("code").toString()).toBe("");
    docs.seek(3);
    expect(docs.get("code:7").getText("code").toString()).toBe("ab");
  });
});
