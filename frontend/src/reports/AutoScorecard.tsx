// The automatic scorecard: levels set by fixed rules from what the candidate did, each
// with the evidence behind it, clearly labelled as not a person's judgement.
import { useTranslation } from "react-i18next";

import type { AutoScorecard } from "../api/client";
import { UntranslatedNote } from "../candidate/FeedbackLanguage";
import type { UiLanguage } from "../i18n";
import { formatPercent } from "../i18n/format";

export function LevelDots({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <span className="level-dots" aria-label={t("reports:levelOf4", { level })}>
      {[1, 2, 3, 4].map((n) => (
        <span key={n} className={n <= level ? "on" : ""} />
      ))}
    </span>
  );
}

export function AutoScorecardView({
  card,
  levels,
  selfLevels,
  evidenceOpen = true,
  shownIn,
}: {
  card: AutoScorecard;
  /** Evidence lists start open (the stage's feedback page) or closed (the loop report). */
  evidenceOpen?: boolean;
  levels?: Record<string, string[]>;
  /** The candidate's own levels, shown beside the automatic ones. */
  selfLevels?: Record<string, number>;
  /** The language the feedback was asked in: key points not in it say so. */
  shownIn?: UiLanguage;
}) {
  const { t } = useTranslation();
  const pct = card.score.percent;
  return (
    <section className="auto-card" aria-label={t("reports:auto.label")} data-testid="auto-scorecard">
      <p className="auto-label">
        <strong>{t("reports:auto.title")}</strong> · {t("reports:auto.byRules")}
        {pct !== null && pct !== undefined && <span className="score-pill">{formatPercent(Math.round(pct) / 100)}</span>}
      </p>
      {card.summary && <p>{card.summary}</p>}
      {card.questions.length > 0 && (
        <ul className="auto-questions">
          {card.questions.map((q) => (
            <li key={q.label}>
              <strong>{q.summary}</strong> <span className="muted small">{q.title}</span>
            </li>
          ))}
        </ul>
      )}
      <ul className="auto-scores">
        {card.scores.map((s) => {
          const descriptor = s.level ? levels?.[s.dimension]?.[s.level - 1] : undefined;
          return (
            <li key={s.dimension} data-testid="auto-score">
              <div className="score-head">
                <strong>{s.dimension}</strong>
                <span className="auto-levels">
                  {s.level ? <LevelDots level={s.level} /> : <span className="muted small">{t("reports:auto.notMeasured")}</span>}
                  {selfLevels?.[s.dimension] && <span className="small muted">{t("reports:auto.you", { level: selfLevels[s.dimension] })}</span>}
                </span>
              </div>
              {descriptor && <p className="small muted">{descriptor}</p>}
              <p className="small">{s.comment}</p>
              {s.evidence.length > 0 && (
                <details open={evidenceOpen}>
                  <summary className="small">{t("reports:auto.evidence", { count: s.evidence.length })}</summary>
                  <ul className="evidence small">
                    {s.evidence.map((e, i) => (
                      <li key={i} title={e.rule}>
                        {e.text}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
      {card.key_points.length > 0 && (
        <details className="key-points" open>
          <summary>
            {t("reports:auto.keyPoints", { covered: card.key_points.filter((k) => k.covered).length, total: card.key_points.length })}
          </summary>
          {shownIn && <UntranslatedNote objects={card.key_points} wanted={shownIn} />}
          <ul className="checklist">
            {card.key_points.map((k, i) => (
              <li key={i} className={k.covered ? "covered" : "missing"}>
                <span aria-hidden="true">{k.covered ? "✓" : "✗"}</span> {k.point} <span className="small muted">({k.source} · {k.dimension})</span>
                {k.covered && <p className="small quote">“{k.sentence}”</p>}
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="small muted">{card.score.explanation}</p>
    </section>
  );
}
