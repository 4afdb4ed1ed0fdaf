import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { api, describeError, type Loop, type LoopTemplate } from "../api/client";
import { useMe } from "../auth/session";
import { formatClock, formatDate } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { UpcomingSessions } from "../scheduling/UpcomingSessions";

export function LoopProgress({ loop }: { loop: Loop }) {
  const { t } = useTranslation();
  const done = loop.stages.filter((s) => s.status === "done").length;
  const total = loop.stages.length || 1;
  return (
    <div className="progress" aria-label={t("candidate:progressDone", { done, count: loop.stages.length })}>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${(done / total) * 100}%` }} />
      </div>
      <span className="small muted">
        {t("candidate:progressDone", { done, count: loop.stages.length })}
      </span>
    </div>
  );
}

/** The stage's clock as the loop list loaded it, counting down in the page. */
function StageClock({ remainingMs }: { remainingMs: number }) {
  const { t } = useTranslation();
  const [loadedAt] = useState(() => performance.now());
  const [now, setNow] = useState(loadedAt);
  useEffect(() => {
    const id = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return (
    <span className="countdown small" role="timer" data-testid="live-stage-clock">
      {t("candidate:clockLeft", { clock: formatClock(remainingMs - (now - loadedAt)) })}
    </span>
  );
}

/** A live stage is the one thing to go back to: say which, its clock, and a way in. */
function LiveStage({ loop }: { loop: Loop }) {
  const { t } = useTranslation();
  const live = loop.stages.find((s) => s.status === "live");
  if (!live) return null;
  return (
    <p className="live-stage small" data-testid="live-stage">
      <span className="badge status-live">{t("common:stageStatus.live")}</span> {live.title} · <StageClock remainingMs={live.time_remaining_ms} />{" "}
      <Link className="button primary small" to={`/stages/${live.id}`}>
        {t("candidate:open")}
      </Link>
    </p>
  );
}

function TemplateCard({ template }: { template: LoopTemplate }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kindLabel = useStageKindLabel();
  const [coached, setCoached] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const minutes = template.stages.reduce((sum, s) => sum + s.minutes, 0);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const loop = await api.loopStart(template.slug, coached);
      navigate(`/loops/${loop.id}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  }

  return (
    <article className="card template-card" data-testid={`template-${template.slug}`}>
      <h3>{template.title}</h3>
      {template.description && <p className="muted">{template.description}</p>}
      <p className="small muted">
        {t("candidate:template.size", { count: template.stages.length, hours: Math.round(minutes / 6) / 10 })}
      </p>
      <ol className="chips">
        {template.stages.map((s) => (
          <li key={s.position} className={`chip kind-${s.kind}`}>
            {kindLabel(s.kind)}
          </li>
        ))}
      </ol>
      <div className="row">
        <label className="toggle">
          <input type="checkbox" checked={coached} onChange={(e) => setCoached(e.target.checked)} />
          {t("candidate:template.withCoach")}
        </label>
        <button type="button" className="primary" onClick={start} disabled={busy}>
          {busy ? t("candidate:template.starting") : t("candidate:template.start")}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}

export function Dashboard() {
  const { t } = useTranslation();
  const me = useMe();
  const loops = useAsync(() => api.loops(), []);
  const templates = useAsync(() => api.loopTemplates(), []);
  const mine = (loops.data ?? []).filter((l) => me.role !== "candidate" || l.candidate === me.username);

  return (
    <main id="main" className="page">
      <h1>{t("candidate:dashboard.title")}</h1>
      {loops.error !== undefined && <p className="error" role="alert">{describeError(loops.error)}</p>}
      {loops.loading && !loops.data && <p className="muted">{t("common:loading")}</p>}
      {loops.data && mine.length === 0 && (
        <p className="muted">{t("candidate:dashboard.empty")}</p>
      )}
      {me.role === "candidate" && <UpcomingSessions side="candidate" />}
      <ul className="loop-list">
        {mine.map((loop) => (
          <li key={loop.id} className="card loop-row">
            <div>
              <Link to={`/loops/${loop.id}`} className="loop-title">
                {loop.title}
              </Link>
              <p className="small muted">
                {t("candidate:dashboard.started", { date: formatDate(loop.created_at), coached: String(Boolean(loop.coached)) })}
                {me.role !== "candidate" && loop.candidate ? ` · ${loop.candidate}` : ""}
              </p>
              <LiveStage loop={loop} />
            </div>
            <LoopProgress loop={loop} />
          </li>
        ))}
      </ul>

      {me.role === "candidate" && (
        <section aria-labelledby="templates-title">
          <h2 id="templates-title">{t("candidate:dashboard.startTitle")}</h2>
          {templates.error !== undefined && (
            <p className="error" role="alert">
              {describeError(templates.error)}
            </p>
          )}
          <div className="grid">
            {(templates.data ?? []).map((template) => (
              <TemplateCard key={template.slug} template={template} />
            ))}
          </div>
        </section>
      )}
    </main>
  );
}
