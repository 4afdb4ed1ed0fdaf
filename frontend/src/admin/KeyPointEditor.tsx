// The key points of a discussion or design question, or of one of its follow-ups: what a
// strong answer covers, each with the patterns (regular expressions, English and Chinese)
// that recognise it in an answer and the rubric dimension it evidences. The automatic
// scorecard shows each as covered or not, with the sentence that covered it.
import { useTranslation } from "react-i18next";

import { FieldError, ItemControls } from "./fields";
import { type KeyPointDraft, moveItem } from "./model";

const LANGUAGES = ["en", "zh"] as const;

export function KeyPointEditor({
  keyPoints,
  onChange,
  errors,
  path,
  dimensions,
  title,
}: {
  keyPoints: KeyPointDraft[];
  onChange: (list: KeyPointDraft[]) => void;
  errors: Record<string, unknown>;
  /** The bank-file path of the list: `key_points` or `follow_ups[2].key_points`. */
  path: string;
  /** The rubric's dimension names, offered for `dimension` (any name is accepted). */
  dimensions: string[];
  title: string;
}) {
  const { t } = useTranslation();
  const update = (i: number, patch: Partial<KeyPointDraft>) => onChange(keyPoints.map((k, j) => (j === i ? { ...k, ...patch } : k)));
  const listId = `dimensions-${path.replace(/[^a-z0-9]/gi, "-")}`;
  return (
    <fieldset className="key-points" data-testid={`key-points-${path}`}>
      <legend>{title}</legend>
      {keyPoints.length === 0 && <p className="muted small">{t("admin:keyPoints.none")}</p>}
      <datalist id={listId}>
        {dimensions.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
      <ol className="key-point-list">
        {keyPoints.map((k, i) => {
          const at = `${path}[${i}]`;
          return (
            <li key={i} className="key-point">
              <div className="section-head">
                <strong>{t("admin:keyPoints.item", { n: i + 1 })}</strong>
                <ItemControls index={i} count={keyPoints.length} label={t("admin:keyPoints.itemLabel", { n: i + 1 })} onMove={(to) => onChange(moveItem(keyPoints, i, to))} onRemove={() => onChange(keyPoints.filter((_, j) => j !== i))} />
              </div>
              <div className="key-point-fields">
                <label className="key-point-text">
                  {t("admin:keyPoints.point")}
                  <input value={k.point} onChange={(e) => update(i, { point: e.target.value })} placeholder={t("admin:keyPoints.pointPlaceholder")} />
                  <FieldError errors={errors} path={`${at}.point`} />
                </label>
                <label className="key-point-dimension">
                  {t("admin:keyPoints.dimension")}
                  <input list={listId} value={k.dimension} onChange={(e) => update(i, { dimension: e.target.value })} />
                  <FieldError errors={errors} path={`${at}.dimension`} />
                </label>
                {LANGUAGES.map((language) => (
                  <label key={language}>
                    {t("admin:keyPoints.patterns", { language })}
                    <textarea
                      className="mono"
                      rows={3}
                      value={(k.patterns[language] ?? []).join("\n")}
                      onChange={(e) => update(i, { patterns: { ...k.patterns, [language]: e.target.value.split("\n") } })}
                    />
                    <FieldError errors={errors} path={`${at}.patterns.${language}`} nested />
                  </label>
                ))}
              </div>
              <FieldError errors={errors} path={`${at}.patterns`} />
              <FieldError errors={errors} path={at} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="secondary small" onClick={() => onChange([...keyPoints, { point: "", dimension: dimensions[0] ?? "", patterns: { en: [""] } }])}>
        {t("admin:keyPoints.add")}
      </button>
      <FieldError errors={errors} path={path} />
    </fieldset>
  );
}
