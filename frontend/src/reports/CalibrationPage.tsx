// A coach's scoring against everyone's: mean level per dimension, the difference from the
// other scorers, and how their recommendations spread.
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";

import { api, describeError, type Recommendation } from "../api/client";
import { useMe } from "../auth/session";
import { RECOMMENDATION_LABEL } from "../lib/format";
import { useAsync } from "../lib/useAsync";
import { DeltaBar } from "./charts";

const RECOS: Recommendation[] = ["strong_no", "no", "yes", "strong_yes"];
const mean = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v.toFixed(2));

function Distribution({ counts }: { counts: Record<string, number> }) {
  const total = RECOS.reduce((n, r) => n + (counts[r] ?? 0), 0);
  if (!total) return <span className="muted small">none</span>;
  return (
    <span className="stacked" role="img" aria-label={RECOS.map((r) => `${RECOMMENDATION_LABEL[r]} ${counts[r] ?? 0}`).join(", ")}>
      {RECOS.map((r) => (counts[r] ? <span key={r} className={`seg reco-${r}`} style={{ flex: counts[r] }} title={`${RECOMMENDATION_LABEL[r]}: ${counts[r]}`}>{counts[r]}</span> : null))}
    </span>
  );
}

export function CalibrationPage() {
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
        <Link to="/coach">Coach console</Link> / Calibration
      </p>
      <div className="page-head">
        <div>
          <h1>Calibration{c ? ` · ${c.coach.username}` : ""}</h1>
          <p className="muted">Mean level (1–4) per rubric dimension, against the other scorers. A large gap on a dimension is worth a look at its level descriptors.</p>
        </div>
        {me.role === "admin" && (
          <form className="row nowrap" onSubmit={pick}>
            <label className="inline">
              Scorer id
              <input type="number" min={1} value={coachInput} onChange={(e) => setCoachInput(e.target.value)} style={{ width: "7rem" }} />
            </label>
            <button type="submit" className="secondary small">
              Show
            </button>
          </form>
        )}
      </div>
      {data.error !== undefined && <p className="error" role="alert">{describeError(data.error)}</p>}
      {!c && data.error === undefined && <p className="muted">Loading…</p>}
      {c && (
        <>
          <section className="metrics">
            <div className="metric">
              <span className="metric-value">{c.scorecards.coach}</span>
              <span className="metric-label">scorecards by {c.coach.username}</span>
            </div>
            <div className="metric">
              <span className="metric-value">{c.scorecards.all}</span>
              <span className="metric-label">scorecards by {c.scorers} scorers</span>
            </div>
            <div className="metric">
              <span className="metric-value">{mean(c.overall.coach_mean)}</span>
              <span className="metric-label">mean level vs {mean(c.overall.others_mean)} for the others</span>
            </div>
          </section>
          <table className="table calibration-table">
            <thead>
              <tr>
                <th scope="col">Dimension</th>
                <th scope="col">{c.coach.username}</th>
                <th scope="col">Others</th>
                <th scope="col">Everyone</th>
                <th scope="col">Difference</th>
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
                    <DeltaBar value={d.delta ?? null} /> <span className="small num">{d.delta === null || d.delta === undefined ? "" : `${d.delta > 0 ? "+" : ""}${d.delta.toFixed(2)}`}</span>
                  </td>
                </tr>
              ))}
              {c.dimensions.length === 0 && (
                <tr>
                  <td colSpan={5} className="muted">No scorecards yet.</td>
                </tr>
              )}
            </tbody>
          </table>
          <h2>Recommendations</h2>
          <table className="table">
            <tbody>
              <tr>
                <th scope="row">{c.coach.username}</th>
                <td><Distribution counts={c.recommendations.coach as unknown as Record<string, number>} /></td>
              </tr>
              <tr>
                <th scope="row">Everyone</th>
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
