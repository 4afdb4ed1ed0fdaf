// The two-week plan (issue #19): each day's practice stages with what the candidate has
// done of them, today's day, and what to repeat from the weakest rubric dimensions. The
// server reads progress from the candidate's own stages; this page only shows it.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useParams } from "react-router";

import { api, describeError, type StudyPlan, type StudyPlanDay, type StudyPlanPractice } from "../api/client";
import { useMe } from "../auth/session";
import { UntranslatedNote } from "../candidate/FeedbackLanguage";
import { matchLanguage } from "../i18n";
import { formatDateTime, formatNumber } from "../i18n/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { Markdown } from "../rooms/shared/Markdown";

/** `/plan`: the first published plan (the bank ships one). */
export function PlanIndexPage() {
  const { t } = useTranslation();
  const plans = useAsync(() => api.plans(), []);
  if (plans.error !== undefined) return <main id="main" className="page"><p className="error">{describeError(plans.error)}</p></main>;
  if (!plans.data) return <main id="main" className="page"><p className="muted">{t("plan:loading")}</p></main>;
  const first = plans.data[0];
  if (!first) return <main id="main" className="page"><h1>{t("plan:heading")}</h1><p className="muted">{t("plan:none")}</p></main>;
  return <Navigate to={`/plan/${first.slug}`} replace />;
}

export function PlanPage() {
  const { slug = "" } = useParams();
  const { t, i18n } = useTranslation();
  // The plan as the last start/restart returned it, until the slug or language changes.
  const [plan, setPlan] = useState<{ value: StudyPlan; language: string } | null>(null);
  const loaded = useAsync(() => api.plan(slug), [slug, i18n.language]);
  const shown = plan && plan.value.slug === slug && plan.language === i18n.language ? plan.value : loaded.data;

  if (loaded.error !== undefined) {
    return (
      <main id="main" className="page">
        <p className="error">{describeError(loaded.error)}</p>
      </main>
    );
  }
  if (!shown) {
    return (
      <main id="main" className="page">
        <p className="muted">{t("plan:loading")}</p>
      </main>
    );
  }
  return <PlanView plan={shown} onChange={(value) => setPlan({ value, language: i18n.language })} />;
}

