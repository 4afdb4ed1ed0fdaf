// The key points of a discussion or design question, or of one of its follow-ups: what a
// strong answer covers, each with the patterns (regular expressions, English and Chinese)
// that recognise it in an answer and the rubric dimension it evidences. The automatic
// scorecard shows each as covered or not, with the sentence that covered it.
import { FieldError, ItemControls } from "./fields";
import { type KeyPointDraft, moveItem } from "./model";

const LANGUAGES = [
  ["en", "Patterns, English (one regular expression a line)"],
  ["zh", "Patterns, Chinese (one regular expression a line)"],
] as const;

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
  const update = (i: number, patch: Partial<KeyPointDraft>) => onChange(keyPoints.map((k, j) => (j === i ? { ...k, ...patch } : k)));
  const listId = `dimensions-${path.replace(/[^a-z0-9]/gi, "-")}`;
  return (
    <fieldset className="key-points" data-testid={`key-points-${path}`}>
      <legend>{title}</legend>
      {keyPoints.length === 0 && <p className="muted small">No key points: the automatic scorecard measures nothing here.</p>}
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
                <strong>Key point {i + 1}</strong>
                <ItemControls index={i} count={keyPoints.length} label={`key point ${i + 1}`} onMove={(to) => onChange(moveItem(keyPoints, i, to))} onRemove={() => onChange(keyPoints.filter((_, j) => j !== i))} />
              </div>
              <div className="key-point-fields">
                <label className="key-point-text">
                  Point (what a strong answer says)
                  <input value={k.point} onChange={(e) => update(i, { point: e.target.value })} placeholder="prefill is compute-bound" />
                  <FieldError errors={errors} path={`${at}.point`} />
                </label>
                <label className="key-point-dimension">
                  Rubric dimension
                  <input list={listId} value={k.dimension} onChange={(e) => update(i, { dimension: e.target.value })} />
                  <FieldError errors={errors} path={`${at}.dimension`} />
                </label>
                {LANGUAGES.map(([language, label]) => (
                  <label key={language}>
                    {label}
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
        Add key point
      </button>
      <FieldError errors={errors} path={path} />
    </fieldset>
  );
}
