import { describe, expect, it } from "vitest";
import * as Y from "yjs";

import { toBase64 } from "../ws/sharedDocs";
import type { StageMessage } from "../ws/socket";
import { buildTimeline, countAt, IDLE_CAP_MS, inFeed, ReplayDocs } from "./engine";

/** doc.update events that type `text` one character per event, 100 ms apart. */
function typing(text: string, start = 0, t0 = Date.UTC(2026, 0, 1)): StageMessage[] {
  const doc = new Y.Doc();
  const events: StageMessage[] = [];
  doc.on("update", (update: Uint8Array) => {
    const n = events.length;
    events.push({ type: "doc.update", seq: start + n + 1, at: new Date(t0 + n * 100).toISOString(), doc: "code:7", update: toBase64(update) });
  });
  for (const ch of text) doc.getText("code").insert(doc.getText("code").length, ch);
  return events;
}

describe("replay timeline", () => {
  it("orders by seq and caps idle gaps", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    const timeline = buildTimeline([
      { type: "chat", seq: 3, at: at(600), text: "after a long pause" },
      { type: "stage.status", seq: 1, at: at(0), status: "live" },
      { type: "chat", seq: 2, at: at(2), text: "hi" },
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
    expect(inFeed({ type: "submission.status", status: "running" })).toBe(false);
    expect(inFeed({ type: "submission.status", status: "done", verdict: "accepted" })).toBe(true);
    expect(inFeed({ type: "doc.update" })).toBe(false);
    expect(inFeed({ type: "note", text: "private" })).toBe(true);
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
    const events: StageMessage[] = [{ type: "stage.status", seq: 1, at: edits[0]!.at, status: "live" }, ...edits];
    const timeline = buildTimeline(events);
    const docs = new ReplayDocs(timeline);
    docs.seek(1);
    expect(docs.get("code:7").getText("code").toString()).toBe("");
    docs.seek(3);
    expect(docs.get("code:7").getText("code").toString()).toBe("ab");
  });
});
