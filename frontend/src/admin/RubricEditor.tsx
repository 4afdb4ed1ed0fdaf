// Rubrics: dimensions with weights and four level descriptors. Saved through the bank
// import (a bank document holding just this rubric), which replaces the rubric by slug.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { api, type BankRubric, describeError } from "../api/client";
import { useAsync } from "../lib/useAsync";
import { BankNav } from "./BankNav";
import { FieldError, ItemControls, SaveFeedback, Section } from "./fields";
import { moveItem, rubricBank } from "./model";
import { useBankSave } from "./useBankSave";

function emptyRubric(): BankRubric {
  return { slug: "", title: "", dimensions: [{ name: "", weight: 1, levels: ["", "", "", ""] }] };
}

export function RubricEditor() {
  const { t } = useTranslation();
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
      saved: (outcome) => t("admin:rubrics.saved", { outcome, slug: draft.slug }),
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
          <h1>{t("admin:rubrics.title")}</h1>
          <p className="muted">{t("admin:rubrics.intro")}</p>
        </div>
      </div>
      <BankNav />
      {bank.error !== undefined && <p className="error">{describeError(bank.error)}</p>}
      <div className="master-detail">
        <nav className="card list-pane" aria-label={t("admin:rubrics.title")}>
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
            {t("admin:rubrics.new")}
          </button>
        </nav>
        {draft && (
          <div className="detail-pane" data-testid="rubric-editor">
            <SaveFeedback message={message} errors={errors} />
            <Section
              title={selected ? t("admin:rubrics.heading", { slug: draft.slug }) : t("admin:rubrics.new")}
              id="rubric-title"
              actions={
                <button type="button" className="primary" disabled={busy || !draft.slug} onClick={() => void save()}>
                  {busy ? t("admin:saving") : t("admin:rubrics.save")}
                </button>
              }
            >
              <div className="form-grid">
                <label>
                  {t("admin:slug")}
                  <input value={draft.slug} readOnly={Boolean(selected)} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} placeholder="coding-default" />
                  <FieldError errors={errors} path={`${prefix}.slug`} />
                </label>
                <label className="span-2">
                  {t("admin:parts.title")}
                  <input value={draft.title ?? ""} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
                </label>
              </div>
            </Section>
            {draft.dimensions.map((d, i) => (
              <Section
                key={i}
                title={d.name ? t("admin:rubrics.dimensionNamed", { n: i + 1, name: d.name }) : t("admin:rubrics.dimension", { n: i + 1 })}
                id={`dim-${i}`}
                actions={
                  <ItemControls
                    index={i}
                    count={draft.dimensions.length}
                    label={t("admin:rubrics.dimensionLabel", { n: i + 1 })}
                    onMove={(to) => setDraft({ ...draft, dimensions: moveItem(draft.dimensions, i, to) })}
                    onRemove={() => setDraft({ ...draft, dimensions: draft.dimensions.filter((_, j) => j !== i) })}
                  />
                }
              >
                <div className="form-grid">
                  <label className="span-2">
                    {t("admin:rubrics.name")}
                    <input value={d.name} onChange={(e) => setDim(i, { name: e.target.value })} />
                    <FieldError errors={errors} path={`${prefix}.dimensions[${i}].name`} />
                  </label>
                  <label>
                    {t("admin:rubrics.weight")}
                    <input type="number" min={0} step={0.5} value={d.weight} onChange={(e) => setDim(i, { weight: Number(e.target.value) })} />
                    <FieldError errors={errors} path={`${prefix}.dimensions[${i}].weight`} />
                  </label>
                </div>
                <div className="levels-edit">
                  {[0, 1, 2, 3].map((n) => (
                    <label key={n}>
                      {t("admin:rubrics.level", { level: n + 1 })}
                      <textarea rows={3} value={d.levels[n] ?? ""} onChange={(e) => setDim(i, { levels: d.levels.map((l, j) => (j === n ? e.target.value : l)) })} />
                    </label>
                  ))}
                </div>
                <FieldError errors={errors} path={`${prefix}.dimensions[${i}].levels`} />
              </Section>
            ))}
            <button type="button" className="secondary" onClick={() => setDraft({ ...draft, dimensions: [...draft.dimensions, { name: "", weight: 1, levels: ["", "", "", ""] }] })}>
              {t("admin:rubrics.addDimension")}
            </button>
          </div>
        )}
      </div>
    </main>
  );
}
