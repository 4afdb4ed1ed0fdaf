// The coach's ruling on how each review comment matches the planted flaws: the automatic
// match (category + line overlap) unless the coach says otherwise.
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describeError, type ReviewComment, type ReviewScore } from "../api/client";
import { useAsync } from "../lib/useAsync";
import { REVIEW_CATEGORY_LABEL } from "../rooms/review/categories";

// Looked up at render time: ReviewRoom imports this module, so its constants are not
// initialised yet when this one is evaluated.
const categoryLabel = (value: string) => REVIEW_CATEGORY_LABEL[value] ?? value;
const AUTO = "auto";
const NONE = "none";
const VALID = "valid";

export function ReviewMatchOverrides({ stageId, score, onScore }: { stageId: number; score: ReviewScore; onScore: (s: ReviewScore) => void }) {
  const { t } = useTranslation();
  const comments = useAsync(() => api.reviewComments(stageId), [stageId, score]);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const flaws = [...score.matched, ...score.missed].sort((a, b) => a.position - b.position);
  const byId = new Map<number, ReviewComment>((comments.data ?? []).map((c) => [c.id, c]));

  async function rule(comment: number, value: string) {
    setBusy(comment);
    setError(null);
    try {
      if (value === AUTO) {
        await api.reviewMatchClear(stageId, comment);
        onScore(await api.reviewScore(stageId));
      } else {
        const flaw = value === NONE || value === VALID ? null : Number(value);
        onScore(await api.reviewMatchSet(stageId, comment, flaw, value === VALID));
      }
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(null);
    }
  }

  if (!score.comment_matches.length) return null;
  return (
    <section className="match-overrides" aria-labelledby="overrides-title" data-testid="match-overrides">
      <h3 id="overrides-title">{t("coach:matches.title")}</h3>
      <p className="small muted">{t("coach:matches.help")}</p>
      <table className="tests">
        <thead>
          <tr>
            <th scope="col">{t("coach:matches.comment")}</th>
            <th scope="col">{t("coach:home.status")}</th>
            <th scope="col">{t("coach:matches.matches")}</th>
          </tr>
        </thead>
        <tbody>
          {score.comment_matches.map((m) => {
            const c = byId.get(m.comment);
            const value = m.source === "coach" ? (m.flaw !== null ? String(m.flaw) : m.status === "valid" ? VALID : NONE) : AUTO;
            const autoFlaw = flaws.find((f) => f.id === m.flaw);
            return (
              <tr key={m.comment} data-testid={`match-${m.comment}`}>
                <td>
                  <span className="small muted">
                    {t("coach:matches.lines", { first: m.lines[0], last: m.lines[1], category: categoryLabel(m.category) })}
                  </span>
                  {c && <p className="small">{c.text}</p>}
                </td>
                <td>
                  <span className={`badge match-${m.status}`}>{t("coach:matches.status", { status: m.status })}</span>
                  {m.source === "coach" && <span className="small muted"> · {t("coach:matches.byCoach")}</span>}
                  {m.note && <p className="small muted">{m.note}</p>}
                </td>
                <td>
                  <select
                    value={value}
                    disabled={busy !== null}
                    aria-label={t("coach:matches.selectLabel", { first: m.lines[0], last: m.lines[1] })}
                    onChange={(e) => void rule(m.comment, e.target.value)}
                  >
                    <option value={AUTO}>
                      {t("coach:matches.automatic", { auto: m.source === "auto" ? (autoFlaw ? "flaw" : "none") : "hidden", flaw: autoFlaw?.position ?? 0 })}
                    </option>
                    <option value={NONE}>{t("coach:matches.noFlaw")}</option>
                    <option value={VALID}>{t("coach:matches.valid")}</option>
                    {flaws.map((f) => (
                      <option key={f.id} value={f.id}>
                        {t("coach:matches.flaw", { n: f.position, category: categoryLabel(f.category), first: f.lines[0], last: f.lines[1] })}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {error && <p className="error small" role="alert">{error}</p>}
    </section>
  );
}
