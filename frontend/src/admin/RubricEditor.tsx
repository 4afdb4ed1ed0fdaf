// Rubrics: dimensions with weights and four level descriptors. Saved through the bank
// import (a bank document holding just this rubric), which replaces the rubric by slug.
import { useEffect, useState } from "react";

import { api, type BankRubric, describeError } from "../api/client";
import { useAsync } from "../lib/useAsync";
import { BankNav } from "./BankNav";
import { FieldError, ItemControls, SaveFeedback, Section } from "./fields";
import { moveItem, rubricBank } from "./model";
import { useBankSave } from "./useBankSave";

const LEVEL_NAMES = ["1 · weak", "2 · mixed", "3 · solid", "4 · strong"];

function emptyRubric(): BankRubric {
  return { slug: "", title: "", dimensions: [{ name: "", weight: 1, levels: ["", "", "", ""] }] };
}

export function RubricEditor() {
  const bank = useAsync(() => api.bankExport("rubrics"), []);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<BankRubric | null>(null);
  const { errors, message, busy, clear: clearSave, save: saveBank } = useBankSave();
  const rubrics = bank.data?.rubrics ?? [];

  useEffect(() => {
    if (draft || !rubrics.length) return;
    setSelected(rubrics[0]!.slug);
    setDraft(structuredClone(rubrics[0]!));
  }, [rubrics, draft]);

  const pick = (slug: string | null) => {
    setSelected(slug);
    clearSave();
    const found = rubrics.find((r) => r.slug === slug);
    setDraft(found ? structuredClone(found) : emptyRubric());
  };

  async function save() {
    if (!draft) return;
    await saveBank({
      bank: rubricBank(draft),
      section: "rubrics",
      saved: (verb) => `${verb} rubric ${draft.slug}. Loops started from now on are scored with it; loops already started keep the version they started with.`,
      after: async () => {
        await bank.reload();
        setSelected(draft.slug);
      },
    });
  }

  const prefix = `rubrics[0] (${draft?.slug ?? ""})`;
  const setDim = (i: number, patch: Partial<BankRubric["dimensions"][number]>) =>
    draft && setDraft({ ...draft, dimensions: draft.dimensions.map((d, j) => (j === i ? { ...d, ...patch } : d)) });

  return (
    <main id="main" className="page wide">
      <div className="page-head">
        <div>
          <h1>Rubrics</h1>
          <p className="muted">What coaches score a stage on: each dimension has a weight and four level descriptors.</p>
        </div>
      </div>
      <BankNav />
      {bank.error !== undefined && <p className="error">{describeError(bank.error)}</p>}
      <div className="master-detail">
        <nav className="card list-pane" aria-label="Rubrics">
          <ul className="plain pick-list">
            {rubrics.map((r) => (
              <li key={r.slug}>
                <button type="button" className={`link-button ${selected === r.slug ? "active" : ""}`} onClick={() => pick(r.slug)}>
                  {r.title || r.slug}
                  <span className="small muted mono">{r.slug}</span>
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary small" onClick={() => pick(null)}>
            New rubric
          </button>
        </nav>
        {draft && (
          <div className="detail-pane" data-testid="rubric-editor">
            <SaveFeedback message={message} errors={errors} />
            <Section
              title={selected ? `Rubric ${draft.slug}` : "New rubric"}
              id="rubric-title"
              actions={
                <button type="button" className="primary" disabled={busy || !draft.slug} onClick={() => void save()}>
                  {busy ? "Saving…" : "Save rubric"}
                </button>
              }
            >
              <div className="form-grid">
                <label>
                  Slug
                  <input value={draft.slug} readOnly={Boolean(selected)} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} placeholder="coding-default" />
                  <FieldError errors={errors} path={`${prefix}.slug`} />
                </label>
                <label className="span-2">
                  Title
                  <input value={draft.title ?? ""} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
                </label>
              </div>
            </Section>
            {draft.dimensions.map((d, i) => (
              <Section
                key={i}
                title={`Dimension ${i + 1}${d.name ? ` · ${d.name}` : ""}`}
                id={`dim-${i}`}
                actions={
                  <ItemControls
                    index={i}
                    count={draft.dimensions.length}
                    label={`dimension ${i + 1}`}
                    onMove={(to) => setDraft({ ...draft, dimensions: moveItem(draft.dimensions, i, to) })}
                    onRemove={() => setDraft({ ...draft, dimensions: draft.dimensions.filter((_, j) => j !== i) })}
                  />
                }
              >
                <div className="form-grid">
                  <label className="span-2">
                    Name
                    <input value={d.name} onChange={(e) => setDim(i, { name: e.target.value })} />
                    <FieldError errors={errors} path={`${prefix}.dimensions[${i}].name`} />
                  </label>
                  <label>
                    Weight
                    <input type="number" min={0} step={0.5} value={d.weight} onChange={(e) => setDim(i, { weight: Number(e.target.value) })} />
                    <FieldError errors={errors} path={`${prefix}.dimensions[${i}].weight`} />
                  </label>
                </div>
                <div className="levels-edit">
                  {[0, 1, 2, 3].map((n) => (
                    <label key={n}>
                      Level {LEVEL_NAMES[n]}
                      <textarea rows={3} value={d.levels[n] ?? ""} onChange={(e) => setDim(i, { levels: d.levels.map((l, j) => (j === n ? e.target.value : l)) })} />
                    </label>
                  ))}
                </div>
                <FieldError errors={errors} path={`${prefix}.dimensions[${i}].levels`} />
              </Section>
            ))}
            <button type="button" className="secondary" onClick={() => setDraft({ ...draft, dimensions: [...draft.dimensions, { name: "", weight: 1, levels: ["", "", "", ""] }] })}>
              Add dimension
            </button>
          </div>
        )}
      </div>
    </main>
  );
}
