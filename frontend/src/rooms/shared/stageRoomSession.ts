// One live room, opened the way docs/events.md prescribes — the stage over REST, the shared
// documents' merged state, then the socket with a resync — and kept current. It owns the
// socket, the documents and the room's state; React reads it with useSyncExternalStore
// (`useStageRoom`), a test drives it without React.
//
// The history up to the documents' `last_seq` comes over REST without the edits (the
// merged state already holds them) and without submission statuses (the submissions
// list has them, results included), so opening a long-running room does not replay
// every keystroke; the socket resyncs from `last_seq`.
//
// A room outlives network blips: once open, a failed reload of the stage keeps the stage
// it has, says so (`reloadProblem`) and tries again — with backoff, when the socket is live
// again, when the browser is back online. Only the opening itself can fail the page, and
// it too tries again by itself. A room whose socket the server refused (4403) is inert.
import { api, type StageDetail, type Submission } from "../../api/client";
import { i18next } from "../../i18n";
import { type LoadProblem, nextProblem } from "../../lib/retry";
import { type SaveStatus, SharedDocs } from "../../ws/sharedDocs";
import { reportSignedOut } from "../../api/client";
import { type ConnectionState, type StageMessage, StageSocket, stageSocketUrl } from "../../ws/socket";

export interface TimerState {
  remainingMs: number;
  paused: boolean;
  /** performance.now() when remainingMs was measured. */
  at: number;
  status: string;
}

export interface PresenceEntry {
  user: string;
  role: string;
}

export interface Room {
  stage: StageDetail;
  /** Fetch the stage again. Never rejects: a failure keeps the stage the room has, sets
   * `reloadProblem` and is retried by itself. */
  reloadStage: () => Promise<void>;
  socket: StageSocket;
  docs: SharedDocs;
  connection: ConnectionState;
  /** Logged events (with seq) other than document edits, in order. Before the socket's
   * resync point, also without presence and submission statuses. */
  events: StageMessage[];
  /** The stage's submissions when the room opened, newest first (with results). */
  initialSubmissions: Submission[];
  timer: TimerState;
  presence: PresenceEntry[];
  saveStatus: SaveStatus;
  /** True once the first resync finished (history replayed). */
  synced: boolean;
  /** The seq at the end of the first resync: events after it arrived live. */
  syncedSeq: number;
  lastError: string | null;
  /** The last reload of the stage failed (the room shows the stage it had); null again
   * once a reload succeeds. */
  reloadProblem: LoadProblem | null;
  /** The server refused this viewer the room (socket closed with 4403, e.g. the stage was
   * handed to another coach): it will not reconnect, so nothing in the room may act on
   * the stage or claim to be live any more. */
  refused: boolean;
}

export interface StageRoomState {
  room: Room | null;
  /** The failed opening (its error, how often, when it is tried again by itself); null
   * while it opens and once it is open. */
  problem: LoadProblem | null;
  /** Try opening the room again now (after a failed opening; otherwise nothing). */
  retry: () => void;
}

const RELOAD_ON = new Set(["follow_up", "stage.status", "stage.claimed", "stage.released"]);
/** What a room's REST history leaves out (see the top of this file). */
export const HISTORY_EXCLUDE = "doc.update,presence,submission.status";
const HISTORY_PAGE = 5000;
/** A burst of events that each call for a reload (start, claim, follow-up) makes one. */
const RELOAD_DEBOUNCE_MS = 50;

/** The logged events up to `lastSeq` a room shows, without edits, presence and verdicts. */
export async function loadHistory(stageId: number, lastSeq: number): Promise<StageMessage[]> {
  const out: StageMessage[] = [];
  let after = 0;
  while (after < lastSeq) {
    const page = await api.stageEvents(stageId, { after, limit: HISTORY_PAGE, exclude: HISTORY_EXCLUDE });
    for (const event of page) if ((event.seq ?? 0) <= lastSeq) out.push(event);
    if (page.length < HISTORY_PAGE) break;
    after = page[page.length - 1]!.seq ?? lastSeq;
  }
  return out;
}

