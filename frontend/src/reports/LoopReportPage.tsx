// The loop report: per stage the rubric scores (weighted), recommendation and summary,
// review recall/precision and deep-dive feedback; the loop's overall and recommendation.
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { api, type DeepDiveFeedback, type ReportStage, type ReviewScore } from "../api/client";
import { useMe } from "../auth/session";
import { formatNumber, formatPercent } from "../i18n/format";
import { formatDate, RECOMMENDATION_LABEL } from "../lib/format";
import { useStageKindLabel } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";
import { REVIEW_CATEGORY_LABEL } from "../rooms/review/categories";
import { AutoScorecardView } from "./AutoScorecard";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : formatPercent(Math.round(x) / 100));

function ReviewSummary({ review }: { review: ReviewScore }) {
  const { t } = useTranslation();
  return (
    <div className="report-block">
      <h4>{t("reports:review.title")}</h4>
      <p className="small">
        {t("reports:review.summary", {
          recall: formatPercent(review.recall),
          found: review.matched.length,
          flaws: review.flaws,
          precision: formatPercent(review.precision),
          comments: review.comments,
        })}
      </p>
      {review.missed.length > 0 && (
        <details>
          <summary className="small">{t("reports:review.missed", { count: review.missed.length })}</summary>
          <ul className="flaws">
            {review.missed.map((f) => (
              <li key={f.id} className="flaw missed">
                <strong>{REVIEW_CATEGORY_LABEL[f.category] ?? f.category}</strong> ·{" "}
                {t("common:flawWhere", { first: f.lines[0], last: f.lines[1], severity: f.severity })}
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
  const { t } = useTranslation();
  return (
    <div className="report-block">
      <h4>{t("reports:deepDive.title")}</h4>
      {feedback.answers.map((a, i) => (
        <div key={i} className="deep-dive">
          <p className="small">
            {a.question_title ? <strong>{a.question_title}: </strong> : null}
            {t("reports:deepDive.line", { covered: a.covered, total: a.total, words: a.words, level: a.quantification.level })}{" "}
            <span className={`roi roi-${a.roi.status}`}>{t(`reports:deepDive.roi.${a.roi.status}`)}</span>
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
              <summary className="small">{t("reports:deepDive.arithmetic")}</summary>
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
  const { t } = useTranslation();
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
            {[
              kindLabel(stage.kind),
              t(`common:stageStatus.${stage.status}`),
              stage.finished_at ? t("reports:stage.finished", { date: formatDate(stage.finished_at) }) : "",
              stage.coach ? t("reports:stage.coach", { coach: stage.coach }) : "",
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
        <div className="row">
          {counted && counted.percent !== null && (
            <span className="score-pill" title={stage.counted === "auto" ? t("reports:stage.autoScore") : t("reports:stage.coachScore")}>
              {stage.counted === "auto" ? t("reports:stage.autoSuffix", { percent: pct(counted.percent) }) : pct(counted.percent)}
            </span>
          )}
          {card && <span className={`reco reco-${card.recommendation}`}>{RECOMMENDATION_LABEL[card.recommendation] ?? card.recommendation}</span>}
          {stage.status !== "pending" && (
            <Link className="button secondary small" to={`/stages/${stage.id}/replay`}>
              {t("reports:stage.replay")}
            </Link>
          )}
        </div>
      </div>
      {stage.scorecard_status === "waiting_for_stage_end" && <p className="small muted">{t("reports:stage.waiting")}</p>}
      {stage.scorecard_status === "not_scored" && !auto && (
        <p className="small muted">
          {stage.status === "pending"
            ? t("reports:stage.notStarted")
            : stage.status === "live"
              ? t("reports:stage.inProgress")
              : t("reports:stage.notScored")}
        </p>
      )}
      {score && (
        <>
          <table className="tests dims">
            <thead>
              <tr>
                <th scope="col">{t("reports:stage.dimension")}</th>
                <th scope="col">{t("reports:stage.weight")}</th>
                <th scope="col">{t("reports:stage.level")}</th>
                <th scope="col">{t("reports:stage.comment")}</th>
              </tr>
            </thead>
            <tbody>
              {score.dimensions.map((d) => (
                <tr key={d.dimension}>
                  <td>{d.dimension}</td>
                  <td className="num">×{d.weight}</td>
                  <td>
                    {d.level ? (
                      <span className="level-dots" aria-label={t("reports:levelOf4", { level: d.level })}>
                        {[1, 2, 3, 4].map((n) => (
                          <span key={n} className={n <= d.level! ? "on" : ""} />
                        ))}
                      </span>
                    ) : (
                      <span className="muted small">{t("reports:stage.levelNotScored")}</span>
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
          <h4>{t("reports:stage.coachSummary")}</h4>
          <p className="prose-pre">{card.summary}</p>
        </div>
      )}
      {coachView && card?.private_notes && (
        <div className="report-block private">
          <h4>{t("reports:stage.privateNotes")}</h4>
          <p className="prose-pre">{card.private_notes}</p>
        </div>
      )}
      {auto &&
        (card ? (
          <details className="report-block">
            <summary className="small">{t("reports:stage.autoWhenCoach")}</summary>
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
  const { t } = useTranslation();
  const me = useMe();
  const report = useAsync(() => api.loopReport(id), [id]);
  if (report.error !== undefined) return <Problem error={report.error} />;
  if (!report.data) return <main id="main" className="page"><p className="muted">{t("reports:page.loading")}</p></main>;
  const data = report.data;
  const reco = data.recommendation.recommendation;
  return (
    <main id="main" className="page report" data-testid="loop-report">
      <p className="crumbs">
        <Link to={`/loops/${data.id}`}>{data.title}</Link> / {t("reports:page.crumb")}
      </p>
      <div className="page-head">
        <div>
          <h1>{t("reports:page.title", { title: data.title })}</h1>
          <p className="muted">
            {t("reports:page.meta", {
              candidate: data.candidate,
              date: formatDate(data.created_at),
              coached: String(Boolean(data.coached)),
            })}
          </p>
        </div>
        <a className="button secondary" href={`/loops/${data.id}/report.html`} target="_blank" rel="noreferrer">
          {t("reports:page.printable")}
        </a>
      </div>
      <section className="metrics" aria-label={t("reports:page.overall")}>
        <div className="metric">
          <span className="metric-value" data-testid="report-overall">{pct(data.overall.percent)}</span>
          <span className="metric-label">
            {t("reports:page.weighted", { scored: data.overall.stages_scored, unscored: data.overall.stages_unscored })}
          </span>
        </div>
        <div className="metric">
          <span className="metric-value">{data.overall.level !== null && data.overall.level !== undefined ? formatNumber(data.overall.level, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) : "—"}</span>
          <span className="metric-label">{t("reports:page.scale")}</span>
        </div>
        <div className="metric">
          <span className={`metric-value reco-text reco-${reco ?? "none"}`}>{reco ? RECOMMENDATION_LABEL[reco] : "—"}</span>
          <span className="metric-label">{t("reports:page.recommendation")}</span>
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
