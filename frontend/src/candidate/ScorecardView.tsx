import { Link, useParams } from "react-router";

import { ApiError, api, describeError } from "../api/client";
import { RECOMMENDATION_LABEL } from "../lib/format";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";

export function ScorecardView() {
  const { stageId } = useParams();
  const id = Number(stageId);
  const stage = useAsync(() => api.stage(id), [id]);
  const card = useAsync(() => api.scorecard(id), [id]);

  if (stage.error !== undefined) return <Problem error={stage.error} />;
  if (!stage.data) return <main id="main" className="page"><p className="muted">Loading…</p></main>;
  const dims = stage.data.rubric?.dimensions ?? [];
  const notYet = card.error instanceof ApiError && (card.error.status === 404 || card.error.status === 409);

  return (
    <main id="main" className="page narrow">
      <p className="crumbs">
        <Link to={`/loops/${stage.data.loop}`}>Loop</Link> / <Link to={`/stages/${id}`}>{stage.data.title}</Link> / Scorecard
      </p>
      <h1>Scorecard · {stage.data.title}</h1>
      {notYet && <p className="notice">{card.error instanceof ApiError ? card.error.detail : ""}</p>}
      {card.error !== undefined && !notYet && <p className="error">{describeError(card.error)}</p>}
      {card.data && (
        <>
          <p>
            <span className={`reco reco-${card.data.recommendation}`}>{RECOMMENDATION_LABEL[card.data.recommendation ?? ""]}</span>
            {card.data.coach && <span className="muted small"> · scored by {card.data.coach}</span>}
          </p>
          <ul className="score-bars" aria-label="Scores by dimension">
            {card.data.scores.map((s) => {
              const dim = dims.find((d) => d.name === s.dimension);
              const levels = Array.isArray(dim?.levels) ? (dim!.levels as string[]) : [];
              return (
                <li key={s.dimension}>
                  <div className="score-head">
                    <strong>{s.dimension}</strong>
                    <span>{s.level}/4</span>
                  </div>
                  <div className="bar" role="meter" aria-valuemin={1} aria-valuemax={4} aria-valuenow={s.level} aria-label={s.dimension}>
                    <div className="bar-fill" style={{ width: `${(s.level / 4) * 100}%` }} />
                  </div>
                  {levels[s.level - 1] && <p className="small muted">{levels[s.level - 1]}</p>}
                  {s.comment && <p>{s.comment}</p>}
                </li>
              );
            })}
          </ul>
          {card.data.summary && (
            <section className="card">
              <h2>Summary</h2>
              <p className="prose-pre">{card.data.summary}</p>
            </section>
          )}
        </>
      )}
    </main>
  );
}
