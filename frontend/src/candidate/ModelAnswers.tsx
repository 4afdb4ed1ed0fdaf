// Model answers, shown on the stage's feedback page once the stage is done: what a strong
// answer covers, the reference solution and the design doc's planted flaws.
import { useTranslation } from "react-i18next";

import { api, describeError } from "../api/client";
import type { UiLanguage } from "../i18n";
import { useAsync } from "../lib/useAsync";
import { REVIEW_CATEGORY_LABEL } from "../rooms/review/categories";
import { UntranslatedNote } from "./FeedbackLanguage";

/** `lang`: the language chosen to read the feedback in (undefined: the interface's). */
export function ModelAnswers({ stageId, lang, shownIn }: { stageId: number; lang?: UiLanguage; shownIn: UiLanguage }) {
  const { t } = useTranslation();
  const answers = useAsync(() => api.modelAnswers(stageId, lang), [stageId, lang]);
  if (answers.error !== undefined) return <p className="error">{describeError(answers.error)}</p>;
  if (!answers.data) return <p className="muted">{t("candidate:modelAnswers.loading")}</p>;
  return (
    <section className="card model-answers" aria-label={t("candidate:modelAnswers.title")} data-testid="model-answers">
      <h2>{t("candidate:modelAnswers.title")}</h2>
      <p className="small muted">{t("candidate:modelAnswers.lead")}</p>
      {answers.data.questions.map((q) => {
        const languages = Object.keys(q.reference);
        return (
          <article key={q.question} className="model-answer">
            <h3>{q.title}</h3>
            <UntranslatedNote objects={[q, ...q.strong_answers]} wanted={shownIn} />
            {q.strong_answers.length > 0 && (
              <ol className="strong-answers">
                {q.strong_answers.map((a) => (
                  <li key={a.follow_up}>
                    <p>
                      <strong>{a.prompt}</strong>
                    </p>
                    <p className="prose-pre small">{a.notes}</p>
                  </li>
                ))}
              </ol>
            )}
            {languages.length > 0 && (
              <>
                <h4>{t("candidate:modelAnswers.reference")}</h4>
                <p className="small muted">
                  {q.complexity
                    ? t("candidate:modelAnswers.complexity", { complexity: q.complexity })
                    : t("candidate:modelAnswers.noComplexity")}
                </p>
                {languages.map((lang) => (
                  <details key={lang} open={languages.length === 1}>
                    <summary className="small">{lang}</summary>
                    <pre className="code-block">{q.reference[lang]}</pre>
                  </details>
                ))}
                {q.wrong_patterns.length > 0 && (
                  <ul className="small">
                    {q.wrong_patterns.map((p, i) => (
                      <li key={i}>{p}</li>
                    ))}
                  </ul>
                )}
              </>
            )}
            {q.flaws.length > 0 && (
              <>
                <h4>{t("candidate:modelAnswers.flaws")}</h4>
                <ul className="flaws">
                  {q.flaws.map((f, i) => (
                    <li key={i} className="flaw">
                      <strong>{REVIEW_CATEGORY_LABEL[f.category] ?? f.category}</strong> ·{" "}
                      {t("common:flawWhere", { first: f.lines[0], last: f.lines[1], severity: f.severity })}
                      <p className="small">{f.explanation}</p>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </article>
        );
      })}
    </section>
  );
}
