// The automatic scorecard: levels set by fixed rules from what the candidate did, each
// with the evidence behind it, clearly labelled as not a person's judgement.
import type { AutoScorecard } from "../api/client";

export function LevelDots({ level }: { level: number }) {
  return (
    <span className="level-dots" aria-label={`${level} of 4`}>
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
}: {
  card: AutoScorecard;
  /** Evidence lists start open (the stage's feedback page) or closed (the loop report). */
  evidenceOpen?: boolean;
  levels?: Record<string, string[]>;
  /** The candidate's own levels, shown beside the automatic ones. */
  selfLevels?: Record<string, number>;
}) {
  const pct = card.score.percent;
  return (
    <section className="auto-card" aria-label="Automatic scorecard" data-testid="auto-scorecard">
      <p className="auto-label">
        <strong>Automatic scorecard</strong> · scored by fixed rules from what you did, not by a person
        {pct !== null && pct !== undefined && <span className="score-pill">{Math.round(pct)}%</span>}
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
                  {s.level ? <LevelDots level={s.level} /> : <span className="muted small">not measured</span>}
                  {selfLevels?.[s.dimension] && <span className="small muted">you: {selfLevels[s.dimension]}/4</span>}
                </span>
              </div>
              {descriptor && <p className="small muted">{descriptor}</p>}
              <p className="small">{s.comment}</p>
              {s.evidence.length > 0 && (
                <details open={evidenceOpen}>
                  <summary className="small">Evidence ({s.evidence.length})</summary>
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
            Key points: {card.key_points.filter((k) => k.covered).length} of {card.key_points.length} covered
          </summary>
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
