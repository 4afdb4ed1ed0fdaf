import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { api, describeError } from "../api/client";
import { formatDate } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";

const ProgressCharts = lazy(() => import("../reports/ProgressCharts"));

export function Progress() {
  const { t } = useTranslation();
  const loops = useAsync(() => api.loops(), []);
  const kindLabel = useStageKindLabel();
  const all = loops.data ?? [];
  const stages = all.flatMap((l) => l.stages);
  const done = stages.filter((s) => s.status === "done");
  const byKind = new Map<string, { done: number; total: number }>();
  for (const s of stages) {
    const entry = byKind.get(s.kind) ?? { done: 0, total: 0 };
    entry.total += 1;
    if (s.status === "done") entry.done += 1;
    byKind.set(s.kind, entry);
  }

  return (
    <main id="main" className="page">
      <h1>{t("candidate:progress.title")}</h1>
      {loops.error !== undefined && <p className="error">{describeError(loops.error)}</p>}
      <div className="metrics">
        <div className="metric">
          <span className="metric-value">{all.length}</span>
          <span className="metric-label">{t("candidate:progress.loops")}</span>
        </div>
        <div className="metric">
          <span className="metric-value">
            {done.length}/{stages.length}
          </span>
          <span className="metric-label">{t("candidate:progress.stagesFinished")}</span>
        </div>
      </div>
      <Suspense fallback={<p className="muted">{t("candidate:progress.loadingScores")}</p>}>
        <ProgressCharts />
      </Suspense>
      <h2>{t("candidate:progress.byRound")}</h2>
      <ul className="score-bars">
        {[...byKind.entries()].map(([kind, e]) => (
          <li key={kind}>
            <div className="score-head">
              <strong>{kindLabel(kind)}</strong>
              <span>
                {e.done}/{e.total}
              </span>
            </div>
            <div className="bar">
              <div className="bar-fill" style={{ width: `${(e.done / e.total) * 100}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <h2>{t("candidate:progress.finished")}</h2>
      {done.length === 0 && <p className="muted">{t("candidate:progress.nothing")}</p>}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t("candidate:progress.stage")}</th>
            <th scope="col">{t("candidate:progress.loop")}</th>
            <th scope="col">{t("candidate:progress.finishedAt")}</th>
            <th scope="col"><span className="sr-only">{t("candidate:progress.links")}</span></th>
          </tr>
        </thead>
        <tbody>
          {all.flatMap((loop) =>
            loop.stages
              .filter((s) => s.status === "done")
              .map((s) => (
                <tr key={s.id}>
                  <td>{s.title}</td>
                  <td>
                    <Link to={`/loops/${loop.id}`}>{loop.title}</Link>
                  </td>
                  <td>{formatDate(s.finished_at)}</td>
                  <td>
                    <Link to={`/stages/${s.id}/scorecard`}>{t("candidate:progress.scorecard")}</Link> ·{" "}
                    <Link to={`/stages/${s.id}/replay`}>{t("candidate:progress.replay")}</Link> ·{" "}
                    <Link to={`/loops/${loop.id}/report`}>{t("candidate:progress.report")}</Link>
                  </td>
                </tr>
              )),
          )}
        </tbody>
      </table>
    </main>
  );
}
