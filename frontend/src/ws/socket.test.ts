import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ChatEvent } from "./events.gen";
import { FakeSocket } from "./fakeSocket";
import { REFUSED_CODE, SIGNED_OUT_CODE, type StageMessage, StageSocket } from "./socket";
import { chatEvent, timerEvent } from "./testEvents";

function makeSocket(after = 0) {
  const socket = new StageSocket({
    url: "ws://test/ws/stages/1/",
    after,
    createSocket: (url) => new FakeSocket(url),
    initialBackoffMs: 100,
    maxBackoffMs: 1000,
    random: () => 1, // no jitter: delays are exactly 100, 200, 400 …
    pingIntervalMs: 0,
  });
  const received: StageMessage[] = [];
  socket.on("*", (m) => received.push(m));
  const states: string[] = [];
  socket.onState((s) => states.push(s));
  socket.start();
  return { socket, received, states, current: () => FakeSocket.all[FakeSocket.all.length - 1]! };
}

const ev = (seq: number, type: "chat" | "timer" = "chat"): StageMessage => (type === "chat" ? chatEvent(seq) : timerEvent(seq));

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("StageSocket", () => {
  it("resyncs from the given seq as soon as it opens, and is live after resync.done", () => {
    const { socket, current, states } = makeSocket(5);
    current().open();
    expect(current().sent).toEqual([{ type: "resync", after: 5 }]);
    expect(socket.state).toBe("syncing");
    current().deliver(ev(6));
    current().deliver({ type: "resync.done", last_seq: 6 });
    expect(socket.state).toBe("live");
    expect(socket.lastSeq).toBe(6);
    expect(states).toEqual(["syncing", "live"]);
  });

  it("drops events it has already applied (overlap of resync and broadcast)", () => {
    const { received, current } = makeSocket();
    current().open();
    for (const seq of [1, 2, 2, 1, 3]) current().deliver(ev(seq));
    current().deliver({ type: "resync.done", last_seq: 3 });
    current().deliver(ev(3));
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it("holds events that arrive past a gap, asks for the gap, and applies them in order once it is filled", () => {
    const { received, current, socket } = makeSocket();
    current().open();
    current().deliver(ev(1));
    current().deliver({ type: "resync.done", last_seq: 1 });
    current().sent.length = 0;
    current().deliver(ev(3)); // 2 is missing
    current().deliver(ev(4)); // still waiting: held, and no second request
    expect(current().sent).toEqual([{ type: "resync", after: 1 }]);
    expect(socket.lastSeq).toBe(1);
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1]);
    current().deliver(ev(2));
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(socket.lastSeq).toBe(4);
    current().deliver({ type: "resync.done", last_seq: 4 });
    expect(socket.state).toBe("live");
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });

  it("applies held events when the resync shows the gap holds only events this viewer may not see", () => {
    const { received, current, socket } = makeSocket();
    current().open();
    current().deliver(ev(1));
    current().deliver({ type: "resync.done", last_seq: 1 });
    current().sent.length = 0;
    current().deliver(ev(3)); // 2 is a coach's private note
    expect(current().sent).toEqual([{ type: "resync", after: 1 }]);
    // The server never sends an event twice on one connection: the answer is empty.
    current().deliver({ type: "resync.done", last_seq: 3 });
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 3]);
    expect(socket.lastSeq).toBe(3);
    current().deliver(ev(4));
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 3, 4]);
    expect(current().sent).toHaveLength(1);
  });

  it("applies a live event that overtakes the resync's answer after the events before it", () => {
    const { received, current } = makeSocket(5);
    current().open();
    current().deliver(ev(9)); // broadcast between the hello and our resync
    for (const seq of [6, 7, 8]) current().deliver(ev(seq));
    current().deliver({ type: "resync.done", last_seq: 9 });
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([6, 7, 8, 9]);
    expect(current().sent).toEqual([{ type: "resync", after: 5 }]);
  });

  it("reconnects with exponential backoff and resyncs from the last applied seq", () => {
    const { socket, current, received } = makeSocket();
    current().open();
    current().deliver(ev(1));
    current().deliver(ev(2));
    current().deliver({ type: "resync.done", last_seq: 2 });

    current().serverClose(1006);
    expect(socket.state).toBe("reconnecting");
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(2 - 1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);

    // The second attempt fails too: the next wait doubles.
    current().serverClose(1006);
    vi.advanceTimersByTime(199);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);

    current().open();
    expect(current().sent).toEqual([{ type: "resync", after: 2 }]);
    current().deliver(ev(2)); // replayed again by the server: ignored
    current().deliver(ev(3));
    current().deliver({ type: "resync.done", last_seq: 3 });
    expect(socket.state).toBe("live");
    expect(received.filter((m) => m.seq).map((m) => m.seq)).toEqual([1, 2, 3]);

    // A successful resync resets the backoff.
    current().serverClose(1006);
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(4);
  });

  it("caps the backoff", () => {
    const { current } = makeSocket();
    for (let i = 0; i < 8; i += 1) {
      const before = FakeSocket.all.length;
      current().serverClose(1006);
      vi.advanceTimersByTime(1000);
      expect(FakeSocket.all.length).toBe(before + 1);
    }
  });

  it("does not retry when the server refuses the room (4403)", () => {
    const { socket, current, states } = makeSocket();
    current().open(); // the server accepts, then closes, so the browser sees the code
    current().serverClose(REFUSED_CODE);
    expect(socket.state).toBe("refused");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(socket.reconnects).toBe(0);
    expect(states).toEqual(["syncing", "refused"]);
  });

  it("does not retry when the server ends the sign-in (4401: logout, expired token)", () => {
    const { socket, current, states } = makeSocket();
    current().open();
    current().serverClose(SIGNED_OUT_CODE);
    expect(socket.state).toBe("signed-out");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(states).toEqual(["syncing", "signed-out"]);
  });

  it("routes messages by type and stops after close()", () => {
    const { socket, current } = makeSocket();
    const chats: ChatEvent[] = [];
    const off = socket.on("chat", (m) => chats.push(m));
    current().open();
    current().deliver(ev(1));
    current().deliver(ev(2, "timer"));
    off();
    current().deliver(ev(3));
    expect(chats.map((m) => m.seq)).toEqual([1]);
    socket.close();
    expect(socket.state).toBe("closed");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(socket.send({ type: "chat", text: "hi" })).toBe(false);
  });

  it("forces a reconnect when pongs stop coming", () => {
    const socket = new StageSocket({
      url: "ws://x",
      createSocket: (url) => new FakeSocket(url),
      pingIntervalMs: 1000,
      pingTimeoutMs: 500,
      random: () => 1,
      initialBackoffMs: 100,
    }).start();
    FakeSocket.all[0]!.open();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all[0]!.sent.at(-1)).toMatchObject({ type: "ping" });
    vi.advanceTimersByTime(500);
    expect(socket.state).toBe("reconnecting");
    socket.close();
  });
});
