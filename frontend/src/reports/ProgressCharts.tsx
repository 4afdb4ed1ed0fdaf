// The candidate's scores across their loops (GET /api/v1/me/progress/), as charts.
import { useState } from "react";

import { api, describeError, type ProgressData } from "../api/client";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { LineChart, type Series } from "./charts";

const time = (at: string | null | undefined) => (at ? Date.parse(at) : 0);

/** Who scored a point: a coach, or the automatic scorecard (solo practice). */
export const sourceLabel = (source: "coach" | "auto") => (source === "auto" ? "automatic scorecard" : "coach's scorecard");

export function kindSeries(data: ProgressData, kindLabel: (kind: string) => string): Series[] {
  return data.by_kind
    .map((k) => ({
      name: kindLabel(k.kind),
      points: k.points.filter((p) => p.percent !== null && p.percent !== undefined).map((p) => ({
          x: time(p.at),
          y: Number(p.percent),
          label: `${p.title} · ${p.loop_title} · ${sourceLabel(p.source)}`,
          hollow: p.source === "auto",
        })),
    }))
    .filter((s) => s.points.length > 0);
}

export function dimensionSeries(data: ProgressData, limit = 8): Series[] {
  return data.by_dimension
    .map((d) => ({
      name: d.dimension,
      points: d.points.map((p) => ({ x: time(p.at), y: p.level, label: `${p.title} · ${sourceLabel(p.source)}`, hollow: p.source === "auto" })),
    }))
    .filter((s) => s.points.length > 0)
    .sort((a, b) => b.points.length - a.points.length)
    .slice(0, limit);
}

export function reviewSeries(data: ProgressData): Series[] {
  return [
    { name: "Recall", points: data.review.map((r) => ({ x: time(r.at), y: Math.round(r.recall * 100), label: r.title })) },
    { name: "Precision", points: data.review.map((r) => ({ x: time(r.at), y: Math.round(r.precision * 100), label: r.title })) },
  ].filter((s) => s.points.length > 0);
}

export default function ProgressCharts() {
  const progress = useAsync(() => api.myProgress(), []);
  const kindLabel = useStageKindLabel();
  const [view, setView] = useState<"rounds" | "dimensions" | "review" | "deep">("rounds");
  if (progress.error !== undefined) return <p className="error">{describeError(progress.error)}</p>;
  if (!progress.data) return <p className="muted">Loading your scores…</p>;
  const data = progress.data;
  if (!data.stages.length) {
    return <p className="muted">Scores appear here once a coach (or the platform) has scored a finished stage.</p>;
  }
  const automatic = data.stages.filter((s) => s.source === "auto").length;
  const deep: Series[] = data.deep_dive.length
    ? [{ name: "Parts covered (of 7)", points: data.deep_dive.map((d) => ({ x: time(d.at), y: d.covered, label: `${d.title} · ROI ${d.roi}` })) }]
    : [];
  const views: [typeof view, string, boolean][] = [
    ["rounds", "Score by round", true],
    ["dimensions", "Rubric dimensions", data.by_dimension.length > 0],
    ["review", "Design review", data.review.length > 0],
    ["deep", "Deep dive", data.deep_dive.length > 0],
  ];
  return (
    <section className="card progress-charts" aria-labelledby="charts-title" data-testid="progress-charts">
      <div className="section-head">
        <h2 id="charts-title">Your scores over time</h2>
        <div className="tabs" role="tablist" aria-label="Chart">
          {views
            .filter(([, , shown]) => shown)
            .map(([key, label]) => (
              <button key={key} type="button" role="tab" aria-selected={view === key} className={`tab ${view === key ? "active" : ""}`} onClick={() => setView(key)}>
                {label}
              </button>
            ))}
        </div>
      </div>
      {automatic > 0 && (
        <p className="muted small" data-testid="progress-sources">
          {automatic === data.stages.length
            ? "Every point comes from an automatic scorecard (no coach scored these stages)."
            : `${automatic} of ${data.stages.length} stages scored by their automatic scorecard; a coach's scorecard counts where there is one.`}
        </p>
      )}
      {view === "rounds" && <LineChart label="Weighted rubric score by round, in percent" series={kindSeries(data, kindLabel)} yFormat={(v) => `${v}%`} />}
      {view === "dimensions" && (
        <LineChart label="Level per rubric dimension (1–4)" series={dimensionSeries(data)} yMin={1} yMax={4} yTicks={[1, 2, 3, 4]} />
      )}
      {view === "review" && <LineChart label="Design-review recall and precision, in percent" series={reviewSeries(data)} yFormat={(v) => `${v}%`} />}
      {view === "deep" && <LineChart label="Deep-dive parts covered" series={deep} yMin={0} yMax={7} yTicks={[0, 1, 2, 3, 4, 5, 6, 7]} />}
    </section>
  );
}
