// Loads a live room the way docs/events.md prescribes — the stage over REST, the shared
// documents' merged state, then the socket with a resync — and keeps it current.
// The history up to the documents' `last_seq` comes over REST without the edits (the
// merged state already holds them) and without submission statuses (the submissions
// list has them, results included), so opening a long-running room does not replay
// every keystroke; the socket resyncs from `last_seq`.
//
// A room outlives network blips: once open, a failed reload of the stage keeps the stage
// it has, says so (`reloadProblem`) and tries again — with backoff, when the socket is live
// again, when the browser is back online. Only the opening itself can fail the page, and
// it too tries again by itself. A room whose socket the server refused (4403) is inert.
import { useCallback, useEffect, useRef, useState } from "react";

import { api, type StageDetail, type Submission } from "../../api/client";
import { type LoadProblem, nextProblem } from "../../lib/retry";
import { type SaveStatus, SharedDocs } from "../../ws/sharedDocs";
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

const RELOAD_ON = new Set(["follow_up", "stage.status", "stage.claimed"]);
/** What a room's REST history leaves out (see the top of this file). */
export const HISTORY_EXCLUDE = "doc.update,presence,submission.status";
const HISTORY_PAGE = 5000;

/** The logged events up to `lastSeq` a room shows, without edits, presence and verdicts. */
export async function loadHistory(stageId: number, lastSeq: number): Promise<StageMessage[]> {
  const out: StageMessage[] = [];
  let after = 0;
  while (after < lastSeq) {
    const page = (await api.stageEvents(stageId, { after, limit: HISTORY_PAGE, exclude: HISTORY_EXCLUDE })) as unknown as StageMessage[];
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

interface Reloads {
  /** Bumped by every reload (and when the room closes): only the newest one's answer counts. */
  generation: number;
  problem: LoadProblem | null;
  retry: ReturnType<typeof setTimeout> | null;
  refused: boolean;
}

export function useStageRoom(stageId: number, editable: boolean): StageRoomState {
  const [stage, setStage] = useState<StageDetail | null>(null);
  const [connection, setConnection] = useState<ConnectionState>("connecting");
  const [events, setEvents] = useState<StageMessage[]>([]);
  const [timer, setTimer] = useState<TimerState | null>(null);
  const [presence, setPresence] = useState<PresenceEntry[]>([]);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ pending: 0, savedSeq: 0, offline: true, error: null });
  const [synced, setSynced] = useState(false);
  const [syncedSeq, setSyncedSeq] = useState(Number.MAX_SAFE_INTEGER);
  const [lastError, setLastError] = useState<string | null>(null);
  const [parts, setParts] = useState<{ socket: StageSocket; docs: SharedDocs; submissions: Submission[] } | null>(null);
  const [reloadProblem, setReloadProblem] = useState<LoadProblem | null>(null);
  // A failed opening, for the stage it concerns (so another stage starts clean); bumping
  // `openAttempt` opens the room again.
  const [opening, setOpening] = useState<{ stageId: number; problem: LoadProblem } | null>(null);
  const openingRef = useRef(opening);
  const [openAttempt, setOpenAttempt] = useState(0);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloads = useRef<Reloads>({ generation: 0, problem: null, retry: null, refused: false });

  const showOpening = useCallback((next: { stageId: number; problem: LoadProblem } | null) => {
    openingRef.current = next;
    setOpening(next);
  }, []);

  const reloadStage = useCallback(
    async function reload(): Promise<void> {
      const r = reloads.current;
      if (r.refused) return;
      if (r.retry) clearTimeout(r.retry);
      r.retry = null;
      const mine = ++r.generation;
      try {
        const next = await api.stage(stageId);
        if (mine !== r.generation) return;
        setStage(next);
        // A status change (start, finish) resets the clock from the stage itself.
        setTimer((current) => (current && current.status === next.status ? current : timerFromStage(next)));
        r.problem = null;
        setReloadProblem(null);
      } catch (err) {
        if (mine !== r.generation || r.refused) return;
        const { problem, delayMs } = nextProblem(r.problem, err);
        r.problem = problem;
        setReloadProblem(problem);
        if (delayMs !== null) {
          r.retry = setTimeout(() => {
            r.retry = null;
            void reload();
          }, delayMs);
        }
      }
    },
    [stageId],
  );

  const retry = useCallback(() => {
    if (openingRef.current) setOpenAttempt((n) => n + 1);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let socket: StageSocket | null = null;
    let docs: SharedDocs | null = null;
    let initialSynced = false;
    let opened = false;
    let openRetry: ReturnType<typeof setTimeout> | null = null;
    const pendingEvents: StageMessage[] = [];
    let flushQueued = false;
    const reloadState = reloads.current;
    const stopReloads = () => {
      reloadState.generation += 1;
      if (reloadState.retry) clearTimeout(reloadState.retry);
      reloadState.retry = null;
      reloadState.problem = null;
    };
    stopReloads();
    reloadState.refused = false;

    const scheduleReload = () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => void reloadStage(), 50);
    };
    const pushEvent = (message: StageMessage) => {
      pendingEvents.push(message);
      if (flushQueued) return;
      flushQueued = true;
      queueMicrotask(() => {
        flushQueued = false;
        const batch = pendingEvents.splice(0);
        if (!cancelled && batch.length) setEvents((list) => [...list, ...batch]);
      });
    };
    // Back online: whatever failed for want of a network is worth trying now.
    const onOnline = () => {
      if (!opened && openingRef.current) setOpenAttempt((n) => n + 1);
      else if (opened && reloadState.problem) void reloadStage();
    };
    window.addEventListener("online", onOnline);

    setStage(null);
    setEvents([]);
    setSynced(false);
    setPresence([]);
    setConnection("connecting");
    setReloadProblem(null);
    // Opening again after a failure keeps the failure on screen, marked as being retried.
    const previous = openingRef.current;
    if (previous && previous.stageId !== stageId) showOpening(null);
    else if (previous) showOpening({ stageId, problem: { ...previous.problem, retryAt: Date.now() } });

    (async () => {
      try {
        const [detail, documents] = await Promise.all([api.stage(stageId), api.stageDocuments(stageId)]);
        if (cancelled) return;
        // Read after the documents, so both cover at least everything up to last_seq.
        const [history, submissions] = await Promise.all([
          loadHistory(stageId, documents.last_seq),
          api.stageSubmissions(stageId),
        ]);
        if (cancelled) return;
        opened = true;
        showOpening(null);
        setStage(detail);
        setTimer(timerFromStage(detail));
        setEvents(history);
        socket = new StageSocket({ url: stageSocketUrl(stageId), after: documents.last_seq });
        docs = new SharedDocs(socket, editable);
        docs.load(documents.documents, documents.last_seq);
        docs.onStatus(setSaveStatus);
        setSaveStatus(docs.status());
        const s = socket;
        const d = docs;
        s.onState((state) => {
          setConnection(state);
          d.connectionChanged();
          if (state === "refused") {
            // No reload would be allowed either, and nobody's presence is known any more.
            stopReloads();
            reloadState.refused = true;
            setReloadProblem(null);
            setPresence([]);
          } else if (state === "live" && reloadState.problem) {
            void reloadStage(); // reconnected: the network is back
          }
        });
        s.on("*", (message) => {
          if (d.handle(message)) return;
          switch (message.type) {
            case "hello":
              setPresence((message.presence as PresenceEntry[]) ?? []);
              if (message.timer) setTimer(timerFromMessage(message.timer as Record<string, unknown>));
              return;
            case "resync.done":
              if (!initialSynced) {
                initialSynced = true;
                setSynced(true);
                setSyncedSeq(s.lastSeq);
                scheduleReload();
              }
              return;
            case "error":
              setLastError(String(message.detail ?? "The server refused a message."));
              return;
            case "cursor":
            case "pong":
              return;
          }
          if (typeof message.seq !== "number") return;
          if (message.type === "presence") {
            if (initialSynced) {
              const user = String(message.user);
              setPresence((list) => {
                const others = list.filter((p) => p.user !== user);
                return message.state === "joined" ? [...others, { user, role: String(message.role) }] : others;
              });
            }
            return;
          }
          if (message.type === "timer" && initialSynced) setTimer(timerFromMessage(message));
          if (initialSynced && RELOAD_ON.has(message.type)) scheduleReload();
          pushEvent(message);
        });
        setParts({ socket: s, docs: d, submissions });
        s.start();
      } catch (err) {
        if (cancelled) return;
        const before = openingRef.current?.stageId === stageId ? openingRef.current.problem : null;
        const { problem, delayMs } = nextProblem(before, err);
        showOpening({ stageId, problem });
        if (delayMs !== null) openRetry = setTimeout(() => setOpenAttempt((n) => n + 1), delayMs);
      }
    })();

    return () => {
      cancelled = true;
      window.removeEventListener("online", onOnline);
      if (openRetry) clearTimeout(openRetry);
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      stopReloads();
      socket?.close();
      docs?.destroy();
      setParts(null);
    };
  }, [stageId, editable, openAttempt, reloadStage, showOpening]);

  // Unsaved-changes protection: edits not yet acknowledged by the server.
  useEffect(() => {
    if (!parts) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (parts.docs.pending > 0) {
        event.preventDefault();
        event.returnValue = "";
      }
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [parts]);

  const problem = opening && opening.stageId === stageId ? opening.problem : null;
  if (!stage || !parts || !timer) return { room: null, problem, retry };
  return {
    room: {
      stage,
      reloadStage,
      socket: parts.socket,
      docs: parts.docs,
      connection,
      events,
      initialSubmissions: parts.submissions,
      timer,
      presence,
      saveStatus,
      synced,
      syncedSeq,
      lastError,
      reloadProblem,
      refused: connection === "refused",
    },
    problem: null,
    retry,
  };
}
