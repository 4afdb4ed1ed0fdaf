// Loop templates: ordered stages (drag to order, or the arrow buttons), each with its kind,
// clock, questions and an optional rubric. Saved through the bank import (a bank document
// with just this loop), which replaces the template by slug.
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

import { api, type BankLoop, type BankStage, describeError, type StageKind } from "../api/client";
import { formatNumber } from "../i18n/format";
import { stageKindLabel, type StageKinds, useStageKinds } from "../lib/stageKinds";
import { useAsync } from "../lib/useAsync";
import { BankNav } from "./BankNav";
import { FieldError, ItemControls, SaveFeedback, Section } from "./fields";
import { loopBank, moveItem, questionKindsFor } from "./model";
import { useBankSave } from "./useBankSave";

function emptyLoop(): BankLoop {
  return { slug: "", title: "", description: "", status: "draft", stages: [] };
}

function StageCard({
  stage,
  kinds,
  index,
  count,
  questions,
  rubrics,
  onChange,
  onMove,
  onRemove,
  errors,
  prefix,
  dragging,
  onDragStart,
  onDropAt,
}: {
  stage: BankStage;
  kinds: StageKinds | null;
  index: number;
  count: number;
  questions: { slug: string; title: string; kind: string; status: string }[];
  rubrics: string[];
  onChange: (s: BankStage) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  errors: Record<string, unknown>;
  prefix: string;
  dragging: boolean;
  onDragStart: () => void;
  onDropAt: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [over, setOver] = useState(false);
  const needed: readonly string[] | null = questionKindsFor(kinds, stage.kind);
  const choices = questions.filter((q) => (!needed || needed.includes(q.kind)) && !stage.questions.includes(q.slug) && q.status !== "archived");
  // The server's kinds, in loop order; a kind it does not list stays selectable as it is.
  const kindChoices = (kinds?.list ?? []).map((spec) => spec.kind);
  if (!kindChoices.includes(stage.kind)) kindChoices.push(stage.kind);
  const path = `${prefix}.stages[${index}]`;
  return (
    <li
      className={`card stage-card ${dragging ? "dragging" : ""} ${over ? "drop-target" : ""}`}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", String(index));
        onDragStart();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onDropAt();
      }}
      data-testid={`stage-card-${index + 1}`}
    >
      <div className="section-head">
        <h3>
          <span className="drag-handle" aria-hidden="true" title={t("admin:loops.drag")}>
            ⠿
          </span>{" "}
          {index + 1}. {stage.title || stageKindLabel(kinds, stage.kind)}
        </h3>
        <ItemControls index={index} count={count} label={t("admin:loops.stageLabel", { n: index + 1 })} onMove={onMove} onRemove={onRemove} />
      </div>
      <div className="form-grid four">
        <label>
          {t("admin:list.kind")}
          <select value={stage.kind} onChange={(e) => onChange({ ...stage, kind: e.target.value as StageKind })}>
            {kindChoices.map((k) => (
              <option key={k} value={k}>
                {stageKindLabel(kinds, k)}
              </option>
            ))}
          </select>
        </label>
        <label className="span-2">
          {t("admin:parts.title")}
          <input value={stage.title} onChange={(e) => onChange({ ...stage, title: e.target.value })} aria-label={t("admin:loops.stageTitle", { n: index + 1 })} />
          <FieldError errors={errors} path={`${path}.title`} />
        </label>
        <label>
          {t("admin:loops.minutes")}
          <input type="number" min={1} max={600} value={stage.minutes} onChange={(e) => onChange({ ...stage, minutes: Number(e.target.value) })} aria-label={t("admin:loops.stageMinutes", { n: index + 1 })} />
          <FieldError errors={errors} path={`${path}.minutes`} />
        </label>
      </div>
      <div className="form-grid">
        <div className="span-2">
          <span className="label">
            {needed
              ? t("admin:loops.questionsOfKinds", {
                  kinds: new Intl.ListFormat(i18n.language, { type: "disjunction" }).format(needed.map((k) => t("admin:kind.value", { kind: k }))),
                })
              : t("admin:loops.questions")}
          </span>
          <ul className="chips editable">
            {stage.questions.map((slug) => (
              <li key={slug} className="chip">
                {slug}
                <button type="button" className="chip-x" aria-label={t("admin:loops.removeQuestion", { slug, n: index + 1 })} onClick={() => onChange({ ...stage, questions: stage.questions.filter((s) => s !== slug) })}>
                  ×
                </button>
              </li>
            ))}
          </ul>
          <select
            aria-label={t("admin:loops.addQuestionTo", { n: index + 1 })}
            value=""
            onChange={(e) => e.target.value && onChange({ ...stage, questions: [...stage.questions, e.target.value] })}
          >
            <option value="">{t("admin:loops.addQuestion")}</option>
            {choices.map((q) => (
              <option key={q.slug} value={q.slug}>
                {q.status !== "published"
                  ? t("admin:loops.choiceWithStatus", { slug: q.slug, title: q.title, status: t("admin:status.value", { status: q.status }) })
                  : `${q.slug} — ${q.title}`}
              </option>
            ))}
          </select>
          <FieldError errors={errors} path={`${path}.questions`} nested />
        </div>
        <label>
          {t("admin:loops.rubric")}
          <select value={stage.rubric ?? ""} onChange={(e) => onChange({ ...stage, rubric: e.target.value || undefined })}>
            <option value="">{t("admin:loops.questionsOwn")}</option>
            {rubrics.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <FieldError errors={errors} path={`${path}.rubric`} />
        </label>
      </div>
    </li>
  );
}