function PlanView({ plan, onChange }: { plan: StudyPlan; onChange: (plan: StudyPlan) => void }) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(restart: boolean) {
    setBusy(true);
    setError(null);
    try {
      onChange(await api.planStart(plan.slug, restart));
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  const phases: { phase: string; days: StudyPlanDay[] }[] = [];
  for (const day of plan.days) {
    const last = phases[phases.length - 1];
    if (last && last.phase === day.phase) last.days.push(day);
    else phases.push({ phase: day.phase, days: [day] });
  }

  return (
    <main id="main" className="page plan-page">
      <h1>{plan.title}</h1>
      <UntranslatedNote objects={[plan, ...plan.days]} wanted={matchLanguage(i18n.language) ?? "en"} />
      <Markdown source={plan.description} className="muted" />
      <div className="plan-status row">
        {plan.started_at ? (
          <>
            <span data-testid="plan-today">
              {t("plan:today", { day: plan.today ?? 1, total: plan.days.length })}
            </span>
            <span className="muted small">
              {t("plan:daysDone", { count: plan.days_done, total: plan.days.length })} ·{" "}
              {t("plan:startedOn", { date: formatDateTime(plan.started_at, { dateStyle: "medium" }) })}
            </span>
            <button type="button" className="secondary small" disabled={busy} onClick={() => void start(true)}>
              {t("plan:restart")}
            </button>
          </>
        ) : me.role === "candidate" ? (
          <button type="button" className="primary" disabled={busy} onClick={() => void start(false)}>
            {t("plan:start")}
          </button>
        ) : (
          <span className="muted small">{t("plan:candidatesOnly")}</span>
        )}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <Recommendations plan={plan} />
      {phases.map(({ phase, days }) => (
        <section key={`${days[0]?.number}-${phase}`} className="plan-phase">
          <h2>
            {days.length > 1
              ? t("plan:phaseDays", { phase, first: days[0]?.number, last: days[days.length - 1]?.number })
              : t("plan:phaseDay", { phase, day: days[0]?.number })}
          </h2>
          <ol className="plan-days">
            {days.map((day) => (
              <DayCard key={day.number} day={day} today={plan.today === day.number} />
            ))}
          </ol>
        </section>
      ))}
    </main>
  );
}

function Recommendations({ plan }: { plan: StudyPlan }) {
  const { t } = useTranslation();
  if (!plan.recommendations.length) return null;
  return (
    <section className="plan-recommendations card" aria-labelledby="plan-repeat">
      <h2 id="plan-repeat">{t("plan:repeatHeading")}</h2>
      <p className="muted small">{t("plan:repeatIntro")}</p>
      <ul>
        {plan.recommendations.map((row) => (
          <li key={row.dimension} data-testid="plan-recommendation">
            <strong>{row.dimension}</strong>{" "}
            <span className="muted small">
              {t("plan:level", { level: formatNumber(row.level, { maximumFractionDigits: 1 }) })}
            </span>
            <ul className="plan-practice">
              {row.practice.map((item) => (
                <PracticeItem key={`${item.loop}-${item.stage}`} item={item} day={item.day} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DayCard({ day, today }: { day: StudyPlanDay; today: boolean }) {
  const { t } = useTranslation();
  return (
    <li className={`plan-day card${today ? " today" : ""}${day.done ? " done" : ""}`} data-testid={`plan-day-${day.number}`}>
      <div className="row plan-day-head">
        <h3>
          <span className="plan-day-number">{t("plan:dayNumber", { day: day.number })}</span> {day.title}
        </h3>
        {today && <span className="badge status-live">{t("plan:todayBadge")}</span>}
        {day.done && <span className="badge status-done">{t("plan:dayDone")}</span>}
      </div>
      {day.focus && <Markdown source={day.focus} className="plan-focus" />}
      {day.practice.length > 0 && (
        <ul className="plan-practice">
          {day.practice.map((item) => (
            <PracticeItem key={`${item.loop}-${item.stage}`} item={item} />
          ))}
        </ul>
      )}
    </li>
  );
}

function PracticeItem({ item, day }: { item: StudyPlanPractice; day?: number }) {
  const { t } = useTranslation();
  const kindLabel = useStageKindLabel();
  const navigate = useNavigate();
  const me = useMe();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function startLoop() {
    setBusy(true);
    setError(null);
    try {
      const loop = await api.loopStart(item.loop, false);
      const stage = loop.stages.find((s) => s.position === item.stage);
      navigate(stage ? `/stages/${stage.id}` : `/loops/${loop.id}`);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  }

  return (
    <li className="plan-item" data-testid="plan-practice">
      <div className="plan-item-text">
        <span className="plan-item-title">{item.stage_title}</span>
        <span className="muted small">
          {t("plan:itemMeta", { kind: kindLabel(item.kind), minutes: item.minutes, loop: item.loop_title })}
          {day !== undefined && <> · {t("plan:dayNumber", { day })}</>}
        </span>
      </div>
      <span className={`badge plan-status-${item.status}${item.status === "done" ? " status-done" : ""}`}>
        {item.status === "done"
          ? t("plan:status.doneTimes", { count: item.times_done })
          : t(item.status === "in_progress" ? "plan:status.inProgress" : "plan:status.notStarted")}
      </span>
      {item.stage_id !== null && item.stage_id !== undefined ? (
        <Link className="button secondary small" to={`/stages/${item.stage_id}`}>
          {item.status === "done" ? t("plan:review") : t("plan:open")}
        </Link>
      ) : null}
      {me.role === "candidate" && item.available && (item.stage_id == null || item.status === "done") && (
        <button type="button" className={item.stage_id == null ? "primary small" : "secondary small"} disabled={busy} onClick={() => void startLoop()}>
          {item.stage_id == null ? t("plan:practise") : t("plan:practiseAgain")}
        </button>
      )}
      {error && (
        <span role="alert" className="error small">
          {error}
        </span>
      )}
    </li>
  );
}
