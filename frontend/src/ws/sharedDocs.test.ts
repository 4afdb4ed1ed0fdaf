import { beforeEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";

import { fromBase64, saveLabel, SharedDocs, toBase64 } from "./sharedDocs";
import type { ClientDocUpdateMessage, ClientMessage } from "./events.gen";
import type { StageMessage } from "./socket";
import { docUpdateEvent } from "./testEvents";

/** A socket stand-in: records what is sent, and can be taken offline. */
class Wire {
  isLive = true;
  sent: ClientDocUpdateMessage[] = [];
  send(message: ClientMessage) {
    if (message.type !== "doc.update") throw new Error(`SharedDocs sent ${message.type}`);
    if (!this.isLive) return false;
    this.sent.push(message);
    return true;
  }
}

let seq = 0;
/** What the server broadcasts for an accepted edit. */
function echo(message: ClientDocUpdateMessage): StageMessage {
  return docUpdateEvent(++seq, message.doc, message.update);
}

beforeEach(() => {
  seq = 10;
  vi.useFakeTimers();
});

describe("SharedDocs", () => {
  it("base64 round-trips binary updates", () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(Array.from(fromBase64(toBase64(bytes)))).toEqual([0, 1, 2, 250, 255]);
  });

  it("loads the merged state, batches local edits and counts them saved when echoed", () => {
    const source = new Y.Doc();
    source.getText("code").insert(0, "print(1)\n");
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    docs.load([{ name: "code:7", state: toBase64(Y.encodeStateAsUpdate(source)), seq: 10, text: "", language: "" }], 10);
    const text = docs.get("code:7").getText("code");
    expect(text.toString()).toBe("print(1)\n");
    expect(saveLabel(docs.status())).toBe("All changes saved");
    expect(docs.status().savedSeq).toBe(10);

    text.insert(text.length, "a");
    text.insert(text.length, "b");
    expect(saveLabel(docs.status())).toBe("Saving…");
    expect(wire.sent).toHaveLength(0); // batched
    vi.advanceTimersByTime(100);
    expect(wire.sent).toHaveLength(1);
    expect(wire.sent[0]).toMatchObject({ type: "doc.update", doc: "code:7" });

    docs.handle(echo(wire.sent[0]!));
    expect(docs.status().pending).toBe(0);
    expect(saveLabel(docs.status())).toBe("All changes saved");
    expect(docs.status().savedSeq).toBe(11);
  });

  it("keeps a watcher's copy in step with the candidate's edits", () => {
    const wire = new Wire();
    const candidate = new SharedDocs(wire, true);
    const coach = new SharedDocs(new Wire(), false);
    candidate.get("code:1").getText("code").insert(0, "hello");
    candidate.get("code:1").getMap("meta").set("language", "python");
    vi.advanceTimersByTime(100);
    for (const message of wire.sent) coach.handle(echo(message));
    expect(coach.get("code:1").getText("code").toString()).toBe("hello");
    expect(coach.get("code:1").getMap("meta").get("language")).toBe("python");
    // The watcher never sends anything.
    coach.get("code:1").getText("code").insert(0, "x");
    expect(coach.pending).toBe(0);
  });

  it("lets the coach send whiteboard strokes and nothing else", () => {
    const wire = new Wire();
    const coach = new SharedDocs(wire, (name) => name.startsWith("scene:"));
    coach.get("code:1").getText("code").insert(0, "x");
    coach.get("scene:1").getMap("scene").set("elements", "[]");
    vi.advanceTimersByTime(100);
    expect(wire.sent.map((m) => m.doc)).toEqual(["scene:1"]);
  });

  it("holds edits while offline and sends them once the room has resynced", () => {
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    wire.isLive = false;
    docs.get("notes:3").getMap("notes").set("requirements", "p99 < 200 ms");
    vi.advanceTimersByTime(100);
    expect(wire.sent).toHaveLength(0);
    expect(saveLabel(docs.status())).toBe("Unsaved · offline");

    wire.isLive = true;
    docs.handle({ type: "resync.done", last_seq: 10 });
    expect(wire.sent).toHaveLength(1);
    const replica = new Y.Doc();
    Y.applyUpdate(replica, fromBase64(String(wire.sent[0]!.update)));
    expect(replica.getMap("notes").get("requirements")).toBe("p99 < 200 ms");
  });

  it("re-sends an edit that was in flight when the connection dropped", () => {
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    docs.get("code:1").getText("code").insert(0, "x = 1");
    vi.advanceTimersByTime(100);
    expect(wire.sent).toHaveLength(1);
    // The socket drops before the echo; after reconnecting, the replay does not contain it.
    docs.handle({ type: "resync.done", last_seq: 10 });
    expect(wire.sent).toHaveLength(2);
    expect(wire.sent[1]!.update).toBe(wire.sent[0]!.update);
    docs.handle(echo(wire.sent[1]!));
    expect(docs.status().pending).toBe(0);
  });

  it("does not re-send an edit the replay shows was stored", () => {
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    docs.get("code:1").getText("code").insert(0, "y");
    vi.advanceTimersByTime(100);
    docs.handle(echo(wire.sent[0]!)); // arrives in the resync replay
    docs.handle({ type: "resync.done", last_seq: 11 });
    expect(wire.sent).toHaveLength(1);
  });

  it("shows the server's refusal of an edit", () => {
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    docs.get("code:1").getText("code").insert(0, "z");
    vi.advanceTimersByTime(100);
    docs.handle({ type: "error", detail: "The stage is not live; edits are closed.", errors: {}, code: "stage_not_live", ref: wire.sent[0]!.ref });
    expect(saveLabel(docs.status())).toBe("Not saved: The stage is not live; edits are closed.");
  });

  it("settled sends waiting edits at once and resolves when the server has them", async () => {
    const wire = new Wire();
    const docs = new SharedDocs(wire, true);
    docs.load([], 10);
    const text = docs.get("code:7").getText("code");
    text.insert(0, "print(2)\n");
    const settled = docs.settled(3000);
    expect(wire.sent).toHaveLength(1); // not waiting for the batch timer
    docs.handle(echo(wire.sent[0]!));
    await expect(settled).resolves.toBe(true);
  });

  it("settled gives up after its timeout while offline", async () => {
    const wire = new Wire();
    wire.isLive = false;
    const docs = new SharedDocs(wire, true);
    docs.load([], 10);
    docs.get("code:7").getText("code").insert(0, "x");
    const settled = docs.settled(3000);
    vi.advanceTimersByTime(3000);
    await expect(settled).resolves.toBe(false);
  });

  it("applies relayed edits at once and counts merged edits saved by their refs", () => {
    const wire = new Wire();
    const viewer = new SharedDocs(wire, false);
    const typist = new Y.Doc();
    typist.getText("code").insert(0, "ab");
    const update = toBase64(Y.encodeStateAsUpdate(typist));
    viewer.handle({ type: "doc.relay", user: "cand", doc: "code:7", update });
    expect(viewer.get("code:7").getText("code").toString()).toBe("ab");
    viewer.handle(docUpdateEvent(11, "code:7", update)); // the logged repeat changes nothing
    expect(viewer.get("code:7").getText("code").toString()).toBe("ab");

    const docs = new SharedDocs(wire, true);
    const text = docs.get("code:7").getText("code");
    text.insert(0, "x");
    vi.advanceTimersByTime(100);
    text.insert(1, "y");
    vi.advanceTimersByTime(100);
    expect(wire.sent).toHaveLength(2);
    expect(docs.status().pending).toBe(2);
    const refs = wire.sent.map((m) => m.ref!);
    docs.handle({ type: "doc.saved", refs, saved_seq: 42 });
    expect(docs.status().pending).toBe(0);
    expect(docs.status().savedSeq).toBe(42);
    expect(saveLabel(docs.status())).toBe("All changes saved");
  });
});
