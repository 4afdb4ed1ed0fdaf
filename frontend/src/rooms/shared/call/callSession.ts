// A live room's call: the browser's RTCPeerConnection, one per other participant (a mesh,
// which for a 1:1 call plus a listener is at most two), signalled over the room's socket as
// `rtc.signal` messages (docs/events.md "Call signalling"). Framework-free like the room's
// session: React reads it with useSyncExternalStore (CallPanel), a test drives it alone.
//
// Signals (`data` of rtc.signal; every one carries the sender's `session`, a random id per
// open call, so two tabs of one user are two participants):
//   join   {listen_only, audio, video, reply?}  "I am in the call" (to everyone, again after
//          every reconnect); each participant answers once with `reply: true`, to the sender
//   sdp    {target, description}                an offer or answer, for one session
//   ice    {target, candidate}                  an ICE candidate, for one session
//   media  {audio, video}                       the sender muted or turned the camera off
//   leave  {}                                   the sender hung up
// Offers follow the "perfect negotiation" pattern (W3C WebRTC spec, §10.7): both sides may
// offer; on a collision the polite side (the lower session id) rolls back. A connection
// whose ICE fails, or stays disconnected, restarts ICE, as does every connection when the
// browser comes back online. A listener (`listenOnly`) sends no tracks: it only receives.
//
// Recording (a later step) attaches a MediaRecorder to `localStream` and each peer's
// `stream`; both are plain MediaStreams that outlive mute and device changes.
import type { IceServers } from "../../../api/client";
import { i18next } from "../../../i18n";
import type { ConnectionState, MessageOf, StageSocket } from "../../../ws/socket";

export type MediaState = "off" | "asking" | "on" | "refused" | "unavailable" | "listen-only" | "unsupported";

export interface CallPeer {
  session: string;
  user: string;
  listenOnly: boolean;
  /** RTCPeerConnection.iceConnectionState ("new" until ICE starts). */
  ice: RTCIceConnectionState;
  stream: MediaStream | null;
  /** The peer's own microphone / camera switches, as it last said. */
  audio: boolean;
  video: boolean;
}

export interface CallDevices {
  audio: MediaDeviceInfo[];
  video: MediaDeviceInfo[];
}

export interface CallSnapshot {
  media: MediaState;
  /** Why the microphone/camera are not on, and what to do about it (null when fine). */
  mediaProblem: string | null;
  audioOn: boolean;
  videoOn: boolean;
  localStream: MediaStream | null;
  peers: CallPeer[];
  devices: CallDevices;
  audioDevice: string | null;
  videoDevice: string | null;
}

export interface CallOptions {
  socket: StageSocket;
  me: string;
  listenOnly: boolean;
  iceServers: () => Promise<IceServers>;
  /** Defaults to navigator.mediaDevices (absent outside a secure context). */
  mediaDevices?: MediaDevices | null;
  createPeer?: (config: RTCConfiguration) => RTCPeerConnection;
  /** How long ICE may stay "disconnected" before it is restarted. */
  disconnectedRestartMs?: number;
  /** How long the connections of a user who left the room are kept. */
  leftGraceMs?: number;
}

type Signal = Record<string, unknown> & { kind: string; session: string };

interface Link {
  peer: CallPeer;
  pc: RTCPeerConnection;
  polite: boolean;
  makingOffer: boolean;
  ignoreOffer: boolean;
  senders: { audio: RTCRtpSender | null; video: RTCRtpSender | null };
  /** Whether our tracks go on this connection yet: at once on the side that offers first,
   * on the other side once that first offer is in (see `link`). */
  sending: boolean;
  restartTimer: ReturnType<typeof setTimeout> | null;
}

/** What to tell a person whose browser refused the microphone/camera (getUserMedia's error). */
export function mediaProblemText(error: unknown): { state: MediaState; text: string } {
  const name = error instanceof Error || (error && typeof error === "object" && "name" in error) ? String((error as Error).name) : "";
  if (name === "NotAllowedError" || name === "SecurityError") {
    return {
      state: "refused",
      text: i18next.t("rooms:media.blocked"),
    };
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return { state: "unavailable", text: i18next.t("rooms:media.notFound") };
  }
  if (name === "NotReadableError" || name === "AbortError") {
    return {
      state: "unavailable",
      text: i18next.t("rooms:media.inUse"),
    };
  }
  return { state: "unavailable", text: i18next.t("rooms:media.failed") };
}

