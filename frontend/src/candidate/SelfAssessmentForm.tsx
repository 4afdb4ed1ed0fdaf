// The candidate's self-assessment after a stage: a level per rubric dimension, with the
// rubric's descriptors to choose from, saved beside the automatic scorecard.
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describeError, type Rubric } from "../api/client";

export function SelfAssessmentForm({
  stageId,
  rubric,
  onSaved,
}: {
  stageId: number;
  rubric: Rubric;
  onSaved: (levels: Record<string, number>) => void;
}) {
  const { t } = useTranslation();
  const [levels, setLevels] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api
      .selfAssessment(stageId)
      .then((saved) => {
        const loaded = Object.fromEntries(saved.scores.map((s) => [s.dimension, s.level]));
        setLevels(loaded);
        setComments(Object.fromEntries(saved.scores.map((s) => [s.dimension, s.comment ?? ""])));
        onSaved(loaded);
      })
      .catch((err) => setError(describeError(err)));
  }, [stageId, onSaved]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const saved = await api.selfAssessmentSave(stageId, {
        scores: rubric.dimensions
          .filter((d) => levels[d.name])
          .map((d) => ({ dimension: d.name, level: levels[d.name]!, comment: comments[d.name] ?? "" })),
      });
      onSaved(Object.fromEntries(saved.scores.map((s) => [s.dimension, s.level])));
      setStatus(t("candidate:self.saved"));
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <form className="card self-assessment" onSubmit={save} aria-label={t("candidate:self.label")}>
      <h2>{t("candidate:self.title")}</h2>
      <p className="small muted">{t("candidate:self.lead")}</p>
      {rubric.dimensions.map((d) => {
        const descriptors = Array.isArray(d.levels) ? (d.levels as string[]) : [];
        return (
          <fieldset key={d.name} className="self-dimension">
            <legend>{d.name}</legend>
            {[1, 2, 3, 4].map((n) => (
              <label key={n} className="self-level">
                <input
                  type="radio"
                  name={`self-${d.name}`}
                  value={n}
                  checked={levels[d.name] === n}
                  onChange={() => setLevels({ ...levels, [d.name]: n })}
                />
                <span>
                  <strong>{n}</strong> {descriptors[n - 1] ?? ""}
                </span>
              </label>
            ))}
            <input
              type="text"
              className="self-comment"
              aria-label={t("candidate:self.noteOn", { dimension: d.name })}
              placeholder={t("candidate:self.notePlaceholder")}
              value={comments[d.name] ?? ""}
              onChange={(e) => setComments({ ...comments, [d.name]: e.target.value })}
            />
          </fieldset>
        );
      })}
      <div className="row">
        <button type="submit">{t("candidate:self.save")}</button>
        {status && <span className="small muted">{status}</span>}
      </div>
      {error && <p className="error">{error}</p>}
    </form>
  );
}
