// The candidate's scores across their loops (GET /api/v1/me/progress/), as charts.
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describeError, type ProgressData } from "../api/client";
import { i18next } from "../i18n";
import { formatPercent } from "../i18n/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { LineChart, type Series } from "./charts";

const time = (at: string | null | undefined) => (at ? Date.parse(at) : 0);

/** Who scored a point: a coach, or the automatic scorecard (solo practice). */
export const sourceLabel = (source: "coach" | "auto") =>
  source === "auto" ? i18next.t("reports:progress.autoSource") : i18next.t("reports:progress.coachSource");

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
    { name: i18next.t("reports:progress.recall"), points: data.review.map((r) => ({ x: time(r.at), y: Math.round(r.recall * 100), label: r.title })) },
    { name: i18next.t("reports:progress.precision"), points: data.review.map((r) => ({ x: time(r.at), y: Math.round(r.precision * 100), label: r.title })) },
  ].filter((s) => s.points.length > 0);
}

export default function ProgressCharts() {
  const { t } = useTranslation();
  const progress = useAsync(() => api.myProgress(), []);
  const kindLabel = useStageKindLabel();
  const [view, setView] = useState<"rounds" | "dimensions" | "review" | "deep">("rounds");
  if (progress.error !== undefined) return <p className="error">{describeError(progress.error)}</p>;
  if (!progress.data) return <p className="muted">{t("reports:progress.loading")}</p>;
  const data = progress.data;
  if (!data.stages.length) {
    return <p className="muted">{t("reports:progress.empty")}</p>;
  }
  const automatic = data.stages.filter((s) => s.source === "auto").length;
  const deep: Series[] = data.deep_dive.length
    ? [
        {
          name: t("reports:progress.partsCovered"),
          points: data.deep_dive.map((d) => ({
            x: time(d.at),
            y: d.covered,
            label: t("reports:progress.roiPoint", { title: d.title, roi: t(`reports:deepDive.roi.${d.roi}`, { defaultValue: d.roi }) }),
          })),
        },
      ]
    : [];
  const views: [typeof view, string, boolean][] = [
    ["rounds", t("reports:progress.byRound"), true],
    ["dimensions", t("reports:progress.dimensions"), data.by_dimension.length > 0],
    ["review", t("reports:progress.review"), data.review.length > 0],
    ["deep", t("reports:progress.deep"), data.deep_dive.length > 0],
  ];
  return (
    <section className="card progress-charts" aria-labelledby="charts-title" data-testid="progress-charts">
      <div className="section-head">
        <h2 id="charts-title">{t("reports:progress.title")}</h2>
        <div className="tabs" role="tablist" aria-label={t("reports:progress.chart")}>
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
            ? t("reports:progress.allAuto")
            : t("reports:progress.someAuto", { auto: automatic, total: data.stages.length })}
        </p>
      )}
      {view === "rounds" && <LineChart label={t("reports:progress.roundsLabel")} series={kindSeries(data, kindLabel)} yFormat={(v) => formatPercent(v / 100)} />}
      {view === "dimensions" && (
        <LineChart label={t("reports:progress.dimensionsLabel")} series={dimensionSeries(data)} yMin={1} yMax={4} yTicks={[1, 2, 3, 4]} />
      )}
      {view === "review" && <LineChart label={t("reports:progress.reviewLabel")} series={reviewSeries(data)} yFormat={(v) => formatPercent(v / 100)} />}
      {view === "deep" && <LineChart label={t("reports:progress.deepLabel")} series={deep} yMin={0} yMax={7} yTicks={[0, 1, 2, 3, 4, 5, 6, 7]} />}
    </section>
  );
}
