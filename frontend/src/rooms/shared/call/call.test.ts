// The call's own logic without a browser's WebRTC: what each viewer is told, the fallback
// when the microphone is refused, and the signals a session sends.
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { StageDetail } from "../../../api/client";
import { FakeSocket } from "../../../ws/fakeSocket";
import { StageSocket } from "../../../ws/socket";
import { callStatus, callWanted } from "./CallPanel";
import { type CallPeer, CallSession, mediaProblemText } from "./callSession";

const stage = (over: Partial<StageDetail> = {}) =>
  ({ status: "live", coach: "coach-lin", candidate: "grace", coach_requested: true, ...over }) as StageDetail;
const peer = (user: string, ice: RTCIceConnectionState, listenOnly = false): CallPeer => ({
  session: user,
  user,
  listenOnly,
  ice,
  stream: null,
  audio: true,
  video: true,
});
const here = (...users: string[]) => users.map((user) => ({ user, role: "x" }));

describe("callWanted", () => {
  it("is a live kind's room with a coach or waiting for one, until it is done", () => {
    expect(callWanted(stage(), true)).toBe(true);
    expect(callWanted(stage({ coach: null }), true)).toBe(true);
    expect(callWanted(stage({ coach: null, coach_requested: false }), true)).toBe(false); // solo
    expect(callWanted(stage({ status: "done" }), true)).toBe(false);
    expect(callWanted(stage(), false)).toBe(false); // the async challenge
  });
});

describe("callStatus", () => {
  it("tells the candidate whether a coach is coming, connecting or there", () => {
    expect(callStatus(stage({ coach: null }), "grace", here("grace"), [])).toMatch(/No coach yet/);
    expect(callStatus(stage(), "grace", here("grace"), [])).toBe("Waiting for your coach, coach-lin, to join the room.");
    expect(callStatus(stage(), "grace", here("grace", "coach-lin"), [])).toBe("Your coach, coach-lin, is connecting…");
    expect(callStatus(stage(), "grace", here("grace", "coach-lin"), [peer("coach-lin", "checking")])).toBe(
      "Your coach, coach-lin, is connecting…",
    );
    expect(callStatus(stage(), "grace", here("grace", "coach-lin"), [peer("coach-lin", "connected")])).toBe(
      "In a call with your coach, coach-lin.",
    );
    expect(callStatus(stage(), "grace", here("grace", "coach-lin"), [peer("coach-lin", "disconnected")])).toMatch(
      /call with your coach, coach-lin, dropped; reconnecting/,
    );
  });

  it("tells the coach whether the candidate is there", () => {
    expect(callStatus(stage(), "coach-lin", here("coach-lin"), [])).toBe(
      "Waiting for the candidate (grace) to join the room.",
    );
    expect(callStatus(stage(), "coach-lin", here("coach-lin", "grace"), [peer("grace", "connected")])).toBe(
      "In a call with grace.",
    );
  });

  it("tells a listener who they hear", () => {
    const peers = [peer("grace", "connected"), peer("coach-lin", "connected")];
    expect(callStatus(stage(), "ada", here("ada", "grace", "coach-lin"), peers)).toBe(
      "Shadowing: listening in to grace and coach-lin; your microphone and camera stay off.",
    );
  });
});

describe("mediaProblemText", () => {
  it("says what to do when the browser refuses the microphone", () => {
    const refused = mediaProblemText(new DOMException("Permission denied", "NotAllowedError"));
    expect(refused.state).toBe("refused");
    expect(refused.text).toMatch(/blocked the microphone and camera/);
    expect(refused.text).toMatch(/Try again/);
    expect(mediaProblemText(new DOMException("none", "NotFoundError")).state).toBe("unavailable");
  });
});

