import { describe, expect, it } from "vitest";
import * as Y from "yjs";

import { toBase64 } from "../ws/sharedDocs";
import type { LoggedEvent } from "../ws/events.gen";
import { chatEvent, docUpdateEvent, noteEvent, stageLiveEvent, submissionEvent } from "../ws/testEvents";
import { buildTimeline, countAt, IDLE_CAP_MS, inFeed, ReplayDocs } from "./engine";

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
