// A coach's scoring against everyone's: mean level per dimension, the difference from the
// other scorers, and how their recommendations spread.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";

import { api, describeError, type Recommendation } from "../api/client";
import { useMe } from "../auth/session";
import { formatNumber } from "../i18n/format";
import { RECOMMENDATION_LABEL } from "../lib/format";
import { useAsync } from "../lib/useAsync";
import { DeltaBar } from "./charts";

const RECOS: Recommendation[] = ["strong_no", "no", "yes", "strong_yes"];
const mean = (v: number | null | undefined) =>
  v === null || v === undefined ? "—" : formatNumber(v, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A signed difference: "+0.25", "-0.50". */
const delta = (v: number) => formatNumber(v, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" });

function Distribution({ counts }: { counts: Record<string, number> }) {
  const { t } = useTranslation();
  const total = RECOS.reduce((n, r) => n + (counts[r] ?? 0), 0);
  if (!total) return <span className="muted small">{t("coach:calibration.none")}</span>;
  return (
    <span className="stacked" role="img" aria-label={RECOS.map((r) => `${RECOMMENDATION_LABEL[r]} ${counts[r] ?? 0}`).join(", ")}>
      {RECOS.map((r) => (counts[r] ? <span key={r} className={`seg reco-${r}`} style={{ flex: counts[r] }} title={`${RECOMMENDATION_LABEL[r]}: ${counts[r]}`}>{counts[r]}</span> : null))}
    </span>
  );
}

export function CalibrationPage() {
  const { t } = useTranslation();
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const coach = params.get("coach") ? Number(params.get("coach")) : undefined;
  const [coachInput, setCoachInput] = useState(params.get("coach") ?? "");
  const data = useAsync(() => api.calibration(coach), [coach]);

  function pick(event: FormEvent) {
    event.preventDefault();
    setParams(coachInput ? { coach: coachInput } : {});
  }

  const c = data.data;
  return (
    <main id="main" className="page" data-testid="calibration">
      <p className="crumbs">
        <Link to="/coach">{t("coach:home.title")}</Link> / {t("coach:calibration.title")}
      </p>
      <div className="page-head">
        <div>
          <h1>{c ? t("coach:calibration.titleOf", { coach: c.coach.username }) : t("coach:calibration.title")}</h1>
          <p className="muted">{t("coach:calibration.intro")}</p>
        </div>
        {me.role === "admin" && (
          <form className="row nowrap" onSubmit={pick}>
            <label className="inline">
              {t("coach:calibration.scorer")}
              <input type="number" min={1} value={coachInput} onChange={(e) => setCoachInput(e.target.value)} style={{ width: "7rem" }} />
            </label>
            <button type="submit" className="secondary small">
              {t("coach:calibration.show")}
            </button>
          </form>
        )}
      </div>
      {data.error !== undefined && <p className="error" role="alert">{describeError(data.error)}</p>}
      {!c && data.error === undefined && <p className="muted">{t("coach:calibration.loading")}</p>}
      {c && (
        <>
          <section className="metrics">
            <div className="metric">
              <span className="metric-value">{formatNumber(c.scorecards.coach)}</span>
              <span className="metric-label">{t("coach:calibration.cardsBy", { count: c.scorecards.coach, coach: c.coach.username })}</span>
            </div>
            <div className="metric">
              <span className="metric-value">{formatNumber(c.scorecards.all)}</span>
              <span className="metric-label">{t("coach:calibration.cardsByAll", { count: c.scorecards.all, scorers: c.scorers })}</span>
            </div>
            <div className="metric">
              <span className="metric-value">{mean(c.overall.coach_mean)}</span>
              <span className="metric-label">{t("coach:calibration.meanVs", { others: mean(c.overall.others_mean) })}</span>
            </div>
          </section>
          <table className="table calibration-table">
            <thead>
              <tr>
                <th scope="col">{t("coach:calibration.dimension")}</th>
                <th scope="col">{c.coach.username}</th>
                <th scope="col">{t("coach:calibration.others")}</th>
                <th scope="col">{t("coach:calibration.everyone")}</th>
                <th scope="col">{t("coach:calibration.difference")}</th>
              </tr>
            </thead>
            <tbody>
              {c.dimensions.map((d) => (
                <tr key={d.dimension}>
                  <td>{d.dimension}</td>
                  <td className="num">
                    {mean(d.coach_mean)} <span className="muted small">n={d.coach_n}</span>
                  </td>
                  <td className="num">
                    {mean(d.others_mean)} <span className="muted small">n={d.others_n}</span>
                  </td>
                  <td className="num">{mean(d.all_mean)}</td>
                  <td>
                    <DeltaBar value={d.delta ?? null} /> <span className="small num">{d.delta === null || d.delta === undefined ? "" : delta(d.delta)}</span>
                  </td>
                </tr>
              ))}
              {c.dimensions.length === 0 && (
                <tr>
                  <td colSpan={5} className="muted">{t("coach:calibration.noCards")}</td>
                </tr>
              )}
            </tbody>
          </table>
          <h2>{t("coach:calibration.recommendations")}</h2>
          <table className="table">
            <tbody>
              <tr>
                <th scope="row">{c.coach.username}</th>
                <td><Distribution counts={c.recommendations.coach as unknown as Record<string, number>} /></td>
              </tr>
              <tr>
                <th scope="row">{t("coach:calibration.everyone")}</th>
                <td><Distribution counts={c.recommendations.all as unknown as Record<string, number>} /></td>
              </tr>
            </tbody>
          </table>
        </>
      )}
    </main>
  );
}

export default CalibrationPage;