/** Whether the viewer may act on the stage now: it is live and the room was not refused. */
export function roomActive(room: Room): boolean {
  return room.stage.status === "live" && !room.refused;
}

export function timerFromStage(stage: StageDetail): TimerState {
  return {
    remainingMs: stage.time_remaining_ms,
    paused: stage.status === "live" && !stage.deadline,
    at: performance.now(),
    status: stage.status ?? "pending",
  };
}

export function timerFromMessage(payload: Record<string, unknown>): TimerState {
  return {
    remainingMs: Number(payload.remaining_ms ?? 0),
    paused: Boolean(payload.paused),
    at: performance.now(),
    status: String(payload.status ?? "live"),
  };
}

interface State {
  stage: StageDetail | null;
  connection: ConnectionState;
  events: StageMessage[];
  timer: TimerState | null;
  presence: PresenceEntry[];
  saveStatus: SaveStatus;
  synced: boolean;
  syncedSeq: number;
  lastError: string | null;
  parts: { socket: StageSocket; docs: SharedDocs; submissions: Submission[] } | null;
  reloadProblem: LoadProblem | null;
  /** The failed opening; kept (marked as being retried) while the room opens again. */
  openProblem: LoadProblem | null;
}

/** One try at opening the room and, once it opened, everything it started. */
interface Attempt {
  cancelled: boolean;
  opened: boolean;
  socket: StageSocket | null;
  docs: SharedDocs | null;
  retry: ReturnType<typeof setTimeout> | null;
  initialSynced: boolean;
  pendingEvents: StageMessage[];
  flushQueued: boolean;
}

export class StageRoomSession {
  readonly stageId: number;
  readonly editable: boolean;

  private state: State = {
    stage: null,
    connection: "connecting",
    events: [],
    timer: null,
    presence: [],
    saveStatus: { pending: 0, savedSeq: 0, offline: true, error: null },
    synced: false,
    syncedSeq: Number.MAX_SAFE_INTEGER,
    lastError: null,
    parts: null,
    reloadProblem: null,
    openProblem: null,
  };
  private snapshot: StageRoomState;
  private readonly listeners = new Set<() => void>();
  private attempt: Attempt | null = null;
  // Reloads of the stage: only the newest one's answer counts (each bumps `generation`,
  // as does closing), a failed one is retried after `reloadRetry`.
  private generation = 0;
  private reloadFailure: LoadProblem | null = null;
  private reloadRetry: ReturnType<typeof setTimeout> | null = null;
  private reloadSoon: ReturnType<typeof setTimeout> | null = null;
  private refused = false;
  private isOpen = false;

  constructor({ stageId, editable }: { stageId: number; editable: boolean }) {
    this.stageId = stageId;
    this.editable = editable;
    this.snapshot = this.buildSnapshot();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): StageRoomState => this.snapshot;