describe("CallSession", () => {
  beforeEach(() => {
    FakeSocket.all = [];
  });

  function openSocket() {
    const socket = new StageSocket({ url: "ws://test/ws/stages/1/", createSocket: (url) => new FakeSocket(url), pingIntervalMs: 0 });
    socket.start();
    FakeSocket.last.open();
    return socket;
  }

  it("joins listen-only without asking for the microphone", async () => {
    const getUserMedia = vi.fn();
    const session = new CallSession({
      socket: openSocket(),
      me: "ada",
      listenOnly: true,
      iceServers: async () => ({ ice_servers: [], ttl: 0 }),
      mediaDevices: { getUserMedia } as unknown as MediaDevices,
    });
    await session.start();
    expect(getUserMedia).not.toHaveBeenCalled();
    const join = FakeSocket.last.sent.find((m) => m.type === "rtc.signal");
    expect(join).toMatchObject({ data: { kind: "join", listen_only: true, session: session.session } });
    expect(session.getSnapshot().media).toBe("listen-only");
    session.stop();
    expect(FakeSocket.last.sent.at(-1)).toMatchObject({ type: "rtc.signal", data: { kind: "leave" } });
  });

  it("falls back to a message when the browser refuses the microphone, and still joins", async () => {
    const getUserMedia = vi.fn().mockRejectedValue(new DOMException("denied", "NotAllowedError"));
    const session = new CallSession({
      socket: openSocket(),
      me: "grace",
      listenOnly: false,
      iceServers: async () => ({ ice_servers: [], ttl: 0 }),
      mediaDevices: { getUserMedia } as unknown as MediaDevices,
    });
    await session.start();
    const call = session.getSnapshot();
    expect(call.media).toBe("refused");
    expect(call.mediaProblem).toMatch(/Allow them/);
    expect(getUserMedia).toHaveBeenCalledTimes(1); // a refusal is not retried behind the person's back
    expect(FakeSocket.last.sent.some((m) => m.type === "rtc.signal")).toBe(true);
    session.stop();
  });

  it("ignores its own signals and those meant for another tab", async () => {
    const session = new CallSession({
      socket: openSocket(),
      me: "grace",
      listenOnly: true,
      iceServers: async () => ({ ice_servers: [], ttl: 0 }),
      createPeer: () => {
        throw new Error("no connection should be made");
      },
    });
    await session.start();
    const before = FakeSocket.last.sent.length;
    FakeSocket.last.deliver({ type: "rtc.signal", from: "grace", data: { kind: "join", session: session.session } });
    FakeSocket.last.deliver({
      type: "rtc.signal",
      from: "coach-lin",
      data: { kind: "sdp", session: "other", target: "not-me", description: { type: "offer", sdp: "" } },
    });
    await Promise.resolve();
    expect(session.getSnapshot().peers).toEqual([]);
    expect(FakeSocket.last.sent.length).toBe(before);
    session.stop();
  });

  it("keeps a departed user's connection through a blip, forgets it after the grace, and a reload replaces it", async () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    let made = 0;
    const session = new CallSession({
      socket: openSocket(),
      me: "ada",
      listenOnly: true,
      iceServers: async () => ({ ice_servers: [], ttl: 0 }),
      leftGraceMs: 20_000,
      createPeer: () => {
        const name = `pc${++made}`;
        return { iceConnectionState: "new", close: () => closed.push(name) } as unknown as RTCPeerConnection;
      },
    });
    await session.start();
    const join = (id: string) =>
      FakeSocket.last.deliver({ type: "rtc.signal", from: "coach-lin", data: { kind: "join", session: id, listen_only: true, reply: true } });
    join("s1");
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getSnapshot().peers.map((p) => p.session)).toEqual(["s1"]);

    session.setPresent(["ada", "coach-lin"]);
    session.setPresent(["ada"]); // the coach's socket dropped…
    await vi.advanceTimersByTimeAsync(10_000);
    session.setPresent(["ada", "coach-lin"]); // …and came back
    await vi.advanceTimersByTimeAsync(30_000);
    expect(session.getSnapshot().peers).toHaveLength(1);

    join("s2"); // the coach reloaded the page
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getSnapshot().peers.map((p) => p.session)).toEqual(["s2"]);
    expect(closed).toEqual(["pc1"]);

    session.setPresent(["ada"]); // the coach closed the tab
    await vi.advanceTimersByTimeAsync(20_000);
    expect(session.getSnapshot().peers).toEqual([]);
    expect(closed).toEqual(["pc1", "pc2"]);
    session.stop();
    vi.useRealTimers();
  });
});
