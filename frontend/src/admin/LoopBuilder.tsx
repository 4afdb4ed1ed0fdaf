// Loop templates: ordered stages (drag to order, or the arrow buttons), each with its kind,
// clock, questions and an optional rubric. Saved through the bank import (a bank document
// with just this loop), which replaces the template by slug.
import { useEffect, useMemo, useState } from "react";

import { api, type BankLoop, type BankStage, describeError, type StageKind } from "../api/client";
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
          <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
            ⠿
          </span>{" "}
          {index + 1}. {stage.title || stageKindLabel(kinds, stage.kind)}
        </h3>
        <ItemControls index={index} count={count} label={`stage ${index + 1}`} onMove={onMove} onRemove={onRemove} />
      </div>
      <div className="form-grid four">
        <label>
          Kind
          <select value={stage.kind} onChange={(e) => onChange({ ...stage, kind: e.target.value as StageKind })}>
            {kindChoices.map((k) => (
              <option key={k} value={k}>
                {stageKindLabel(kinds, k)}
              </option>
            ))}
          </select>
        </label>
        <label className="span-2">
          Title
          <input value={stage.title} onChange={(e) => onChange({ ...stage, title: e.target.value })} aria-label={`Stage ${index + 1} title`} />
          <FieldError errors={errors} path={`${path}.title`} />
        </label>
        <label>
          Minutes
          <input type="number" min={1} max={600} value={stage.minutes} onChange={(e) => onChange({ ...stage, minutes: Number(e.target.value) })} aria-label={`Stage ${index + 1} minutes`} />
          <FieldError errors={errors} path={`${path}.minutes`} />
        </label>
      </div>
      <div className="form-grid">
        <div className="span-2">
          <span className="label">Questions{needed ? ` (${needed})` : ""}</span>
          <ul className="chips editable">
            {stage.questions.map((slug) => (
              <li key={slug} className="chip">
                {slug}
                <button type="button" className="chip-x" aria-label={`Remove ${slug} from stage ${index + 1}`} onClick={() => onChange({ ...stage, questions: stage.questions.filter((s) => s !== slug) })}>
                  ×
                </button>
              </li>
            ))}
          </ul>
          <select
            aria-label={`Add a question to stage ${index + 1}`}
            value=""
            onChange={(e) => e.target.value && onChange({ ...stage, questions: [...stage.questions, e.target.value] })}
          >
            <option value="">Add a question…</option>
            {choices.map((q) => (
              <option key={q.slug} value={q.slug}>
                {q.slug} — {q.title}
                {q.status !== "published" ? ` (${q.status})` : ""}
              </option>
            ))}
          </select>
          <FieldError errors={errors} path={`${path}.questions`} nested />
        </div>
        <label>
          Rubric (overrides the questions')
          <select value={stage.rubric ?? ""} onChange={(e) => onChange({ ...stage, rubric: e.target.value || undefined })}>
            <option value="">the questions' own</option>
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
      saved: (verb) => `${verb} loop template ${draft.slug}. Loops already started keep their stages.`,
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
          <h1>Loop templates</h1>
          <p className="muted">The rounds of a loop, in order. Drag a stage (or use the arrows) to reorder.</p>
        </div>
      </div>
      <BankNav />
      {bank.error !== undefined && <p className="error">{describeError(bank.error)}</p>}
      <div className="master-detail">
        <nav className="card list-pane" aria-label="Loop templates">
          <ul className="plain pick-list">
            {loops.map((l) => (
              <li key={l.slug}>
                <button type="button" className={`link-button ${selected === l.slug ? "active" : ""}`} onClick={() => pick(l.slug)}>
                  {l.title}
                  <span className="small muted mono">
                    {l.slug}
                    {l.status && l.status !== "published" ? ` · ${l.status}` : ""}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary small" onClick={() => pick(null)}>
            New loop template
          </button>
        </nav>
        {draft && (
          <div className="detail-pane" data-testid="loop-builder">
            <SaveFeedback message={message} errors={errors} />
            <Section
              title={selected ? `Loop ${draft.slug}` : "New loop template"}
              id="loop-title"
              actions={
                <button type="button" className="primary" disabled={busy || !draft.slug} onClick={() => void save()}>
                  {busy ? "Saving…" : "Save loop template"}
                </button>
              }
            >
              <div className="form-grid">
                <label>
                  Slug
                  <input value={draft.slug} readOnly={Boolean(selected)} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} placeholder="ai-lab-infra-sde" />
                  <FieldError errors={errors} path={`${prefix}.slug`} />
                </label>
                <label>
                  Title
                  <input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} aria-label="Loop title" />
                  <FieldError errors={errors} path={`${prefix}.title`} />
                </label>
                <label>
                  Status (candidates see published ones)
                  <select value={draft.status ?? "published"} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
                    <option value="published">published</option>
                    <option value="draft">draft</option>
                    <option value="archived">archived</option>
                  </select>
                </label>
                <label className="span-3">
                  Description
                  <textarea rows={2} value={draft.description ?? ""} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
                </label>
              </div>
            </Section>
            <div className="section-head">
              <h2>
                Stages ({draft.stages.length}) · {minutes} min
              </h2>
              <button
                type="button"
                className="secondary small"
                onClick={() => setStages([...draft.stages, { kind: "coding", title: "", minutes: 60, questions: [] }])}
              >
                Add stage
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
            {draft.stages.length === 0 && <p className="muted">No stages yet: add one.</p>}
          </div>
        )}
      </div>
    </main>
  );
}