  /** Start opening the room (again, after `close`). */
  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    window.addEventListener("online", this.onOnline);
    window.addEventListener("beforeunload", this.onBeforeUnload);
    this.startAttempt();
  }

  /** Close the socket and the documents; the room is gone until `open` again. */
  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("beforeunload", this.onBeforeUnload);
    this.endAttempt();
    this.update({ parts: null });
  }

  readonly retry = (): void => {
    if (this.isOpen && this.state.openProblem) this.startAttempt();
  };

  readonly reloadStage = async (): Promise<void> => {
    if (this.refused) return;
    if (this.reloadRetry) clearTimeout(this.reloadRetry);
    this.reloadRetry = null;
    const mine = ++this.generation;
    try {
      const next = await api.stage(this.stageId);
      if (mine !== this.generation) return;
      const current = this.state.timer;
      this.reloadFailure = null;
      this.update({
        stage: next,
        // A status change (start, finish) resets the clock from the stage itself.
        timer: current && current.status === next.status ? current : timerFromStage(next),
        reloadProblem: null,
      });
    } catch (err) {
      if (mine !== this.generation || this.refused) return;
      const { problem, delayMs } = nextProblem(this.reloadFailure, err);
      this.reloadFailure = problem;
      this.update({ reloadProblem: problem });
      if (delayMs !== null) {
        this.reloadRetry = setTimeout(() => {
          this.reloadRetry = null;
          void this.reloadStage();
        }, delayMs);
      }
    }
  };

  // --- opening ---------------------------------------------------------------------------

  private startAttempt(): void {
    this.endAttempt();
    this.refused = false;
    const attempt: Attempt = {
      cancelled: false,
      opened: false,
      socket: null,
      docs: null,
      retry: null,
      initialSynced: false,
      pendingEvents: [],
      flushQueued: false,
    };
    this.attempt = attempt;
    const previous = this.state.openProblem;
    this.update({
      stage: null,
      events: [],
      synced: false,
      presence: [],
      connection: "connecting",
      reloadProblem: null,
      parts: null,
      // Opening again after a failure keeps the failure on screen, marked as being retried.
      openProblem: previous ? { ...previous, retryAt: Date.now() } : null,
    });
    void this.load(attempt);
  }

  private endAttempt(): void {
    const attempt = this.attempt;
    this.attempt = null;
    this.stopReloads();
    if (this.reloadSoon) clearTimeout(this.reloadSoon);
    this.reloadSoon = null;
    if (!attempt) return;
    attempt.cancelled = true;
    if (attempt.retry) clearTimeout(attempt.retry);
    attempt.socket?.close();
    attempt.docs?.destroy();
  }

  private async load(attempt: Attempt): Promise<void> {
    const stageId = this.stageId;
    try {
      const [detail, documents] = await Promise.all([api.stage(stageId), api.stageDocuments(stageId)]);
      if (attempt.cancelled) return;
      // Read after the documents, so both cover at least everything up to last_seq.
      const [history, submissions] = await Promise.all([loadHistory(stageId, documents.last_seq), api.stageSubmissions(stageId)]);
      if (attempt.cancelled) return;
      attempt.opened = true;
      const socket = new StageSocket({ url: stageSocketUrl(stageId), after: documents.last_seq });
      // Everyone who may draw sends their whiteboard strokes (the server decides who may:
      // the candidate and the stage's coach); only the candidate's other edits count.
      const docs = new SharedDocs(socket, this.editable ? true : (name) => name.startsWith("scene:"));
      attempt.socket = socket;
      attempt.docs = docs;
      docs.load(documents.documents, documents.last_seq);
      docs.onStatus((saveStatus) => {
        if (!attempt.cancelled) this.update({ saveStatus });
      });
      socket.onState((state) => this.onSocketState(attempt, state));
      socket.on("*", (message) => this.onMessage(attempt, message));
      this.update({
        openProblem: null,
        stage: detail,
        timer: timerFromStage(detail),
        events: history,
        saveStatus: docs.status(),
        parts: { socket, docs, submissions },
      });
      socket.start();
    } catch (err) {
      if (attempt.cancelled) return;
      const { problem, delayMs } = nextProblem(this.state.openProblem, err);
      this.update({ openProblem: problem });
      if (delayMs !== null) attempt.retry = setTimeout(() => this.startAttempt(), delayMs);
    }
  }

  // --- the socket ------------------------------------------------------------------------

  private onSocketState(attempt: Attempt, state: ConnectionState): void {
    if (attempt.cancelled) return;
    this.update({ connection: state });
    attempt.docs?.connectionChanged();
    if (state === "refused") {
      // No reload would be allowed either, and nobody's presence is known any more.
      this.stopReloads();
      this.refused = true;
      this.update({ reloadProblem: null, presence: [] });
    } else if (state === "signed-out") {
      // Logout elsewhere or an expired sign-in: the app sends the user to sign in again.
      this.stopReloads();
      this.update({ reloadProblem: null, presence: [] });
      reportSignedOut();
    } else if (state === "live" && this.reloadFailure) {
      void this.reloadStage(); // reconnected: the network is back
    }
  }

  private onMessage(attempt: Attempt, message: StageMessage): void {
    if (attempt.cancelled || attempt.docs?.handle(message)) return;
    switch (message.type) {
      case "hello": {
        const timer = message.timer ? timerFromMessage(message.timer as Record<string, unknown>) : this.state.timer;
        this.update({ presence: (message.presence as PresenceEntry[]) ?? [], timer });
        return;
      }
      case "resync.done":
        if (!attempt.initialSynced) {
          attempt.initialSynced = true;
          this.update({ synced: true, syncedSeq: attempt.socket?.lastSeq ?? 0 });
          this.scheduleReload();
        }
        return;
      case "error":
        this.update({ lastError: String(message.detail ?? i18next.t("rooms:refusedMessage")) });
        return;
      case "cursor":
      case "pong":
        return;
    }
    if (typeof message.seq !== "number") return;
    if (message.type === "presence") {
      if (attempt.initialSynced) {
        const user = String(message.user);
        const others = this.state.presence.filter((p) => p.user !== user);
        this.update({ presence: message.state === "joined" ? [...others, { user, role: String(message.role) }] : others });
      }
      return;
    }
    if (message.type === "timer" && attempt.initialSynced) this.update({ timer: timerFromMessage(message) });
    if (attempt.initialSynced && RELOAD_ON.has(message.type)) this.scheduleReload();
    this.pushEvent(attempt, message);
  }

  /** Events arriving together (a resync's burst) land in the room as one change. */
  private pushEvent(attempt: Attempt, message: StageMessage): void {
    attempt.pendingEvents.push(message);
    if (attempt.flushQueued) return;
    attempt.flushQueued = true;
    queueMicrotask(() => {
      attempt.flushQueued = false;
      const batch = attempt.pendingEvents.splice(0);
      if (!attempt.cancelled && batch.length) this.update({ events: [...this.state.events, ...batch] });
    });
  }

  // --- reloads and the browser -----------------------------------------------------------

  private scheduleReload(): void {
    if (this.reloadSoon) clearTimeout(this.reloadSoon);
    this.reloadSoon = setTimeout(() => void this.reloadStage(), RELOAD_DEBOUNCE_MS);
  }

  private stopReloads(): void {
    this.generation += 1;
    if (this.reloadRetry) clearTimeout(this.reloadRetry);
    this.reloadRetry = null;
    this.reloadFailure = null;
  }

  /** Back online: whatever failed for want of a network is worth trying now. */
  private readonly onOnline = (): void => {
    const attempt = this.attempt;
    if (!attempt) return;
    if (!attempt.opened && this.state.openProblem) this.startAttempt();
    else if (attempt.opened && this.reloadFailure) void this.reloadStage();
  };

  /** Unsaved-changes protection: edits not yet acknowledged by the server. */
  private readonly onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if ((this.state.parts?.docs.pending ?? 0) > 0) {
      event.preventDefault();
      event.returnValue = "";
    }
  };

  // --- the snapshot ----------------------------------------------------------------------

  private update(change: Partial<State>): void {
    this.state = { ...this.state, ...change };
    this.snapshot = this.buildSnapshot();
    for (const listener of [...this.listeners]) listener();
  }

  private buildSnapshot(): StageRoomState {
    const s = this.state;
    if (!s.stage || !s.parts || !s.timer) return { room: null, problem: s.openProblem, retry: this.retry };
    return {
      room: {
        stage: s.stage,
        reloadStage: this.reloadStage,
        socket: s.parts.socket,
        docs: s.parts.docs,
        connection: s.connection,
        events: s.events,
        initialSubmissions: s.parts.submissions,
        timer: s.timer,
        presence: s.presence,
        saveStatus: s.saveStatus,
        synced: s.synced,
        syncedSeq: s.syncedSeq,
        lastError: s.lastError,
        reloadProblem: s.reloadProblem,
        refused: s.connection === "refused",
      },
      problem: null,
      retry: this.retry,
    };
  }
}
