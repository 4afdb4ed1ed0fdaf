import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { ApiError, api, describeError, type Scorecard } from "../api/client";
import { useMe } from "../auth/session";
import { currentLanguage, type UiLanguage } from "../i18n";
import { RECOMMENDATION_LABEL } from "../lib/format";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";
import { StageRecordings } from "../recording/StageRecordings";
import { AutoScorecardView } from "../reports/AutoScorecard";
import { FeedbackLanguageToggle } from "./FeedbackLanguage";
import { ModelAnswers } from "./ModelAnswers";
import { SelfAssessmentForm } from "./SelfAssessmentForm";

function CoachScorecard({ card, levels }: { card: Scorecard; levels: Record<string, string[]> }) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        <span className={`reco reco-${card.recommendation}`}>{RECOMMENDATION_LABEL[card.recommendation ?? ""]}</span>
        {card.coach && <span className="muted small"> · {t("candidate:scorecard.scoredBy", { coach: card.coach })}</span>}
      </p>
      <ul className="score-bars" aria-label={t("candidate:scorecard.byDimension")}>
        {card.scores.map((s) => (
          <li key={s.dimension}>
            <div className="score-head">
              <strong>{s.dimension}</strong>
              <span>{s.level}/4</span>
            </div>
            <div className="bar" role="meter" aria-valuemin={1} aria-valuemax={4} aria-valuenow={s.level} aria-label={s.dimension}>
              <div className="bar-fill" style={{ width: `${(s.level / 4) * 100}%` }} />
            </div>
            {levels[s.dimension]?.[s.level - 1] && <p className="small muted">{levels[s.dimension]![s.level - 1]}</p>}
            {s.comment && <p>{s.comment}</p>}
          </li>
        ))}
      </ul>
      {card.summary && (
        <section className="card">
          <h2>{t("candidate:scorecard.summary")}</h2>
          <p className="prose-pre">{card.summary}</p>
        </section>
      )}
    </>
  );
}

export function ScorecardView() {
  const { stageId } = useParams();
  const id = Number(stageId);
  const { t, i18n } = useTranslation();
  // The language the feedback is read in: the interface's until the candidate picks one
  // (then the scorecard, its key points, the rubric and the model answers are asked in it).
  const [chosen, setChosen] = useState<UiLanguage | undefined>(undefined);
  const lang = chosen !== undefined && chosen !== i18n.language ? chosen : undefined;
  const shownIn = chosen ?? currentLanguage();
  const stage = useAsync(() => api.stage(id), [id]);
  const rubricStage = useAsync(() => (lang ? api.stage(id, lang) : Promise.resolve(null)), [id, lang]);
  const card = useAsync(() => api.scorecard(id, lang), [id, lang]);
  const me = useMe();
  const [selfLevels, setSelfLevels] = useState<Record<string, number>>({});
  const onSelfSaved = useCallback((levels: Record<string, number>) => setSelfLevels(levels), []);

  if (stage.error !== undefined) return <Problem error={stage.error} />;
  if (!stage.data) return <main id="main" className="page"><p className="muted">{t("common:loading")}</p></main>;
  const levels: Record<string, string[]> = Object.fromEntries(
    ((rubricStage.data ?? stage.data).rubric?.dimensions ?? []).map((d) => [d.name, Array.isArray(d.levels) ? (d.levels as string[]) : []]),
  );
  const notYet = card.error instanceof ApiError && (card.error.status === 404 || card.error.status === 409);

  return (
    <main id="main" className="page narrow">
      <p className="crumbs">
        <Link to={`/loops/${stage.data.loop}`}>{t("candidate:scorecard.crumbLoop")}</Link> /{" "}
        <Link to={`/stages/${id}`}>{stage.data.title}</Link> / {t("candidate:scorecard.crumb")}
      </p>
      <h1>{t("candidate:scorecard.title", { title: stage.data.title })}</h1>
      <FeedbackLanguageToggle value={shownIn} onChange={setChosen} />
      <div lang={shownIn} data-testid="feedback">
        {notYet && <p className="notice">{card.error instanceof ApiError ? card.error.detail : ""}</p>}
        {card.error !== undefined && !notYet && <p className="error">{describeError(card.error)}</p>}
        {card.data?.source === "coach" && <CoachScorecard card={card.data} levels={levels} />}
        {card.data?.source === "auto" && (
          <AutoScorecardView card={card.data} levels={levels} selfLevels={selfLevels} shownIn={shownIn} />
        )}
      </div>
      <StageRecordings stageId={id} questions={stage.data.questions} canDelete={me.role === "candidate"} />
      {stage.data.status === "done" && me.role === "candidate" && stage.data.rubric && (
        <SelfAssessmentForm stageId={id} rubric={stage.data.rubric} onSaved={onSelfSaved} />
      )}
      {stage.data.status === "done" ? (
        <div lang={shownIn}>
          <ModelAnswers stageId={id} lang={lang} shownIn={shownIn} />
        </div>
      ) : (
        <p className="small muted">{t("candidate:scorecard.modelAnswersLater")}</p>
      )}
    </main>
  );
}
