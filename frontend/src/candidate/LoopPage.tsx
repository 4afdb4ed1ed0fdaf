import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";

import { api, describeError, type StageSummary } from "../api/client";
import { useMe } from "../auth/session";
import { coachState, soloLabel } from "../lib/coachedStage";
import { formatClock, formatDate, startClockQuestion } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";
import { schedulingApi, type Booking } from "../scheduling/api";
import { StageBooking } from "../scheduling/StageBooking";
import { useNow } from "../scheduling/useNow";
import { LoopProgress } from "./Dashboard";

const LOOP_POLL_MS = 5000;

function StageRow({
  stage,
  canDrive,
  liveElsewhere,
  booking,
  canBook,
  onError,
}: {
  stage: StageSummary;
  canDrive: boolean;
  /** The stage's booked session, if any (scheduling/). */
  booking: Booking | undefined;
  /** The loop's own candidate, in a coached loop: may book a session for this stage. */
  canBook: boolean;
  /** Another stage of the loop is live: only one runs at a time (the API answers 409). */
  liveElsewhere: StageSummary | undefined;
  onError: (e: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kindLabel = useStageKindLabel();
  const [busy, setBusy] = useState(false);
  const status = stage.status ?? "pending";

  const coach = coachState(stage);
  const now = useNow();
  // A booked stage's clock starts at the booked time (or when the coach starts it).
  const beforeBooking = canBook && booking !== undefined && now < Date.parse(booking.starts_at);

  async function start(solo = false) {
    const question = solo ? null : startClockQuestion(stage.minutes);
    if (question && !window.confirm(question)) return;
    setBusy(true);
    try {
      await api.stageStart(stage.id, { solo });
      navigate(`/stages/${stage.id}`);
    } catch (err) {
      onError(describeError(err));
      setBusy(false);
    }
  }

  return (
    <li className={`timeline-item status-${status}`} data-testid={`stage-${stage.kind}`}>
      <span className="timeline-dot" aria-hidden="true" />
      <div className="timeline-body">
        <div className="timeline-head">
          <h3>{stage.title}</h3>
          <span className={`badge status-${status}`}>{t(`common:stageStatus.${status}`)}</span>
        </div>
        <p className="small muted">
          {[
            kindLabel(stage.kind),
            t("candidate:stage.minutes", { minutes: stage.minutes }),
            status === "live" && t("candidate:clockLeft", { clock: formatClock(stage.time_remaining_ms) }),
            stage.coach && t("candidate:stage.coach", { coach: stage.coach }),
            status === "pending" && coach === "waiting" && t("candidate:stage.waitingForCoach"),
            status === "done" && stage.finished_at && t("candidate:stage.finished", { date: formatDate(stage.finished_at) }),
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
        <StageBooking stage={stage} booking={booking} canBook={canBook} onError={onError} />
      </div>
      <div className="timeline-actions">
        {status === "pending" && canDrive && coach === "waiting" && (
          <>
            <Link className="button primary" to={`/stages/${stage.id}`}>
              {t("candidate:stage.waitInRoom")}
            </Link>
            <button type="button" className="secondary" onClick={() => void start(true)} disabled={busy || liveElsewhere !== undefined}>
              {busy ? t("candidate:template.starting") : soloLabel()}
            </button>
          </>
        )}
        {status === "pending" && canDrive && coach !== "waiting" && (
          <>
            <button
              type="button"
              className="primary"
              onClick={() => void start()}
              disabled={busy || liveElsewhere !== undefined || beforeBooking}
              aria-describedby={liveElsewhere ? `live-elsewhere-${stage.id}` : beforeBooking ? `booked-later-${stage.id}` : undefined}
            >
              {busy ? t("candidate:template.starting") : t("candidate:stage.start")}
            </button>
            {beforeBooking && !liveElsewhere && (
              <span id={`booked-later-${stage.id}`} className="small muted booked-later">
                {t("candidate:stage.opensAtBooking")}
              </span>
            )}
            {liveElsewhere && (
              <span id={`live-elsewhere-${stage.id}`} className="small muted">
                {t("candidate:stage.finishFirst", { title: liveElsewhere.title })}
              </span>
            )}
          </>
        )}
        {status === "live" && (
          <Link className="button primary" to={`/stages/${stage.id}`}>
            {t("candidate:open")}
          </Link>
        )}
        {status === "done" && (
          <>
            <Link className="button secondary" to={`/stages/${stage.id}`}>
              {t("candidate:stage.review")}
            </Link>
            <Link className="button secondary" to={`/stages/${stage.id}/scorecard`}>
              {t("candidate:stage.scorecard")}
            </Link>
            <Link className="button secondary" to={`/stages/${stage.id}/replay`}>
              {t("candidate:stage.replay")}
            </Link>
          </>
        )}
      </div>
    </li>
  );
}

export function LoopPage() {
  const { t } = useTranslation();
  const { loopId } = useParams();
  const me = useMe();
  const loop = useAsync(() => api.loop(Number(loopId)), [loopId]);
  const bookings = useAsync(() => schedulingApi.bookings(), [loopId]);
  const [error, setError] = useState<string | null>(null);
  // While a stage waits for a coach, look again every few seconds: a claim shows here.
  const waiting = (loop.data?.stages ?? []).some((s) => s.status === "pending" && coachState(s) === "waiting");
  const reload = loop.reload;
  useEffect(() => {
    if (!waiting) return;
    const id = setInterval(() => void reload(), LOOP_POLL_MS);
    return () => clearInterval(id);
  }, [waiting, reload]);

  if (loop.error !== undefined) return <Problem error={loop.error} />;
  if (!loop.data) return <main id="main" className="page"><p className="muted">{t("common:loading")}</p></main>;
  const data = loop.data;
  const isOwner = data.candidate === me.username;

  return (
    <main id="main" className="page">
      <p className="crumbs">
        <Link to="/">{t("candidate:loop.crumb")}</Link> / {data.title}
      </p>
      <div className="page-head">
        <div>
          <h1>{data.title}</h1>
          <p className="muted">
            {data.coached ? t("candidate:loop.coached") : t("candidate:loop.solo")}
          </p>
        </div>
        <div className="stack end">
          <LoopProgress loop={data} />
          <Link className="button secondary small" to={`/loops/${data.id}/report`}>
            {t("candidate:loop.report")}
          </Link>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ol className="timeline" aria-label={t("candidate:loop.stages")}>
        {data.stages.map((stage) => (
          <StageRow
            key={stage.id}
            stage={stage}
            canDrive={isOwner || me.role === "admin"}
            liveElsewhere={data.stages.find((s) => s.status === "live" && s.id !== stage.id)}
            booking={(bookings.data ?? []).find((b) => b.stage === stage.id)}
            canBook={isOwner && Boolean(data.coached)}
            onError={setError}
          />
        ))}
      </ol>
    </main>
  );
}
