// A review question's design doc and its planted flaws. Each flaw's line range is set
// against the line-numbered document, exactly as the candidate's comments will anchor.
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

import { REVIEW_CATEGORIES } from "../rooms/review/categories";
import { nextRange } from "../rooms/review/ReviewRoom";
import { FieldError, ItemControls, Section } from "./fields";
import { type FlawDraft, type KnownIssueDraft, moveItem, type ReviewDraft, SEVERITIES } from "./model";

export function FlawEditor({
  review,
  onChange,
  errors,
}: {
  review: ReviewDraft;
  onChange: (r: ReviewDraft) => void;
  errors: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<number | null>(review.flaws.length ? 0 : null);
  const [editingDoc, setEditingDoc] = useState(!review.document);
  const lines = useMemo(() => review.document.replace(/\n$/, "").split("\n"), [review.document]);
  const flaws = review.flaws;
  const setFlaws = (next: FlawDraft[]) => onChange({ ...review, flaws: next });
  const update = (i: number, patch: Partial<FlawDraft>) => setFlaws(flaws.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  const flawsAt = (n: number) => flaws.map((f, i) => (n >= f.lines[0] && n <= f.lines[1] ? i : -1)).filter((i) => i >= 0);

  return (
    <div className="flaw-editor">
      <Section
        title={t("admin:flaws.document")}
        id="doc-title"
        actions={
          <button type="button" className="secondary small" onClick={() => setEditingDoc((e) => !e)}>
            {editingDoc ? t("admin:flaws.showLines") : t("admin:flaws.editText")}
          </button>
        }
      >
        {editingDoc ? (
          <label>
            <span className="sr-only">{t("admin:flaws.documentLabel")}</span>
            <textarea className="mono" rows={24} value={review.document} onChange={(e) => onChange({ ...review, document: e.target.value })} />
          </label>
        ) : (
          <>
            <p className="small muted">
              {selected !== null ? t("admin:flaws.clickLine", { n: selected + 1 }) : t("admin:flaws.selectFlaw")}
            </p>
            <ol className="doc-lines flaw-doc" data-testid="flaw-doc">
              {lines.map((line, i) => {
                const n = i + 1;
                const on = flawsAt(n);
                const mine = selected !== null && on.includes(selected);
                return (
                  <li key={n} className={`${on.length ? "commented" : ""} ${mine ? "selected" : ""}`}>
                    <button
                      type="button"
                      className="ln"
                      aria-label={t("admin:flaws.line", { n })}
                      disabled={selected === null}
                      onClick={(e) => {
                        if (selected === null) return;
                        const current = flaws[selected]!.lines;
                        update(selected, { lines: nextRange(e.shiftKey ? current : null, n, e.shiftKey) });
                      }}
                    >
                      {n}
                    </button>
                    <span className="line-text">{line || " "}</span>
                    {on.length > 0 && <span className="flaw-tags">{on.map((f) => `#${f + 1}`).join(" ")}</span>}
                  </li>
                );
              })}
            </ol>
          </>
        )}
        <FieldError errors={errors} path="review.document" />
      </Section>
      <Section
        title={t("admin:flaws.planted", { count: flaws.length })}
        id="flaws-title"
        actions={
          <button
            type="button"
            className="secondary small"
            onClick={() => {
              setFlaws([...flaws, { category: "spof", lines: [1, 1], severity: "medium", explanation: "" }]);
              setSelected(flaws.length);
              setEditingDoc(false);
            }}
          >
            {t("admin:flaws.add")}
          </button>
        }
      >
        <p className="small muted">{t("admin:flaws.key")}</p>
        <ol className="flaw-list">
          {flaws.map((f, i) => {
            const path = `review.flaws[${i}]`;
            return (
              <li key={i} className={`card flaw-item ${selected === i ? "selected" : ""}`} onFocusCapture={() => setSelected(i)} onClick={() => setSelected(i)}>
                <div className="section-head">
                  <h3>{t("admin:flaws.item", { n: i + 1, first: f.lines[0], last: f.lines[1] })}</h3>
                  <ItemControls index={i} count={flaws.length} label={t("admin:flaws.itemLabel", { n: i + 1 })} onMove={(to) => setFlaws(moveItem(flaws, i, to))} onRemove={() => { setFlaws(flaws.filter((_, j) => j !== i)); setSelected(null); }} />
                </div>
                <div className="form-grid four">
                  <label>
                    {t("admin:flaws.category")}
                    <select value={f.category} onChange={(e) => update(i, { category: e.target.value })}>
                      {REVIEW_CATEGORIES.map((c) => (
                        <option key={c.value} value={c.value}>
                          {c.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    {t("admin:flaws.firstLine")}
                    <input type="number" min={1} max={lines.length} value={f.lines[0]} onChange={(e) => update(i, { lines: [Number(e.target.value), f.lines[1]] })} />
                  </label>
                  <label>
                    {t("admin:flaws.lastLine")}
                    <input type="number" min={1} max={lines.length} value={f.lines[1]} onChange={(e) => update(i, { lines: [f.lines[0], Number(e.target.value)] })} />
                  </label>
                  <label>
                    {t("admin:flaws.severity")}
                    <select value={f.severity} onChange={(e) => update(i, { severity: e.target.value })}>
                      {SEVERITIES.map((s) => (
                        <option key={s} value={s}>
                          {t("admin:severity.value", { severity: s })}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
                <FieldError errors={errors} path={`${path}.lines`} />
                <FieldError errors={errors} path={`${path}.category`} />
                <label>
                  {t("admin:flaws.explanation")}
                  <textarea rows={2} value={f.explanation} onChange={(e) => update(i, { explanation: e.target.value })} />
                  <FieldError errors={errors} path={`${path}.explanation`} />
                </label>
              </li>
            );
          })}
        </ol>
      </Section>
      <KnownIssuesEditor review={review} onChange={onChange} errors={errors} lineCount={lines.length} />
    </div>
  );
}

/** Real problems of the doc that are not planted flaws: a candidate who finds one is
 * right, and the review score counts it neutral rather than as a false alarm. */
function KnownIssuesEditor({ review, onChange, errors, lineCount }: { review: ReviewDraft; onChange: (r: ReviewDraft) => void; errors: Record<string, unknown>; lineCount: number }) {
  const { t } = useTranslation();
  const issues = review.known_issues ?? [];
  const setIssues = (next: KnownIssueDraft[]) => onChange({ ...review, known_issues: next });
  const update = (i: number, patch: Partial<KnownIssueDraft>) => setIssues(issues.map((k, j) => (j === i ? { ...k, ...patch } : k)));
  return (
    <Section
      title={t("admin:known.title", { count: issues.length })}
      id="known-issues-title"
      actions={
        <button type="button" className="secondary small" onClick={() => setIssues([...issues, { category: "other", lines: [1, 1], explanation: "" }])}>
          {t("admin:known.add")}
        </button>
      }
    >
      <p className="small muted">{t("admin:known.help")}</p>
      <ol className="flaw-list" data-testid="known-issues">
        {issues.map((k, i) => {
          const path = `review.known_issues[${i}]`;
          return (
            <li key={i} className="card flaw-item">
              <div className="section-head">
                <h3>{t("admin:known.item", { n: i + 1, first: k.lines[0], last: k.lines[1] })}</h3>
                <button type="button" className="danger small" onClick={() => setIssues(issues.filter((_, j) => j !== i))}>
                  {t("admin:item.removeButton")}
                </button>
              </div>
              <div className="form-grid four">
                <label>
                  {t("admin:flaws.category")}
                  <select value={k.category} onChange={(e) => update(i, { category: e.target.value })}>
                    {REVIEW_CATEGORIES.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t("admin:flaws.firstLine")}
                  <input type="number" min={1} max={lineCount} value={k.lines[0]} onChange={(e) => update(i, { lines: [Number(e.target.value), k.lines[1]] })} />
                </label>
                <label>
                  {t("admin:flaws.lastLine")}
                  <input type="number" min={1} max={lineCount} value={k.lines[1]} onChange={(e) => update(i, { lines: [k.lines[0], Number(e.target.value)] })} />
                </label>
              </div>
              <FieldError errors={errors} path={`${path}.lines`} />
              <FieldError errors={errors} path={`${path}.category`} />
              <label>
                {t("admin:known.why")}
                <textarea rows={2} value={k.explanation} onChange={(e) => update(i, { explanation: e.target.value })} />
                <FieldError errors={errors} path={`${path}.explanation`} />
              </label>
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
