// The one websocket client of a live room (docs/events.md): connects to
// /ws/stages/{id}/, resyncs from the last applied `seq` on every (re)connect, applies
// events strictly in `seq` order (duplicates dropped, early ones held while a resync
// fills the gap), reconnects with jittered exponential backoff unless the server refused
// the room, and fans messages out on a small event bus.

import type { ClientMessage, LoggedEvent, ServerMessage } from "./events.gen";

/** A message from the server: a logged event (with `seq`) or an unlogged one (`hello`,
 * `resync.done`, `cursor`, `pong`, `error`), as declared in events.gen.ts. */
export type StageMessage = ServerMessage;
export type StageMessageType = StageMessage["type"];
/** The message of one type, e.g. `MessageOf<"follow_up">`. */
export type MessageOf<T extends StageMessageType> = Extract<StageMessage, { type: T }>;

/**
 * - connecting: first attempt in flight
 * - syncing: socket open, replaying missed events
 * - live: caught up; events arrive as they happen
 * - reconnecting: the socket dropped, a retry is scheduled
 * - refused: the server closed with 4403 (not allowed); no retry
 * - signed-out: the server closed with 4401 (logout, expired token); no retry, sign in again
 * - closed: closed by us
 */
export type ConnectionState =
  | "connecting"
  | "syncing"
  | "live"
  | "reconnecting"
  | "refused"
  | "signed-out"
  | "closed";

type Handler = (message: StageMessage) => void;
type StateHandler = (state: ConnectionState) => void;

export interface SocketLike {
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}

export interface StageSocketOptions {
  url: string;
  /** Resync from this sequence number on the first connect (0: the whole log). */
  after?: number;
  createSocket?: (url: string) => SocketLike;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** 0..1; jitter spreads reconnects of many clients after a server restart. */
  random?: () => number;
  /** Ping period; a missing pong after `pingTimeoutMs` forces a reconnect. 0 disables. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}

export const REFUSED_CODE = 4403;
export const SIGNED_OUT_CODE = 4401;
const OPEN = 1;

export function stageSocketUrl(stageId: number, location: Location = window.location): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/stages/${stageId}/`;
}

export class StageSocket {
  lastSeq: number;
  state: ConnectionState = "connecting";
  /** How many reconnects happened (for tests and the status badge's tooltip). */
  reconnects = 0;

  private socket: SocketLike | null = null;
  private handlers = new Map<string, Set<Handler>>();
  private stateHandlers = new Set<StateHandler>();
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private resyncing = false;
  /** Events that arrived past a gap, by seq, held until the gap is filled. */
  private pending = new Map<number, LoggedEvent>();
  private stopped = false;
  private readonly opts: Required<Omit<StageSocketOptions, "after">>;

  constructor(options: StageSocketOptions) {
    this.lastSeq = options.after ?? 0;
    this.opts = {
      url: options.url,
      createSocket: options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike),
      initialBackoffMs: options.initialBackoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      random: options.random ?? Math.random,
      pingIntervalMs: options.pingIntervalMs ?? 20_000,
      pingTimeoutMs: options.pingTimeoutMs ?? 10_000,
    };
  }

  start(): this {
    this.stopped = false;
    this.connect();
    return this;
  }

  /** Subscribe to one message type ("*" for all); returns the unsubscribe function. */
  on<T extends StageMessageType>(type: T, handler: (message: MessageOf<T>) => void): () => void;
  on(type: "*", handler: Handler): () => void;
  on(type: string, handler: Handler): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onState(handler: StateHandler): () => void {
    this.stateHandlers.add(handler);
    return () => this.stateHandlers.delete(handler);
  }

  get isLive(): boolean {
    return this.state === "live";
  }

  /** Send now if the socket is open; false when it is not (the caller decides to queue). */
  send(message: ClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000);
    }
    this.setState("closed");
  }

  /** Drop the connection as if the network did (tests, and the ping watchdog). */
  drop(): void {
    this.socket?.close(4000);
  }

  private connect(): void {
    if (this.stopped) return;
    this.setState(this.reconnects === 0 && this.attempt === 0 ? "connecting" : "reconnecting");
    let socket: SocketLike;
    try {
      socket = this.opts.createSocket(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.setState("syncing");
      this.requestResync();
      this.startPing();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      let message: StageMessage;
      try {
        // The server checks every message against the declarations events.gen.ts is
        // generated from (interviews/realtime/event_types.py).
        message = JSON.parse(String(event.data)) as StageMessage;
      } catch {
        return;
      }
      this.receive(message);
    };
    socket.onerror = () => {
      /* onclose follows and schedules the retry */
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      this.resyncing = false;
      this.pending.clear(); // the next connection's resync sends them again
      if (event.code === REFUSED_CODE) {
        this.stopped = true;
        this.setState("refused");
        return;
      }
      if (event.code === SIGNED_OUT_CODE) {
        this.stopped = true;
        this.setState("signed-out");
        return;
      }
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  private requestResync(): void {
    this.resyncing = true;
    this.send({ type: "resync", after: this.lastSeq });
  }

  private receive(message: StageMessage): void {
    if (message.type === "pong") {
      if (this.pongTimer) clearTimeout(this.pongTimer);
      this.pongTimer = null;
    }
    if (message.seq !== undefined) {
      if (message.seq <= this.lastSeq) return; // already applied (resync overlap, echo)
      this.pending.set(message.seq, message);
      this.applyPending();
      return;
    }
    if (message.type === "resync.done") {
      this.resyncing = false;
      this.attempt = 0;
      this.applyPending(message.last_seq);
      this.setState("live");
    }
    this.emit(message);
  }

  /**
   * Apply held events in seq order: the next one, and any up to `sentUpTo` — the server
   * has sent everything up to there, so the seqs we never got are events this viewer may
   * not see (private). The server does not send an event twice on one connection, so
   * whatever is still held past a gap is kept, and a resync asks for what lies before it.
   */
  private applyPending(sentUpTo = 0): void {
    for (const seq of [...this.pending.keys()].sort((a, b) => a - b)) {
      if (seq > Math.max(this.lastSeq + 1, sentUpTo)) break;
      const message = this.pending.get(seq)!;
      this.pending.delete(seq);
      this.lastSeq = seq;
      this.emit(message);
    }
    this.lastSeq = Math.max(this.lastSeq, sentUpTo);
    if (this.pending.size && !this.resyncing) this.requestResync();
  }

  private emit(message: StageMessage): void {
    for (const key of [message.type, "*"]) {
      const set = this.handlers.get(key);
      if (!set) continue;
      for (const handler of [...set]) {
        try {
          handler(message);
        } catch (error) {
          console.error("stage socket handler failed", error);
        }
      }
    }
  }

  private scheduleReconnect(): void {
    this.reconnects += 1;
    this.setState("reconnecting");
    const base = Math.min(this.opts.maxBackoffMs, this.opts.initialBackoffMs * 2 ** this.attempt);
    const delay = Math.round(base * (0.5 + this.opts.random() / 2));
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private startPing(): void {
    if (!this.opts.pingIntervalMs) return;
    this.pingTimer = setInterval(() => {
      if (!this.send({ type: "ping", ref: Date.now() })) return;
      if (this.pongTimer) return;
      this.pongTimer = setTimeout(() => this.drop(), this.opts.pingTimeoutMs);
    }, this.opts.pingIntervalMs);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.retryTimer = this.pingTimer = this.pongTimer = null;
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const handler of [...this.stateHandlers]) handler(state);
  }
}
