// Loads a live room the way docs/events.md prescribes — the stage over REST, the shared
// documents' merged state, then the socket with a resync — and keeps it current.
// The history up to the documents' `last_seq` comes over REST without the edits (the
// merged state already holds them) and without submission statuses (the submissions
// list has them, results included), so opening a long-running room does not replay
// every keystroke; the socket resyncs from `last_seq`.
import { useCallback, useEffect, useRef, useState } from "react";

import { api, type StageDetail, type Submission } from "../../api/client";
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

export function useStageRoom(
  stageId: number,
  editable: boolean,
): { room: Room | null; error: unknown } {
  const [stage, setStage] = useState<StageDetail | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [connection, setConnection] = useState<ConnectionState>("connecting");
  const [events, setEvents] = useState<StageMessage[]>([]);
  const [timer, setTimer] = useState<TimerState | null>(null);
  const [presence, setPresence] = useState<PresenceEntry[]>([]);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ pending: 0, savedSeq: 0, offline: true, error: null });
  const [synced, setSynced] = useState(false);
  const [syncedSeq, setSyncedSeq] = useState(Number.MAX_SAFE_INTEGER);
  const [lastError, setLastError] = useState<string | null>(null);
  const [parts, setParts] = useState<{ socket: StageSocket; docs: SharedDocs; submissions: Submission[] } | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const reloadStage = useCallback(async () => {
    try {
      const next = await api.stage(stageId);
      setStage(next);
      // A status change (start, finish) resets the clock from the stage itself.
      setTimer((current) => (current && current.status === next.status ? current : timerFromStage(next)));
    } catch (err) {
      setError(err);
    }
  }, [stageId]);

  useEffect(() => {
    let cancelled = false;
    let socket: StageSocket | null = null;
    let docs: SharedDocs | null = null;
    let initialSynced = false;
    const pendingEvents: StageMessage[] = [];
    let flushQueued = false;

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

    setStage(null);
    setEvents([]);
    setSynced(false);
    setError(undefined);

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
        if (!cancelled) setError(err);
      }
    })();

    return () => {
      cancelled = true;
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      socket?.close();
      docs?.destroy();
      setParts(null);
    };
  }, [stageId, editable, reloadStage]);

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

  if (!stage || !parts || !timer) return { room: null, error };
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
    },
    error,
  };
}