function randomSession(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class CallSession {
  readonly session = randomSession();
  private readonly opts: CallOptions;
  private readonly media: MediaDevices | null;
  private links = new Map<string, Link>();
  private config: RTCConfiguration = { iceServers: [] };
  private configTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void)[] = [];
  private started = false;
  /** Bumped by every start and stop, so a start still waiting when stopped gives up. */
  private run = 0;
  private state: CallSnapshot;
  private readonly listeners = new Set<() => void>();
  private present = new Set<string>();
  /** Users who left the room, by the timer that forgets their connections. */
  private leaving = new Map<string, ReturnType<typeof setTimeout>>();
  private handling: Promise<void> = Promise.resolve();

  constructor(options: CallOptions) {
    this.opts = options;
    this.media =
      options.mediaDevices !== undefined ? options.mediaDevices : (globalThis.navigator?.mediaDevices ?? null);
    this.state = {
      media: options.listenOnly ? "listen-only" : "off",
      mediaProblem: null,
      audioOn: !options.listenOnly,
      videoOn: !options.listenOnly,
      localStream: null,
      peers: [],
      devices: { audio: [], video: [] },
      audioDevice: null,
      videoDevice: null,
    };
  }

  /** Whether this browser can hold a call at all (WebRTC present). */
  static supported(): boolean {
    return typeof globalThis.RTCPeerConnection === "function";
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): CallSnapshot => this.state;

  /** Join: fetch the ICE servers, start the microphone and camera (unless listening
   * only), and tell the room. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const run = ++this.run;
    const socket = this.opts.socket;
    this.unsubscribe.push(
      socket.on("rtc.signal", (message) => this.onSignal(message)),
      socket.onState((state) => this.onSocketState(state)),
    );
    window.addEventListener("online", this.onOnline);
    this.media?.addEventListener?.("devicechange", this.onDeviceChange);
    await this.loadConfig();
    if (run !== this.run) return;
    if (!this.opts.listenOnly) await this.startMedia();
    if (run !== this.run) return;
    this.announce();
  }

  /** Hang up: tell the others, close every connection, release the devices. */
  stop(): void {
    if (!this.started) return;
    this.send({ kind: "leave" });
    this.started = false;
    this.run += 1;
    for (const off of this.unsubscribe.splice(0)) off();
    for (const user of [...this.leaving.keys()]) this.stayed(user);
    window.removeEventListener("online", this.onOnline);
    this.media?.removeEventListener?.("devicechange", this.onDeviceChange);
    if (this.configTimer) clearTimeout(this.configTimer);
    for (const session of [...this.links.keys()]) this.dropLink(session);
    for (const track of this.state.localStream?.getTracks() ?? []) track.stop();
    this.update({ localStream: null, peers: [] });
  }

  /** The room's presence changed. A closed tab sends no `leave`, so the connections of a
   * user who left are forgotten — after a grace period: a websocket blip is not a hang-up,
   * and the call itself does not go through the socket. */
  setPresent(users: string[]): void {
    const present = new Set(users);
    for (const user of this.present) {
      if (present.has(user) || this.leaving.has(user)) continue;
      this.leaving.set(
        user,
        setTimeout(() => {
          this.leaving.delete(user);
          for (const link of [...this.links.values()]) if (link.peer.user === user) this.dropLink(link.peer.session);
        }, this.opts.leftGraceMs ?? 20_000),
      );
    }
    for (const user of present) this.stayed(user);
    this.present = present;
  }

  private stayed(user: string): void {
    const timer = this.leaving.get(user);
    if (timer) clearTimeout(timer);
    this.leaving.delete(user);
  }

  // --- the microphone and camera -------------------------------------------------------

  /** Ask for the microphone and camera (again, after a refusal). */
  readonly retryMedia = async (): Promise<void> => {
    if (this.opts.listenOnly) return;
    await this.startMedia();
    this.announce();
  };

  readonly setAudio = (on: boolean): void => {
    const track = this.state.localStream?.getAudioTracks()[0];
    if (track) track.enabled = on;
    // No track on the wire while muted: the other side receives nothing, not silence.
    for (const link of this.links.values()) void link.senders.audio?.replaceTrack(on && track ? track : null);
    this.update({ audioOn: on });
    this.send({ kind: "media", audio: on, video: this.state.videoOn });
  };

  readonly setVideo = async (on: boolean): Promise<void> => {
    const stream = this.state.localStream;
    if (!stream) return;
    const old = stream.getVideoTracks()[0];
    if (!on) {
      // The camera is released (its light goes off), not just blanked.
      if (old) {
        old.stop();
        stream.removeTrack(old);
      }
      for (const link of this.links.values()) void link.senders.video?.replaceTrack(null);
    } else if (!old) {
      const track = await this.newTrack("video", this.state.videoDevice);
      if (!track) return;
      stream.addTrack(track);
      for (const link of this.links.values()) this.sendTrack(link, track);
    }
    this.update({ videoOn: on, localStream: stream });
    this.send({ kind: "media", audio: this.state.audioOn, video: on });
  };

  /** Use another microphone or camera (a deviceId from `devices`). */
  readonly chooseDevice = async (kind: "audio" | "video", deviceId: string): Promise<void> => {
    const stream = this.state.localStream;
    this.update(kind === "audio" ? { audioDevice: deviceId } : { videoDevice: deviceId });
    if (!stream || (kind === "video" && !this.state.videoOn)) return;
    const track = await this.newTrack(kind, deviceId);
    if (!track) return;
    const old = kind === "audio" ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
    if (old) {
      old.stop();
      stream.removeTrack(old);
    }
    if (kind === "audio") track.enabled = this.state.audioOn;
    stream.addTrack(track);
    for (const link of this.links.values()) {
      const sender = link.senders[kind];
      if (sender) void sender.replaceTrack(kind === "audio" && !this.state.audioOn ? null : track);
      else this.sendTrack(link, track);
    }
    this.update({ localStream: stream });
  };

  private async newTrack(kind: "audio" | "video", deviceId: string | null): Promise<MediaStreamTrack | null> {
    if (!this.media) return null;
    const constraint = deviceId ? { deviceId: { exact: deviceId } } : true;
    try {
      const stream = await this.media.getUserMedia(kind === "audio" ? { audio: constraint } : { video: constraint });
      return (kind === "audio" ? stream.getAudioTracks() : stream.getVideoTracks())[0] ?? null;
    } catch (error) {
      const { text } = mediaProblemText(error);
      this.update({ mediaProblem: text });
      return null;
    }
  }

  private async startMedia(): Promise<void> {
    if (!this.media?.getUserMedia) {
      this.update({
        media: "unsupported",
        mediaProblem: i18next.t("rooms:media.insecure"),
      });
      return;
    }
    this.update({ media: "asking", mediaProblem: null });
    const run = this.run;
    let stream: MediaStream | null = null;
    let problem: { state: MediaState; text: string } | null = null;
    try {
      stream = await this.media.getUserMedia({ audio: true, video: true });
    } catch (error) {
      problem = mediaProblemText(error);
      if (problem.state !== "refused") {
        // No camera (or it is busy): a call with the microphone alone is still a call.
        try {
          stream = await this.media.getUserMedia({ audio: true });
          problem = { state: "on", text: "No camera: the others hear you but do not see you." };
        } catch {
          /* keep the first problem: it names the device that was asked for first */
        }
      }
    }
    if (run !== this.run) {
      for (const track of stream?.getTracks() ?? []) track.stop();
      return;
    }
    if (!stream) {
      this.update({ media: problem!.state, mediaProblem: problem!.text });
      return;
    }
    const audio = stream.getAudioTracks()[0];
    if (audio) audio.enabled = this.state.audioOn;
    const hasVideo = stream.getVideoTracks().length > 0;
    this.update({
      media: "on",
      mediaProblem: problem?.text ?? null,
      localStream: stream,
      videoOn: hasVideo,
      audioDevice: audio?.getSettings?.().deviceId ?? null,
      videoDevice: stream.getVideoTracks()[0]?.getSettings?.().deviceId ?? null,
    });
    for (const link of this.links.values()) for (const track of stream.getTracks()) this.sendTrack(link, track);
    await this.listDevices();
  }

  private async listDevices(): Promise<void> {
    if (!this.media?.enumerateDevices) return;
    const all = await this.media.enumerateDevices();
    this.update({
      devices: {
        audio: all.filter((d) => d.kind === "audioinput"),
        video: all.filter((d) => d.kind === "videoinput"),
      },
    });
  }

  private readonly onDeviceChange = (): void => {
    void this.listDevices();
  };

  // --- signalling ----------------------------------------------------------------------

  private send(data: Record<string, unknown>, to?: string): void {
    if (!this.started) return;
    this.opts.socket.send({ type: "rtc.signal", ...(to ? { to } : {}), data: { ...data, session: this.session } });
  }

  private announce(reply?: string): void {
    this.send(
      {
        kind: "join",
        listen_only: this.opts.listenOnly,
        audio: this.state.audioOn,
        video: this.state.videoOn,
        ...(reply ? { reply: true } : {}),
      },
      reply,
    );
  }

  private onSocketState(state: ConnectionState): void {
    // Signals sent while the socket was down are lost: say again that we are here; the
    // others answer, and connections that broke meanwhile restart their ICE.
    if (state === "live" && this.started) this.announce();
  }

  private onSignal(message: MessageOf<"rtc.signal">): void {
    const data = message.data as Signal;
    const from = message.from;
    if (!this.started || typeof data?.session !== "string" || data.session === this.session) return;
    if (typeof data.target === "string" && data.target !== this.session) return; // another tab's
    // One at a time, in the order they came: an ICE candidate must wait until the
    // description before it has been applied.
    this.handling = this.handling
      .then(() => this.handle(from, data))
      .catch((error: unknown) => console.warn("call signal failed", error));
  }

  private async handle(from: string, data: Signal): Promise<void> {
    const session = data.session;
    switch (data.kind) {
      case "join": {
        this.stayed(from);
        // A user's newest session wins: the one before it was a reloaded (or closed) tab.
        for (const link of [...this.links.values()]) {
          if (link.peer.user === from && link.peer.session !== session) this.dropLink(link.peer.session);
        }
        const known = this.links.get(session);
        const link = known ?? this.link(session, from, { remoteListenOnly: Boolean(data.listen_only) });
        this.setPeer(link, { listenOnly: Boolean(data.listen_only), audio: data.audio !== false, video: data.video !== false });
        if (!data.reply) this.announce(from);
        // Back after a reconnect: a connection that broke meanwhile starts over.
        const ice = link.pc.iceConnectionState;
        if (known && (ice === "failed" || ice === "disconnected")) link.pc.restartIce();
        return;
      }
      case "leave":
        this.dropLink(session);
        return;
      case "media": {
        const link = this.links.get(session);
        if (link) this.setPeer(link, { audio: data.audio !== false, video: data.video !== false });
        return;
      }
      case "sdp":
        await this.onDescription(
          this.links.get(session) ?? this.link(session, from, { answering: true }),
          data.description as RTCSessionDescriptionInit,
        );
        return;
      case "ice": {
        const link = this.links.get(session);
        if (!link) return;
        try {
          await link.pc.addIceCandidate(data.candidate as RTCIceCandidateInit);
        } catch (error) {
          if (!link.ignoreOffer) throw error;
        }
        return;
      }
    }
  }

  private async onDescription(link: Link, description: RTCSessionDescriptionInit): Promise<void> {
    const pc = link.pc;
    const collision = description.type === "offer" && (link.makingOffer || pc.signalingState !== "stable");
    link.ignoreOffer = !link.polite && collision;
    if (link.ignoreOffer) return;
    await pc.setRemoteDescription(description); // rolls our own offer back when polite
    if (description.type === "offer") {
      if (!link.sending) {
        // Our tracks join the offer's transceivers, so the answer sends them at once.
        link.sending = true;
        for (const track of this.state.localStream?.getTracks() ?? []) this.sendTrack(link, track);
      }
      await pc.setLocalDescription();
      this.send({ kind: "sdp", target: link.peer.session, description: pc.localDescription?.toJSON() }, link.peer.user);
    }
  }

  // --- connections ---------------------------------------------------------------------

  /**
   * A connection to another participant's session. One side offers first — the one with
   * the higher session id, unless it is answering an offer already — with its tracks, or
   * receive-only transceivers for the kinds it has none of (a listener, a refused camera);
   * the other adds its tracks to that offer's transceivers when it answers. Both offering
   * at once would be handled (perfect negotiation), but a rolled-back first offer can
   * leave Chromium without ICE candidates for the answer.
   */
  private link(
    session: string,
    user: string,
    { remoteListenOnly = false, answering = false }: { remoteListenOnly?: boolean; answering?: boolean } = {},
  ): Link {
    const create = this.opts.createPeer ?? ((config: RTCConfiguration) => new RTCPeerConnection(config));
    const pc = create(this.config);
    const link: Link = {
      peer: { session, user, listenOnly: false, ice: "new", stream: null, audio: true, video: true },
      pc,
      polite: this.session < session,
      makingOffer: false,
      ignoreOffer: false,
      senders: { audio: null, video: null },
      sending: !answering && this.session > session,
      restartTimer: null,
    };
    this.links.set(session, link);
    pc.onnegotiationneeded = async () => {
      try {
        link.makingOffer = true;
        await pc.setLocalDescription();
        this.send({ kind: "sdp", target: session, description: pc.localDescription?.toJSON() }, user);
      } catch (error) {
        console.warn("call offer failed", error);
      } finally {
        link.makingOffer = false;
      }
    };
    pc.onicecandidate = ({ candidate }) => {
      if (candidate) this.send({ kind: "ice", target: session, candidate: candidate.toJSON() }, user);
    };
    pc.oniceconnectionstatechange = () => this.onIceState(link);
    pc.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? link.peer.stream ?? new MediaStream();
      if (!stream.getTracks().includes(track)) stream.addTrack(track);
      this.setPeer(link, { stream });
    };
    if (link.sending && !(this.opts.listenOnly && remoteListenOnly)) {
      const stream = this.opts.listenOnly ? null : this.state.localStream;
      for (const kind of ["audio", "video"] as const) {
        const track = kind === "audio" ? stream?.getAudioTracks()[0] : stream?.getVideoTracks()[0];
        if (track) this.sendTrack(link, track);
        else pc.addTransceiver(kind, { direction: "recvonly" });
      }
    }
    this.publishPeers();
    return link;
  }

  private sendTrack(link: Link, track: MediaStreamTrack): void {
    const kind = track.kind === "audio" ? "audio" : "video";
    const stream = this.state.localStream;
    if (!stream || this.opts.listenOnly || !link.sending) return;
    const sender = link.senders[kind];
    const wire = kind === "audio" && !this.state.audioOn ? null : track;
    if (sender) void sender.replaceTrack(wire);
    else {
      link.senders[kind] = link.pc.addTrack(track, stream);
      if (!wire) void link.senders[kind]!.replaceTrack(null);
    }
  }

  private onIceState(link: Link): void {
    const state = link.pc.iceConnectionState;
    this.setPeer(link, { ice: state });
    if (link.restartTimer) clearTimeout(link.restartTimer);
    link.restartTimer = null;
    if (state === "failed") link.pc.restartIce();
    else if (state === "disconnected") {
      // Often a blip that heals by itself; if not, the network changed under us.
      link.restartTimer = setTimeout(() => {
        link.restartTimer = null;
        if (link.pc.iceConnectionState === "disconnected") link.pc.restartIce();
      }, this.opts.disconnectedRestartMs ?? 3000);
    }
  }

  private readonly onOnline = (): void => {
    for (const link of this.links.values()) link.pc.restartIce();
  };

  private dropLink(session: string): void {
    const link = this.links.get(session);
    if (!link) return;
    this.links.delete(session);
    if (link.restartTimer) clearTimeout(link.restartTimer);
    link.pc.onnegotiationneeded = link.pc.onicecandidate = link.pc.oniceconnectionstatechange = link.pc.ontrack = null;
    link.pc.close();
    this.publishPeers();
  }

  private setPeer(link: Link, change: Partial<CallPeer>): void {
    link.peer = { ...link.peer, ...change };
    this.publishPeers();
  }

  private publishPeers(): void {
    this.update({ peers: [...this.links.values()].map((l) => l.peer) });
  }

  private async loadConfig(): Promise<void> {
    try {
      const servers = await this.opts.iceServers();
      this.config = { iceServers: servers.ice_servers as RTCIceServer[] };
      for (const link of this.links.values()) link.pc.setConfiguration(this.config);
      // Fresh credentials before these expire, for the ICE restarts still to come.
      if (servers.ttl > 0 && this.started) {
        this.configTimer = setTimeout(() => void this.loadConfig(), Math.max(30, servers.ttl / 2) * 1000);
      }
    } catch (error) {
      // Without STUN/TURN a call still connects on one network; the others may relay.
      console.warn("could not load the ICE servers", error);
    }
  }

  private update(change: Partial<CallSnapshot>): void {
    this.state = { ...this.state, ...change };
    for (const listener of [...this.listeners]) listener();
  }
}
