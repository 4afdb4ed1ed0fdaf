// The loop report: per stage the rubric scores (weighted), recommendation and summary,
// review recall/precision and deep-dive feedback; the loop's overall and recommendation.
import { Link, useParams } from "react-router";

import { api, type DeepDiveFeedback, type ReportStage, type ReviewScore } from "../api/client";
import { useMe } from "../auth/session";
import { formatDate, RECOMMENDATION_LABEL } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";
import { REVIEW_CATEGORY_LABEL } from "../rooms/review/categories";
import { AutoScorecardView } from "./AutoScorecard";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${Math.round(x)}%`);

function ReviewSummary({ review }: { review: ReviewScore }) {
  return (
    <div className="report-block">
      <h4>Design review</h4>
      <p className="small">
        Recall <strong>{Math.round(review.recall * 100)}%</strong> ({review.matched.length} of {review.flaws} planted flaws found) ·
        precision <strong>{Math.round(review.precision * 100)}%</strong> of {review.comments} comments.
      </p>
      {review.missed.length > 0 && (
        <details>
          <summary className="small">Missed flaws ({review.missed.length})</summary>
          <ul className="flaws">
            {review.missed.map((f) => (
              <li key={f.id} className="flaw missed">
                <strong>{REVIEW_CATEGORY_LABEL[f.category] ?? f.category}</strong> · lines {f.lines[0]}–{f.lines[1]} · {f.severity}
                <p className="small">{f.explanation}</p>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function DeepDiveSummary({ feedback }: { feedback: DeepDiveFeedback }) {
  return (
    <div className="report-block">
      <h4>Deep-dive feedback</h4>
      {feedback.answers.map((a, i) => (
        <div key={i} className="deep-dive">
          <p className="small">
            {a.question_title ? <strong>{a.question_title}: </strong> : null}
            covers {a.covered} of {a.total} parts · {a.words} words · quantification {a.quantification.level} · ROI{" "}
            <span className={`roi roi-${a.roi.status}`}>{a.roi.status.replace(/_/g, " ")}</span>
          </p>
          <ul className="checklist">
            {a.checklist.map((item) => (
              <li key={item.part} className={item.covered ? "covered" : "missing"}>
                <span aria-hidden="true">{item.covered ? "✓" : "✗"}</span> {item.label}
                {!item.covered && item.hint && <span className="small muted"> — {item.hint}</span>}
              </li>
            ))}
          </ul>
          {a.roi.verdict && <p className="small">{a.roi.verdict}</p>}
          {a.roi.arithmetic.length > 0 && (
            <details>
              <summary className="small">ROI arithmetic</summary>
              <ul className="small mono">
                {a.roi.arithmetic.map((line, j) => (
                  <li key={j}>{line}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      ))}
    </div>
  );
}

function StageReport({ stage, coachView }: { stage: ReportStage; coachView: boolean }) {
  const kindLabel = useStageKindLabel();
  const card = stage.scorecard;
  const score = card?.score;
  const auto = stage.auto_scorecard;
  const counted = stage.counted === "coach" ? score : stage.counted === "auto" ? auto?.score : undefined;
  return (
    <article className="card stage-report" data-testid={`report-stage-${stage.position}`}>
      <div className="section-head">
        <div>
          <h3>
            {stage.position}. {stage.title}
          </h3>
          <p className="small muted">
            {kindLabel(stage.kind)} · {stage.status}
            {stage.finished_at ? ` · finished ${formatDate(stage.finished_at)}` : ""}
            {stage.coach ? ` · coach ${stage.coach}` : ""}
          </p>
        </div>
        <div className="row">
          {counted && counted.percent !== null && (
            <span className="score-pill" title={stage.counted === "auto" ? "Automatic score" : "Coach's score"}>
              {pct(counted.percent)}
              {stage.counted === "auto" ? " · auto" : ""}
            </span>
          )}
          {card && <span className={`reco reco-${card.recommendation}`}>{RECOMMENDATION_LABEL[card.recommendation] ?? card.recommendation}</span>}
          {stage.status !== "pending" && (
            <Link className="button secondary small" to={`/stages/${stage.id}/replay`}>
              Replay
            </Link>
          )}
        </div>
      </div>
      {stage.scorecard_status === "waiting_for_stage_end" && <p className="small muted">Scores are shown once the stage has finished.</p>}
      {stage.scorecard_status === "not_scored" && !auto && (
        <p className="small muted">{stage.status === "pending" ? "Not started yet." : stage.status === "live" ? "In progress." : "Not scored yet."}</p>
      )}
      {score && (
        <>
          <table className="tests dims">
            <thead>
              <tr>
                <th scope="col">Dimension</th>
                <th scope="col">Weight</th>
                <th scope="col">Level</th>
                <th scope="col">Comment</th>
              </tr>
            </thead>
            <tbody>
              {score.dimensions.map((d) => (
                <tr key={d.dimension}>
                  <td>{d.dimension}</td>
                  <td className="num">×{d.weight}</td>
                  <td>
                    {d.level ? (
                      <span className="level-dots" aria-label={`${d.level} of 4`}>
                        {[1, 2, 3, 4].map((n) => (
                          <span key={n} className={n <= d.level! ? "on" : ""} />
                        ))}
                      </span>
                    ) : (
                      <span className="muted small">not scored</span>
                    )}
                  </td>
                  <td className="small">{d.comment}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small muted">{score.explanation}</p>
        </>
      )}
      {card?.summary && (
        <div className="report-block">
          <h4>Coach's summary</h4>
          <p className="prose-pre">{card.summary}</p>
        </div>
      )}
      {coachView && card?.private_notes && (
        <div className="report-block private">
          <h4>Private notes (coaches and admins only)</h4>
          <p className="prose-pre">{card.private_notes}</p>
        </div>
      )}
      {auto &&
        (card ? (
          <details className="report-block">
            <summary className="small">Automatic scorecard (the coach's scorecard counts)</summary>
            <AutoScorecardView card={auto} evidenceOpen={false} />
          </details>
        ) : (
          <AutoScorecardView card={auto} evidenceOpen={false} />
        ))}
      {stage.review && <ReviewSummary review={stage.review} />}
      {stage.deep_dive && <DeepDiveSummary feedback={stage.deep_dive} />}
    </article>
  );
}

export function LoopReportPage() {
  const { loopId } = useParams();
  const id = Number(loopId);
  const me = useMe();
  const report = useAsync(() => api.loopReport(id), [id]);
  if (report.error !== undefined) return <Problem error={report.error} />;
  if (!report.data) return <main id="main" className="page"><p className="muted">Loading the report…</p></main>;
  const data = report.data;
  const reco = data.recommendation.recommendation;
  return (
    <main id="main" className="page report" data-testid="loop-report">
      <p className="crumbs">
        <Link to={`/loops/${data.id}`}>{data.title}</Link> / Report
      </p>
      <div className="page-head">
        <div>
          <h1>Report · {data.title}</h1>
          <p className="muted">
            {data.candidate} · started {formatDate(data.created_at)} · {data.coached ? "coached" : "solo"}
          </p>
        </div>
        <a className="button secondary" href={`/loops/${data.id}/report.html`} target="_blank" rel="noreferrer">
          Printable report
        </a>
      </div>
      <section className="metrics" aria-label="Overall">
        <div className="metric">
          <span className="metric-value" data-testid="report-overall">{pct(data.overall.percent)}</span>
          <span className="metric-label">weighted overall · {data.overall.stages_scored} scored, {data.overall.stages_unscored} not</span>
        </div>
        <div className="metric">
          <span className="metric-value">{data.overall.level !== null && data.overall.level !== undefined ? data.overall.level.toFixed(1) : "—"}</span>
          <span className="metric-label">on the 1–4 scale</span>
        </div>
        <div className="metric">
          <span className={`metric-value reco-text reco-${reco ?? "none"}`}>{reco ? RECOMMENDATION_LABEL[reco] : "—"}</span>
          <span className="metric-label">recommendation</span>
        </div>
      </section>
      <p className="small muted">
        {data.overall.explanation} {data.recommendation.explanation}
      </p>
      <div className="stage-reports">
        {data.stages.map((s) => (
          <StageReport key={s.id} stage={s} coachView={me.role !== "candidate"} />
        ))}
      </div>
    </main>
  );
}

export default LoopReportPage;
