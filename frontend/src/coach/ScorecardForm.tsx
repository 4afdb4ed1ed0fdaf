import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { ApiError, api, describeError, type Recommendation, type Rubric } from "../api/client";
import { i18next } from "../i18n";
import { formatDateTime } from "../i18n/format";
import { RECOMMENDATION_LABEL } from "../lib/format";

interface Draft {
  levels: Record<string, number>;
  comments: Record<string, string>;
  summary: string;
  /** "" until the coach chooses one (a draft may stay without). */
  recommendation: Recommendation | "";
  private_notes: string;
}

/** Why "Submit" did nothing: the server refuses a submitted card without a recommendation. */
export function needsRecommendation(): string {
  return i18next.t("coach:scorecard.needsRecommendation");
}

function savedLabel(draft: boolean | undefined, at: string): string {
  const time = formatDateTime(at, { timeStyle: "medium" });
  return i18next.t("coach:scorecard.saved", { draft: String(Boolean(draft)), time });
}

/** `disabled`: shown but not editable (the room was refused: the server would not save it). */
export function ScorecardForm({ stageId, rubric, disabled = false }: { stageId: number; rubric: Rubric | null; disabled?: boolean }) {
  const { t } = useTranslation();
  const dimensions = rubric?.dimensions ?? [];
  const [draft, setDraft] = useState<Draft>({ levels: {}, comments: {}, summary: "", recommendation: "", private_notes: "" });
  const [status, setStatus] = useState<string | null>(null);
  // The candidate sees the scorecard only once submitted; after that it changes only by submitting again.
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [missingRecommendation, setMissingRecommendation] = useState(false);
  const recommendationRef = useRef<HTMLSelectElement>(null);

  useEffect(() => {
    api
      .scorecard(stageId)
      .then((card) => {
        // The automatic card of a finished stage is not the coach's to edit.
        if (card.source !== "coach") return;
        setDraft({
          levels: Object.fromEntries(card.scores.map((s) => [s.dimension, s.level])),
          comments: Object.fromEntries(card.scores.map((s) => [s.dimension, s.comment])),
          summary: card.summary ?? "",
          recommendation: card.recommendation ?? "",
          private_notes: card.private_notes ?? "",
        });
        setSubmitted(!card.draft);
        setStatus(savedLabel(card.draft, card.updated_at));
      })
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 404)) setError(describeError(err));
      });
  }, [stageId]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const submit = submitter?.value === "submit";
    setError(null);
    setMissingRecommendation(false);
    if (submit && !draft.recommendation) {
      // The server refuses it too (400 on `recommendation`); say so before asking it.
      setError(needsRecommendation());
      setMissingRecommendation(true);
      recommendationRef.current?.focus();
      return;
    }
    try {
      const card = await api.scorecardSave(stageId, {
        scores: dimensions
          .filter((d) => draft.levels[d.name])
          .map((d) => ({ dimension: d.name, level: draft.levels[d.name]!, comment: draft.comments[d.name] ?? "" })),
        summary: draft.summary,
        recommendation: draft.recommendation,
        private_notes: draft.private_notes,
        submit,
      });
      setSubmitted(!card.draft);
      setStatus(savedLabel(card.draft, card.updated_at));
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <form className="scorecard-form" onSubmit={save} aria-label={t("coach:tabs.scorecard")}>
      <fieldset className="bare" disabled={disabled}>
      {!rubric && <p className="muted">{t("coach:scorecard.noRubric")}</p>}
      {dimensions.map((d) => {
        const levels = Array.isArray(d.levels) ? (d.levels as string[]) : [];
        return (
          <fieldset key={d.name} className="dimension">
            <legend>
              {d.name} {d.weight && d.weight !== 1 ? <span className="muted small">× {d.weight}</span> : null}
            </legend>
            <div className="levels">
              {[1, 2, 3, 4].map((level) => (
                <label key={level} className={`level ${draft.levels[d.name] === level ? "chosen" : ""}`}>
                  <input
                    type="radio"
                    name={`level-${d.name}`}
                    value={level}
                    checked={draft.levels[d.name] === level}
                    onChange={() => setDraft((x) => ({ ...x, levels: { ...x.levels, [d.name]: level } }))}
                  />
                  <strong>{level}</strong>
                  <span className="small">{levels[level - 1] ?? ""}</span>
                </label>
              ))}
            </div>
            <label className="small">
              {t("coach:scorecard.comment")}
              <input
                value={draft.comments[d.name] ?? ""}
                onChange={(e) => setDraft((x) => ({ ...x, comments: { ...x.comments, [d.name]: e.target.value } }))}
              />
            </label>
          </fieldset>
        );
      })}
      <label>
        {t("coach:scorecard.summary")}
        <textarea rows={4} value={draft.summary} onChange={(e) => setDraft((x) => ({ ...x, summary: e.target.value }))} />
      </label>
      <label>
        {t("coach:scorecard.recommendation")}
        <select ref={recommendationRef} value={draft.recommendation} aria-invalid={missingRecommendation} onChange={(e) => setDraft((x) => ({ ...x, recommendation: e.target.value as Recommendation | "" }))}>
          <option value="">{t("coach:scorecard.notChosen")}</option>
          {Object.entries(RECOMMENDATION_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("coach:scorecard.privateNotes")}
        <textarea rows={3} value={draft.private_notes} onChange={(e) => setDraft((x) => ({ ...x, private_notes: e.target.value }))} />
      </label>
      <div className="row">
        {!submitted && (
          <button type="submit" className="secondary" value="draft">
            {t("coach:scorecard.saveDraft")}
          </button>
        )}
        <button type="submit" className="primary" value="submit">
          {submitted ? t("coach:scorecard.update") : t("coach:scorecard.submit")}
        </button>
        {status && <span className="muted small" data-testid="scorecard-status">{status}</span>}
      </div>
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
