import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { api, describeError, type QueueEntry } from "../api/client";
import { useMe } from "../auth/session";
import { formatDateTime, formatNumber } from "../i18n/format";
import { formatClock } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { UpcomingSessions } from "../scheduling/UpcomingSessions";

/** The queue is polled (there is no per-user socket to push it): a new entry shows within
 * this long, with an alert (docs/decisions.md). */
const QUEUE_POLL_MS = 5000;
/** The alert names this many new entries (a coached loop queues all its live rounds). */
const ALERT_NAMES = 3;

function formatWhen(iso: string): string {
  return formatDateTime(iso, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Entries that appeared since the page first loaded the queue (not those there at first),
 * until they leave it. Idempotent per `entries` (it only records ids), so safe in render. */
export function useNewQueueEntries(entries: QueueEntry[] | undefined): QueueEntry[] {
  const seen = useRef<Set<number> | null>(null);
  const arrived = useRef(new Set<number>());
  return useMemo(() => {
    if (!entries) return [];
    if (seen.current === null) {
      seen.current = new Set(entries.map((e) => e.id));
      return [];
    }
    for (const e of entries) {
      if (!seen.current.has(e.id)) {
        seen.current.add(e.id);
        arrived.current.add(e.id);
      }
    }
    return entries.filter((e) => arrived.current.has(e.id));
  }, [entries]);
}

export function CoachHome() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const kindLabel = useStageKindLabel();
  const queue = useAsync(() => api.coachQueue(), []);
  const loops = useAsync(() => api.loops(), []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const fresh = useNewQueueEntries(queue.data);
  const reloadQueue = queue.reload;
  useEffect(() => {
    const id = setInterval(() => void reloadQueue(), QUEUE_POLL_MS);
    return () => clearInterval(id);
  }, [reloadQueue]);
  useEffect(() => {
    const before = document.title;
    if (fresh.length) document.title = `(${fresh.length}) ${before.replace(/^\(\d+\) /, "")}`;
    return () => {
      document.title = before;
    };
  }, [fresh.length]);

  const mine = (loops.data ?? []).flatMap((loop) =>
    loop.stages.filter((s) => s.coach === me.username).map((s) => ({ ...s, loopTitle: loop.title, candidate: loop.candidate })),
  );
  const active = mine.filter((s) => s.status !== "done");
  const finished = mine.filter((s) => s.status === "done");
  const unscored = finished.filter((s) => !s.scorecard_submitted);

  async function claim(id: number) {
    setBusy(id);
    setError(null);
    try {
      await api.claim(id);
      navigate(`/coach/stages/${id}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(null);
      void queue.reload();
    }
  }

  return (
    <main id="main" className="page">
      <div className="page-head">
        <h1>{t("coach:home.title")}</h1>
        <button type="button" className="secondary small" onClick={() => { void queue.reload(); void loops.reload(); }}>
          {t("coach:home.refresh")}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <UpcomingSessions side="coach" />
      <section aria-labelledby="queue-title">
        <h2 id="queue-title">
          {t("coach:home.waiting")}{" "}
          {fresh.length > 0 && (
            <span className="badge status-live" data-testid="queue-new">
              {t("coach:home.newCount", { count: fresh.length })}
            </span>
          )}
        </h2>
        {fresh.length > 0 && (
          <p className="notice" role="alert" data-testid="queue-alert">
            {t("coach:home.newInQueue", {
              names: fresh
                .slice(0, ALERT_NAMES)
                .map((e) => `${e.candidate} · ${e.title}`)
                .join(t("coach:home.namesSeparator")),
              more: Math.max(0, fresh.length - ALERT_NAMES),
            })}
          </p>
        )}
        {queue.error !== undefined && <p className="error">{describeError(queue.error)}</p>}
        {queue.data && queue.data.length === 0 && <p className="muted">{t("coach:home.nobody")}</p>}
        <table className="table" data-testid="coach-queue">
          <thead>
            <tr>
              <th scope="col">{t("coach:home.candidate")}</th>
              <th scope="col">{t("coach:home.stage")}</th>
              <th scope="col">{t("coach:home.loop")}</th>
              <th scope="col">{t("coach:home.status")}</th>
              <th scope="col">{t("coach:home.since")}</th>
              <th scope="col" className="nowrap">{t("coach:home.timeLeft")}</th>
              <th scope="col"><span className="sr-only">{t("coach:home.actions")}</span></th>
            </tr>
          </thead>
          <tbody>
            {(queue.data ?? []).map((entry) => (
              <tr key={entry.id} className={fresh.some((e) => e.id === entry.id) ? "row-new" : undefined}>
                <td>{entry.candidate}</td>
                <td>
                  {entry.title} <span className="muted small">· {kindLabel(entry.kind)}</span>
                </td>
                <td>{entry.loop_title}</td>
                <td>
                  <span className={`badge status-${entry.status}`}>{t("coach:stageStatus", { status: entry.status })}</span>
                  {entry.status === "pending" && <span className="muted small"> · {t("coach:home.clockWaits")}</span>}
                </td>
                <td>{formatWhen(entry.loop_started_at)}</td>
                <td className="nowrap">{entry.status === "live" ? formatClock(entry.time_remaining_ms) : formatNumber(entry.minutes, { style: "unit", unit: "minute", unitDisplay: "short" })}</td>
                <td>
                  <button type="button" className="primary small" onClick={() => void claim(entry.id)} disabled={busy !== null}>
                    {busy === entry.id ? t("coach:home.claiming") : t("coach:home.claim")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <ShadowForm />
      <section aria-labelledby="mine-title">
        <h2 id="mine-title">{t("coach:home.mine")}</h2>
        {loops.data && active.length === 0 && <p className="muted">{t("coach:home.noneClaimed")}</p>}
        <ul className="loop-list">
          {active.map((s) => (
            <li key={s.id} className="card loop-row">
              <div>
                <Link to={`/coach/stages/${s.id}`} className="loop-title">
                  {s.candidate} · {s.title}
                </Link>
                <p className="small muted">
                  {s.loopTitle} · {kindLabel(s.kind)}
                </p>
              </div>
              <span className={`badge status-${s.status}`}>{t("coach:stageStatus", { status: s.status })}</span>
            </li>
          ))}
        </ul>
        {unscored.length > 0 && (
          <div className="notice" data-testid="unscored">
            <strong>{t("coach:home.unscored", { count: unscored.length })}</strong> {t("coach:home.unscoredWhy")}
            <ul className="plain">
              {unscored.map((s) => (
                <li key={s.id}>
                  <Link to={`/coach/stages/${s.id}`}>
                    {s.candidate} · {s.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
        {finished.length > 0 && (
          <details>
            <summary>{t("coach:home.finished", { count: finished.length })}</summary>
            <ul className="plain">
              {finished.map((s) => (
                <li key={s.id}>
                  <Link to={`/coach/stages/${s.id}`}>
                    {s.candidate} · {s.title}
                  </Link>{" "}
                  · <Link to={`/stages/${s.id}/replay`}>{t("coach:home.replay")}</Link> · <Link to={`/loops/${s.loop}/report`}>{t("coach:home.report")}</Link>
                  {!s.scorecard_submitted && <span className="badge status-pending"> {t("coach:home.noScorecard")}</span>}
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
    </main>
  );
}

/** Join a colleague's live interview as a shadow (watch and listen, act on nothing): by the
 * stage's number or its room link, as the colleague shares it. */
function ShadowForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [target, setTarget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = Number(/(\d+)\/?$/.exec(target.trim())?.[1] ?? NaN);

  async function shadow(event: FormEvent) {
    event.preventDefault();
    if (!Number.isInteger(id)) return;
    setBusy(true);
    setError(null);
    try {
      await api.shadow(id);
      navigate(`/coach/stages/${id}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="shadow-title">
      <h2 id="shadow-title">{t("coach:shadow.title")}</h2>
      <form className="inline" onSubmit={shadow}>
        <label className="small">
          {t("coach:shadow.target")} <input value={target} onChange={(e) => setTarget(e.target.value)} placeholder={t("coach:shadow.placeholder")} />
        </label>
        <button type="submit" className="secondary small" disabled={busy || !Number.isInteger(id)}>
          {t("coach:shadow.button")}
        </button>
        <span className="muted small">{t("coach:shadow.help")}</span>
      </form>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
