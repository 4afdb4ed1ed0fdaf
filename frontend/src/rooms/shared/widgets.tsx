import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { ApiError, api, describeError, NetworkError } from "../../api/client";
import { i18next } from "../../i18n";
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
  const { t } = useTranslation();
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(id);
  }, []);
  const left = remainingNow(timer);
  const low = timer.status === "live" && left < 5 * 60_000;
  const label =
    timer.status === "done"
      ? t("rooms:clock.finished")
      : timer.status === "pending"
        ? t("rooms:clock.notStarted")
        : formatClock(left);
  return (
    <span
      className={`countdown ${low && !stale ? "low" : ""} ${timer.paused ? "paused" : ""} ${stale ? "stale" : ""}`}
      role="timer"
      aria-label={t("rooms:clock.label", { label, paused: String(Boolean(timer.paused)), stale: String(stale) })}
      title={stale ? t("rooms:clock.stale") : undefined}
      data-testid="countdown"
    >
      {label}
      {timer.paused && <span className="small"> · {t("rooms:clock.paused")}</span>}
    </span>
  );
}

export function ConnectionBadge({ state }: { state: ConnectionState }) {
  const { t } = useTranslation();
  return (
    <span className={`conn conn-${state}`} role="status" aria-live="polite" data-testid="connection">
      <span className="dot" aria-hidden="true" />
      {t(`rooms:connection.${state}`)}
    </span>
  );
}

/** The server refused the room's socket (4403): it will not reconnect, so say why and where to go. */
export function RefusedNotice() {
  const { t } = useTranslation();
  return (
    <p className="error room-refused" role="alert" data-testid="room-refused">
      {t("rooms:refused.text")} <Link to="/">{t("rooms:refused.back")}</Link>
    </p>
  );
}

function reloadReason(error: unknown): string {
  if (error instanceof NetworkError) return i18next.t("rooms:reload.unreachable");
  if (error instanceof ApiError && error.status >= 500) return i18next.t("rooms:reload.server");
  return describeError(error).replace(/\.$/, "");
}

/** A reload of the stage failed: the room goes on with what it has, and says so — small,
 * out of the way, with when it tries again and a way to try now. */
export function ReloadNotice({ problem, onRetry }: { problem: LoadProblem; onRetry: () => void }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(problem.retryAt);
  const next = seconds > 0 ? t("rooms:reload.in", { seconds }) : t("rooms:reload.now");
  return (
    <div className="notice small reload-notice" role="status" data-testid="room-reload-failed">
      <span>
        {t("rooms:reload.text", { reason: reloadReason(problem.error) })}
        {problem.retryAt !== null && (
          <>
            {/* The countdown ticks every second: a live region would read each tick out. */}
            <span className="sr-only"> {t("rooms:reload.auto")}</span>
            <span aria-hidden="true"> {next}</span>
          </>
        )}
      </span>
      <button type="button" className="link" onClick={onRetry}>
        {t("rooms:reload.retry")}
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
  const { t } = useTranslation();
  const label = room.refused
    ? t("rooms:readOnly.noAccess")
    : room.stage.status === "live"
      ? t("rooms:readOnly.live")
      : t("rooms:readOnly.plain");
  return (
    <span className="muted small" data-testid="read-only">
      {label}
    </span>
  );
}

export function SaveIndicator({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  const label = saveLabel(status);
  const kind = status.error ? "error" : status.pending ? (status.offline ? "offline" : "saving") : "saved";
  return (
    <span
      className={`save save-${kind}`}
      aria-live="polite"
      data-testid="save-status"
      title={status.savedSeq ? t("rooms:autosave.savedUpTo", { seq: status.savedSeq }) : undefined}
    >
      {label}
    </span>
  );
}

export function FollowUpBanners({ events }: { events: StageMessage[] }) {
  const { t } = useTranslation();
  const followUps = events.filter((e) => e.type === "follow_up");
  const [dismissed, setDismissed] = useState<Set<number>>(new Set());
  const textOf = useFollowUpText();
  const visible = followUps.filter((f) => !dismissed.has(f.seq)).slice(-2);
  if (!visible.length) return null;
  return (
    <div className="banners">
      {visible.map((f) => (
        <div key={f.seq} className="banner follow-up-banner" role="alert" data-testid="follow-up-banner">
          <strong>
            {f.unlocks_part ? t("rooms:banner.followUpUnlocked", { part: f.unlocks_part }) : t("rooms:banner.followUp")}
          </strong>
          <p>{textOf(f)}</p>
          <button
            type="button"
            className="link"
            aria-label={t("rooms:banner.dismissLabel")}
            onClick={() => setDismissed((s) => new Set(s).add(f.seq))}
          >
            {t("rooms:banner.dismiss")}
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
  const { t } = useTranslation();
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
      <h2 id="chat-title">{notepad ? t("rooms:page.notepad") : t("rooms:page.chat")}</h2>
      {notepad && <p className="muted small">{t("rooms:chat.notepadNote")}</p>}
      <ol className="chat-list" ref={listRef} aria-live="polite">
        {messages.length === 0 && <li className="muted small">{notepad ? t("rooms:chat.noNotes") : t("rooms:chat.noMessages")}</li>}
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
            {t("rooms:chat.message")}
          </label>
          <input
            id={`chat-input-${stageId}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={notepad ? t("rooms:chat.notePlaceholder") : t("rooms:chat.messagePlaceholder")}
            maxLength={4000}
          />
          <button type="submit" className="secondary small">
            {notepad ? t("rooms:chat.add") : t("rooms:chat.send")}
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