export function LoopBuilder() {
  const { t } = useTranslation();
  const bank = useAsync(() => api.bankExport("rubrics,loops"), []);
  const questions = useAsync(() => api.questions(), []);
  const { kinds } = useStageKinds();
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<BankLoop | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const { errors, message, busy, clear: clearSave, save: saveBank } = useBankSave();
  const loops = bank.data?.loops ?? [];
  const rubrics = (bank.data?.rubrics ?? []).map((r) => r.slug);
  const questionRows = useMemo(
    () => (questions.data ?? []).map((q) => ({ slug: q.slug, title: q.title, kind: q.kind, status: q.status })),
    [questions.data],
  );

  useEffect(() => {
    if (draft || !loops.length) return;
    setSelected(loops[0]!.slug);
    setDraft({ status: "published", ...structuredClone(loops[0]!) });
  }, [loops, draft]);

  const pick = (slug: string | null) => {
    setSelected(slug);
    clearSave();
    const found = loops.find((l) => l.slug === slug);
    setDraft(found ? { status: "published", ...structuredClone(found) } : emptyLoop());
  };

  async function save() {
    if (!draft) return;
    await saveBank({
      bank: loopBank(draft),
      section: "loops",
      saved: (outcome) => t("admin:loops.saved", { outcome, slug: draft.slug }),
      after: async () => {
        await bank.reload();
        setSelected(draft.slug);
      },
    });
  }

  const prefix = `loops[0] (${draft?.slug ?? ""})`;
  const setStages = (stages: BankStage[]) => draft && setDraft({ ...draft, stages });
  const minutes = draft?.stages.reduce((n, s) => n + Number(s.minutes || 0), 0) ?? 0;

  return (
    <main id="main" className="page wide">
      <div className="page-head">
        <div>
          <h1>{t("admin:nav.loops")}</h1>
          <p className="muted">{t("admin:loops.intro")}</p>
        </div>
      </div>
      <BankNav />
      {bank.error !== undefined && <p className="error">{describeError(bank.error)}</p>}
      <div className="master-detail">
        <nav className="card list-pane" aria-label={t("admin:nav.loops")}>
          <ul className="plain pick-list">
            {loops.map((l) => (
              <li key={l.slug}>
                <button type="button" className={`link-button ${selected === l.slug ? "active" : ""}`} onClick={() => pick(l.slug)}>
                  {l.title}
                  <span className="small muted mono">
                    {l.slug}
                    {l.status && l.status !== "published" ? ` · ${t("admin:status.value", { status: l.status })}` : ""}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary small" onClick={() => pick(null)}>
            {t("admin:loops.new")}
          </button>
        </nav>
        {draft && (
          <div className="detail-pane" data-testid="loop-builder">
            <SaveFeedback message={message} errors={errors} />
            <Section
              title={selected ? t("admin:loops.heading", { slug: draft.slug }) : t("admin:loops.new")}
              id="loop-title"
              actions={
                <button type="button" className="primary" disabled={busy || !draft.slug} onClick={() => void save()}>
                  {busy ? t("admin:saving") : t("admin:loops.save")}
                </button>
              }
            >
              <div className="form-grid">
                <label>
                  {t("admin:slug")}
                  <input value={draft.slug} readOnly={Boolean(selected)} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} placeholder="ai-lab-infra-sde" />
                  <FieldError errors={errors} path={`${prefix}.slug`} />
                </label>
                <label>
                  {t("admin:parts.title")}
                  <input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} aria-label={t("admin:loops.loopTitle")} />
                  <FieldError errors={errors} path={`${prefix}.title`} />
                </label>
                <label>
                  {t("admin:loops.status")}
                  <select value={draft.status ?? "published"} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
                    {(["published", "draft", "archived"] as const).map((status) => (
                      <option key={status} value={status}>
                        {t("admin:status.value", { status })}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="span-3">
                  {t("admin:loops.description")}
                  <textarea rows={2} value={draft.description ?? ""} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
                </label>
              </div>
            </Section>
            <div className="section-head">
              <h2>{t("admin:loops.stages", { count: draft.stages.length, minutes: formatNumber(minutes, { style: "unit", unit: "minute", unitDisplay: "short" }) })}</h2>
              <button
                type="button"
                className="secondary small"
                onClick={() => setStages([...draft.stages, { kind: "coding", title: "", minutes: 60, questions: [] }])}
              >
                {t("admin:loops.addStage")}
              </button>
            </div>
            <FieldError errors={errors} path={`${prefix}.stages`} />
            <ol className="stage-list" data-testid="stage-list">
              {draft.stages.map((stage, i) => (
                <StageCard
                  key={`${i}-${stage.kind}`}
                  stage={stage}
                  kinds={kinds}
                  index={i}
                  count={draft.stages.length}
                  questions={questionRows}
                  rubrics={rubrics}
                  errors={errors}
                  prefix={prefix}
                  onChange={(s) => setStages(draft.stages.map((x, j) => (j === i ? s : x)))}
                  onMove={(to) => setStages(moveItem(draft.stages, i, to))}
                  onRemove={() => setStages(draft.stages.filter((_, j) => j !== i))}
                  dragging={dragFrom === i}
                  onDragStart={() => setDragFrom(i)}
                  onDropAt={() => {
                    if (dragFrom !== null) setStages(moveItem(draft.stages, dragFrom, i));
                    setDragFrom(null);
                  }}
                />
              ))}
            </ol>
            {draft.stages.length === 0 && <p className="muted">{t("admin:loops.noStages")}</p>}
          </div>
        )}
      </div>
    </main>
  );
}
