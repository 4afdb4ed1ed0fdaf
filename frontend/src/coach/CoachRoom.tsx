import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { api, type CoachNote, describeError, type StageQuestionCoach } from "../api/client";
import { useMe } from "../auth/session";
import { formatDateTime } from "../i18n/format";
import { followUpTrigger } from "../lib/format";
import type { StageKinds } from "../lib/stageKinds";
import { useUnreadChats } from "../rooms/shared/ChatDock";
import { describeSignal } from "../rooms/shared/hooks";
import { Markdown } from "../rooms/shared/Markdown";
import { RoomLoader, RoomShell } from "../rooms/shared/RoomShell";
import { type Room, roomActive } from "../rooms/shared/useStageRoom";
import { ChatPanel } from "../rooms/shared/widgets";
import { ScorecardForm } from "./ScorecardForm";

function useAction() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (err) {
      setError(describeError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

/** A note's or a signal's time of day, in the interface's language. */
function timeOfDay(iso: string | null | undefined): string {
  return formatDateTime(iso, { hour: "2-digit", minute: "2-digit" });
}

function FollowUpsPanel({ room }: { room: Room }) {
  const { t } = useTranslation();
  const questions = room.stage.questions as StageQuestionCoach[];
  const [text, setText] = useState("");
  const { error, busy, run } = useAction();
  const live = roomActive(room);

  async function pushText(event: FormEvent) {
    event.preventDefault();
    if (await run(() => api.pushFollowUp(room.stage.id, { text }))) setText("");
  }

  return (
    <div className="panel-body">
      {questions.map((q) => (
        <div key={q.id}>
          {questions.length > 1 && <h3 className="small">{q.title}</h3>}
          {(q.follow_ups ?? []).length === 0 && <p className="muted small">{t("coach:followUps.none")}</p>}
          <ol className="coach-follow-ups">
            {(q.follow_ups ?? []).map((f) => (
              <li key={f.id} className={f.pushed ? "pushed" : ""} data-testid={`follow-up-${f.position}`}>
                <div className="follow-up-head">
                  <span className="small muted">
                    #{f.position} · {followUpTrigger(f.trigger, f.after_minutes)}
                    {f.unlocks_part ? ` · ${t("coach:followUps.unlocks", { part: f.unlocks_part })}` : ""}
                  </span>
                  {f.pushed ? (
                    <span className="badge status-done">{t("coach:followUps.pushed")}</span>
                  ) : (
                    <button
                      type="button"
                      className="primary small"
                      disabled={busy || !live}
                      onClick={() => void run(() => api.pushFollowUp(room.stage.id, { follow_up: f.id }).then(room.reloadStage))}
                    >
                      {t("coach:followUps.push")}
                    </button>
                  )}
                </div>
                <Markdown source={f.prompt} className="small" />
                {f.coach_notes && (
                  <details>
                    <summary className="small">{t("coach:followUps.coachNotes")}</summary>
                    <Markdown source={f.coach_notes} className="small coach-notes" />
                  </details>
                )}
              </li>
            ))}
          </ol>
        </div>
      ))}
      <form onSubmit={pushText} className="stack">
        <label>
          {t("coach:followUps.freeText")}
          <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} disabled={!live} />
        </label>
        <button type="submit" className="secondary small" disabled={busy || !text.trim() || !live}>
          {t("coach:followUps.pushText")}
        </button>
      </form>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function NotesPanel({ room }: { room: Room }) {
  const { t } = useTranslation();
  const [notes, setNotes] = useState<CoachNote[]>([]);
  const [text, setText] = useState("");
  const { error, busy, run } = useAction();
  const noteEvents = room.events.filter((e) => e.type === "note");

  useEffect(() => {
    api.notes(room.stage.id).then(setNotes, () => undefined);
  }, [room.stage.id, noteEvents.length]);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (await run(() => api.noteCreate(room.stage.id, text))) setText("");
  }

  return (
    <div className="panel-body">
      <p className="small muted">{t("coach:notes.private")}</p>
      <ul className="notes-list">
        {notes.map((n) => (
          <li key={n.id}>
            <span className="small muted">
              {n.author} · {timeOfDay(n.created_at)}
            </span>
            <p>{n.text}</p>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="stack">
        <label className="sr-only" htmlFor="note-text">
          {t("coach:notes.new")}
        </label>
        <textarea
          id="note-text"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t("coach:notes.placeholder")}
          disabled={room.refused}
        />
        <button type="submit" className="secondary small" disabled={busy || !text.trim() || room.refused}>
          {t("coach:notes.add")}
        </button>
      </form>
      {error && <p className="error small">{error}</p>}
    </div>
  );
}

function SignalsPanel({ room }: { room: Room }) {
  const { t } = useTranslation();
  const signals = room.events.filter((e) => e.type === "integrity");
  return (
    <div className="panel-body">
      <p className="small muted">{t("coach:signals.help")}</p>
      {signals.length === 0 && <p className="muted small">{t("coach:signals.none")}</p>}
      <ul className="signal-log" data-testid="integrity-log">
        {signals.map((e) => (
          <li key={e.seq}>
            <span className="small muted">{timeOfDay(e.at)}</span> {describeSignal(e)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Extend the clock by a chosen number of minutes (1–120, as the server allows). */
export function ExtendClock({ stageId }: { stageId: number }) {
  const { t } = useTranslation();
  const { error, busy, run } = useAction();
  const [minutes, setMinutes] = useState(5);
  const valid = Number.isInteger(minutes) && minutes >= 1 && minutes <= 120;
  return (
    <form
      className="inline extend-clock"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void run(() => api.timer(stageId, "extend", minutes));
      }}
    >
      <label className="sr-only" htmlFor="extend-minutes">
        {t("coach:clock.minutesToAdd")}
      </label>
      <input
        id="extend-minutes"
        type="number"
        min={1}
        max={120}
        value={Number.isNaN(minutes) ? "" : minutes}
        onChange={(e) => setMinutes(e.target.valueAsNumber)}
        className="minutes-input"
      />
      <button type="submit" className="secondary small" disabled={busy || !valid}>
        {t("coach:clock.extend")}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** Give the stage back to the queue, or to another coach (by username): either way this
 * coach's room closes (the server refuses its socket once the stage is not theirs). */
function HandOverControls({ room }: { room: Room }) {
  const { t } = useTranslation();
  const { error, busy, run } = useAction();
  const [to, setTo] = useState("");
  if (room.refused || room.stage.status === "done" || !room.stage.coach) return null;
  return (
    <details className="hand-over">
      <summary className="small">{t("coach:handOver.summary")}</summary>
      <div className="stack">
        <button
          type="button"
          className="secondary small"
          disabled={busy}
          onClick={() => {
            if (window.confirm(t("coach:handOver.releaseConfirm"))) void run(() => api.release(room.stage.id));
          }}
        >
          {t("coach:handOver.release")}
        </button>
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            if (to.trim()) void run(() => api.handOver(room.stage.id, to.trim()));
          }}
        >
          <label className="small">
            {t("coach:handOver.to")} <input value={to} onChange={(e) => setTo(e.target.value)} placeholder={t("coach:handOver.username")} />
          </label>
          <button type="submit" className="secondary small" disabled={busy || !to.trim()}>
            {t("coach:handOver.button")}
          </button>
        </form>
        {error && (
          <span className="error small" role="alert">
            {error}
          </span>
        )}
      </div>
    </details>
  );
}

function TimerControls({ room }: { room: Room }) {
  const { t } = useTranslation();
  const { error, busy, run } = useAction();
  if (!roomActive(room)) return null;
  return (
    <>
      {room.timer.paused ? (
        <button type="button" className="secondary small" disabled={busy} onClick={() => void run(() => api.timer(room.stage.id, "resume"))}>
          {t("coach:clock.resume")}
        </button>
      ) : (
        <button type="button" className="secondary small" disabled={busy} onClick={() => void run(() => api.timer(room.stage.id, "pause"))}>
          {t("coach:clock.pause")}
        </button>
      )}
      <ExtendClock stageId={room.stage.id} />
      <button
        type="button"
        className="danger small"
        disabled={busy}
        onClick={() => {
          if (window.confirm(t("coach:clock.finishConfirm"))) void run(() => api.stageFinish(room.stage.id).then(room.reloadStage));
        }}
      >
        {t("coach:clock.finish")}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** A claimed stage whose clock has not started: the coach starts it when both are ready
 * (the candidate may too). */
function PendingNotice({ room, candidateHere }: { room: Room; candidateHere: boolean }) {
  const { t } = useTranslation();
  const { error, busy, run } = useAction();
  return (
    <div className="notice start-notice" data-testid="coach-pending">
      <span>
        {t("coach:pending.notice", { here: String(candidateHere) })}
      </span>{" "}
      <button
        type="button"
        className="primary small"
        disabled={busy}
        onClick={() => void run(() => api.stageStart(room.stage.id).then(room.reloadStage))}
      >
        {t("coach:pending.start")}
      </button>
      {error && (
        <span className="error small" role="alert">
          {" "}
          {error}
        </span>
      )}
    </div>
  );
}

type Tab = "follow-ups" | "chat" | "notes" | "signals" | "scorecard";

/** A coach watching a stage that is not theirs (joined with "Shadow"): sees and hears the
 * room, acts on nothing (the server refuses it anyway). Admins keep their coach tools. */
export function isShadowing(room: Room, me: { username: string; role: string }): boolean {
  return me.role !== "admin" && me.username !== room.stage.coach;
}

function CoachSide({ room }: { room: Room }) {
  const { t } = useTranslation();
  const me = useMe();
  const shadowing = isShadowing(room, me);
  const [tab, setTab] = useState<Tab>(shadowing ? "chat" : "follow-ups");
  const signals = room.events.filter((e) => e.type === "integrity").length;
  const unread = useUnreadChats(room.events, me.username, tab === "chat", room.syncedSeq);
  const tabs: [Tab, string][] = [
    ["follow-ups", t("coach:tabs.followUps")],
    ["chat", t("coach:tabs.chat", { count: unread })],
    ["notes", t("coach:tabs.notes")],
    ["signals", t("coach:tabs.signals", { count: signals })],
    ["scorecard", t("coach:tabs.scorecard")],
  ].filter(([key]) => !shadowing || key === "chat") as [Tab, string][];
  return (
    <aside className="room-side coach-side" aria-label={t("coach:tabs.label")}>
      <div className="tabs" role="tablist">
        {tabs.map(([key, label]) => (
          <button key={key} type="button" role="tab" aria-selected={tab === key} className={`tab ${tab === key ? "active" : ""}`} onClick={() => setTab(key)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="coach-panel">
        {tab === "follow-ups" && <FollowUpsPanel room={room} />}
        {tab === "chat" && (
          <ChatPanel stageId={room.stage.id} events={room.events} me={me.username} closed={room.stage.status === "done" || room.refused} />
        )}
        {tab === "notes" && <NotesPanel room={room} />}
        {tab === "signals" && <SignalsPanel room={room} />}
        {tab === "scorecard" && <ScorecardForm stageId={room.stage.id} rubric={room.stage.rubric} disabled={room.refused} />}
      </div>
    </aside>
  );
}

function CoachRoomView({ room, kinds }: { room: Room; kinds: StageKinds }) {
  const { t } = useTranslation();
  const answersSaved = room.events.filter((e) => e.type === "answer.saved").length;
  const reload = room.reloadStage;
  useEffect(() => {
    if (answersSaved) void reload();
  }, [answersSaved, reload]);
  const candidateHere = room.presence.some((p) => p.user === room.stage.candidate);
  const shadowing = isShadowing(room, useMe());
  const actions = (
    <>
      {shadowing && (
        <span className="badge status-pending" data-testid="shadowing">
          {t("coach:room.shadowing")}
        </span>
      )}
      {!room.refused && (
        <span className={`small ${candidateHere ? "ok" : "muted"}`}>
          {t("coach:room.presence", { candidate: room.stage.candidate, here: String(candidateHere) })}
        </span>
      )}
      {!shadowing && <TimerControls room={room} />}
      {!shadowing && <HandOverControls room={room} />}
      {room.stage.status === "done" && !room.refused && (
        <Link className="button secondary small" to={`/stages/${room.stage.id}/replay`}>
          {t("coach:home.replay")}
        </Link>
      )}
    </>
  );
  const notices = room.stage.status === "pending" && !room.refused && !shadowing && <PendingNotice room={room} candidateHere={candidateHere} />;

  return (
    <RoomShell room={room} kinds={kinds} className="coach-room" testId="coach-room" actions={actions} notices={notices}>
      {(_spec, view) => (
        <div className="room-body with-side">
          <div className="room-main">
            <view.Workspace room={room} editable={false} />
          </div>
          <CoachSide room={room} />
        </div>
      )}
    </RoomShell>
  );
}

export function CoachRoomPage() {
  const { stageId } = useParams();
  return (
    <RoomLoader stageId={Number(stageId)} editable={false}>
      {(room, kinds) => <CoachRoomView room={room} kinds={kinds} />}
    </RoomLoader>
  );
}
