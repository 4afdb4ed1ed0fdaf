import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router";

import { ApiError, api, describeError, NetworkError } from "../../api/client";
import { formatClock, formatTime } from "../../lib/format";
import { type LoadProblem, useSecondsUntil } from "../../lib/retry";
import { useFollowUpText } from "../../ws/followUpText";
import { saveLabel, type SaveStatus } from "../../ws/sharedDocs";
import type { ConnectionState, StageMessage } from "../../ws/socket";
import type { Room, TimerState } from "./useStageRoom";

export function remainingNow(timer: TimerState, now = performance.now()): number {
  if (timer.paused || timer.status !== "live") return timer.remainingMs;
  return Math.max(0, timer.remainingMs - (now - timer.at));
}

/** The stage clock. `stale`: no longer kept in step with the server (a refused room), so
 * shown muted rather than as the live clock. */
export function Countdown({ timer, stale = false }: { timer: TimerState; stale?: boolean }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(id);
  }, []);
  const left = remainingNow(timer);
  const low = timer.status === "live" && left < 5 * 60_000;
  const label =
    timer.status === "done" ? "Finished" : timer.status === "pending" ? "Not started" : formatClock(left);
  return (
    <span
      className={`countdown ${low && !stale ? "low" : ""} ${timer.paused ? "paused" : ""} ${stale ? "stale" : ""}`}
      role="timer"
      aria-label={`Time left ${label}${timer.paused ? " (paused)" : ""}${stale ? " (no longer updated)" : ""}`}
      title={stale ? "The last clock this room knew; it is no longer updated." : undefined}
      data-testid="countdown"
    >
      {label}
      {timer.paused && <span className="small"> · paused</span>}
    </span>
  );
}

const CONNECTION_LABEL: Record<ConnectionState, string> = {
  connecting: "Connecting…",
  syncing: "Syncing…",
  live: "Live",
  reconnecting: "Reconnecting…",
  refused: "Not allowed",
  "signed-out": "Signed out",
  closed: "Offline",
};

export function ConnectionBadge({ state }: { state: ConnectionState }) {
  const ok = state === "live";
  return (
    <span className={`conn conn-${state}`} role="status" aria-live="polite" data-testid="connection">
      <span className="dot" aria-hidden="true" />
      {ok ? "Live" : CONNECTION_LABEL[state]}
    </span>
  );
}

/** The server refused the room's socket (4403): it will not reconnect, so say why and where to go. */
export function RefusedNotice() {
  return (
    <p className="error room-refused" role="alert" data-testid="room-refused">
      You no longer have access to this stage. <Link to="/">Go back to your dashboard.</Link>
    </p>
  );
}

function reloadReason(error: unknown): string {
  if (error instanceof NetworkError) return "the server can't be reached";
  if (error instanceof ApiError && error.status >= 500) return "the server had a problem";
  return describeError(error).replace(/\.$/, "");
}

/** A reload of the stage failed: the room goes on with what it has, and says so — small,
 * out of the way, with when it tries again and a way to try now. */
export function ReloadNotice({ problem, onRetry }: { problem: LoadProblem; onRetry: () => void }) {
  const seconds = useSecondsUntil(problem.retryAt);
  const next = seconds > 0 ? ` Retrying in ${seconds} s.` : " Retrying…";
  return (
    <div className="notice small reload-notice" role="status" data-testid="room-reload-failed">
      <span>
        Couldn't refresh the stage: {reloadReason(problem.error)}. You see what was loaded before.
        {problem.retryAt !== null && (
          <>
            {/* The countdown ticks every second: a live region would read each tick out. */}
            <span className="sr-only"> It is retried automatically.</span>
            <span aria-hidden="true">{next}</span>
          </>
        )}
      </span>
      <button type="button" className="link" onClick={onRetry}>
        Retry now
      </button>
    </div>
  );
}

/** The room-wide notices under the header. A refused room says only that. */
export function RoomNotices({ room }: { room: Room }) {
  if (room.refused) return <RefusedNotice />;
  if (room.reloadProblem) return <ReloadNotice problem={room.reloadProblem} onRetry={() => void room.reloadStage()} />;
  return null;
}

/** What a watcher (the coach, or anyone once the room is refused) sees in place of the save status. */
export function ReadOnlyLabel({ room }: { room: Room }) {
  const label = room.refused ? "Read-only · no access" : room.stage.status === "live" ? "Read-only · live" : "Read-only";
  return (
    <span className="muted small" data-testid="read-only">
      {label}
    </span>
  );
}

export function SaveIndicator({ status }: { status: SaveStatus }) {
  const label = saveLabel(status);
  const kind = status.error ? "error" : status.pending ? (status.offline ? "offline" : "saving") : "saved";
  return (
    <span
      className={`save save-${kind}`}
      aria-live="polite"
      data-testid="save-status"
      title={status.savedSeq ? `Saved up to event ${status.savedSeq} of the room's log` : undefined}
    >
      {label}
    </span>
  );
}

export function FollowUpBanners({ events }: { events: StageMessage[] }) {
  const followUps = events.filter((e) => e.type === "follow_up");
  const [dismissed, setDismissed] = useState<Set<number>>(new Set());
  const textOf = useFollowUpText();
  const visible = followUps.filter((f) => !dismissed.has(f.seq)).slice(-2);
  if (!visible.length) return null;
  return (
    <div className="banners">
      {visible.map((f) => (
        <div key={f.seq} className="banner follow-up-banner" role="alert" data-testid="follow-up-banner">
          <strong>Follow-up{f.unlocks_part ? ` · part ${f.unlocks_part} unlocked` : ""}</strong>
          <p>{textOf(f)}</p>
          <button
            type="button"
            className="link"
            aria-label="Dismiss follow-up"
            onClick={() => setDismissed((s) => new Set(s).add(f.seq))}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

export function ChatPanel({
  stageId,
  events,
  me,
  closed,
  notepad = false,
}: {
  stageId: number;
  events: StageMessage[];
  me: string;
  closed: boolean;
  /** A solo stage: nobody else reads it, so it is named for what it is. */
  notepad?: boolean;
}) {
  const messages = events.filter((e) => e.type === "chat");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [messages.length]);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setError(null);
    try {
      await api.chat(stageId, text);
      setText("");
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <section className="panel chat" aria-labelledby="chat-title">
      <h2 id="chat-title">{notepad ? "Notepad" : "Chat"}</h2>
      {notepad && <p className="muted small">Only you read this: the interviewer is scripted.</p>}
      <ol className="chat-list" ref={listRef} aria-live="polite">
        {messages.length === 0 && <li className="muted small">{notepad ? "No notes yet." : "No messages yet."}</li>}
        {messages.map((m) => (
          <li key={m.seq} className={m.actor === me ? "mine" : ""}>
            <span className="chat-meta">
              {m.actor ?? "Mockloop"} · {formatTime(m.at)}
            </span>
            <span className="chat-text">{m.text}</span>
          </li>
        ))}
      </ol>
      {!closed && (
        <form onSubmit={send} className="chat-form">
          <label className="sr-only" htmlFor={`chat-input-${stageId}`}>
            Message
          </label>
          <input
            id={`chat-input-${stageId}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={notepad ? "A note to yourself…" : "Message…"}
            maxLength={4000}
          />
          <button type="submit" className="secondary small">
            {notepad ? "Add" : "Send"}
          </button>
        </form>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
