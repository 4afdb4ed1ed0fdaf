// The coding block of a question: languages, I/O and limits, starter and reference code
// per language (CodeMirror), and the parts with their sample and hidden tests.
import { useState } from "react";

import { Markdown } from "../rooms/shared/Markdown";
import { FieldError, ItemControls, Section } from "./fields";
import {
  CHECKERS,
  type CodingDraft,
  emptyPart,
  LANGUAGE_LABEL,
  LANGUAGES,
  moveItem,
  type PartDraft,
  sizeLabel,
  type TestCase,
} from "./model";
import { SourceEditor } from "./SourceEditor";

type Errors = Record<string, unknown>;
const LARGE = 20_000;

export function CodingSettings({ coding, onChange, errors }: { coding: CodingDraft; onChange: (c: CodingDraft) => void; errors: Errors }) {
  const set = (patch: Partial<CodingDraft>) => onChange({ ...coding, ...patch });
  const toggleLanguage = (language: string, on: boolean) => {
    const languages = on ? [...coding.languages, language] : coding.languages.filter((l) => l !== language);
    set({ languages: LANGUAGES.filter((l) => languages.includes(l)) });
  };
  return (
    <Section title="Judging" id="judging-title">
      <div className="form-grid">
        <fieldset className="inline-set">
          <legend>Languages</legend>
          {LANGUAGES.map((l) => (
            <label key={l} className="toggle">
              <input type="checkbox" checked={coding.languages.includes(l)} onChange={(e) => toggleLanguage(l, e.target.checked)} />
              {LANGUAGE_LABEL[l]}
            </label>
          ))}
          <FieldError errors={errors} path="coding.languages" />
        </fieldset>
        <label>
          I/O
          <select value={coding.io} onChange={(e) => set({ io: e.target.value as CodingDraft["io"] })}>
            <option value="stdio">stdio — the program reads stdin, writes stdout</option>
            <option value="function">function — the entrypoint is called with JSON arguments</option>
          </select>
        </label>
        {coding.io === "function" && (
          <label>
            Entrypoint
            <input value={coding.entrypoint ?? ""} onChange={(e) => set({ entrypoint: e.target.value })} placeholder="solve" />
            <FieldError errors={errors} path="coding.entrypoint" />
          </label>
        )}
        <label>
          Checker
          <input list="checkers" value={coding.checker} onChange={(e) => set({ checker: e.target.value })} />
          <datalist id="checkers">
            {CHECKERS.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <FieldError errors={errors} path="coding.checker" />
        </label>
        <label>
          Time limit per test (ms)
          <input type="number" min={100} value={coding.time_limit_ms} onChange={(e) => set({ time_limit_ms: Number(e.target.value) })} />
          <FieldError errors={errors} path="coding.time_limit_ms" />
        </label>
        <label>
          Memory limit (MB)
          <input type="number" min={16} value={coding.memory_limit_mb} onChange={(e) => set({ memory_limit_mb: Number(e.target.value) })} />
          <FieldError errors={errors} path="coding.memory_limit_mb" />
        </label>
      </div>
    </Section>
  );
}

export function SourcesEditor({ coding, onChange, errors }: { coding: CodingDraft; onChange: (c: CodingDraft) => void; errors: Errors }) {
  const [language, setLanguage] = useState(coding.languages[0] ?? "python");
  const current = coding.languages.includes(language) ? language : (coding.languages[0] ?? "python");
  const setSource = (key: "starter" | "reference", text: string) =>
    onChange({ ...coding, [key]: { ...coding[key], [current]: text } });
  return (
    <Section title="Starter and reference code" id="sources-title">
      <p className="small muted">
        The candidate starts from the starter. The reference never leaves the server; it must pass every hidden test
        before the question can be published (one reference is enough, in any language).
      </p>
      <div className="tabs" role="tablist" aria-label="Language">
        {coding.languages.map((l) => (
          <button key={l} type="button" role="tab" aria-selected={l === current} className={`tab ${l === current ? "active" : ""}`} onClick={() => setLanguage(l)}>
            {LANGUAGE_LABEL[l] ?? l}
            {coding.reference[l] ? " · has reference" : ""}
          </button>
        ))}
      </div>
      <div className="sources">
        <div>
          <h3>Starter ({LANGUAGE_LABEL[current] ?? current})</h3>
          <SourceEditor key={`starter-${current}`} label={`Starter ${current}`} language={current} value={coding.starter[current] ?? ""} onChange={(t) => setSource("starter", t)} />
          <FieldError errors={errors} path={`coding.starter.${current}`} />
        </div>
        <div>
          <h3>Reference ({LANGUAGE_LABEL[current] ?? current})</h3>
          <SourceEditor key={`reference-${current}`} label={`Reference ${current}`} language={current} value={coding.reference[current] ?? ""} onChange={(t) => setSource("reference", t)} />
          <FieldError errors={errors} path={`coding.reference.${current}`} />
          <FieldError errors={errors} path="coding.reference" />
        </div>
      </div>
    </Section>
  );
}

function TestCell({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const [force, setForce] = useState(false);
  if (value.length > LARGE && !force) {
    return (
      <div className="large-test">
        <span className="small muted">{sizeLabel(value)}</span>{" "}
        <button type="button" className="link small" onClick={() => setForce(true)}>
          Edit
        </button>
      </div>
    );
  }
  return <textarea className="mono" aria-label={label} rows={Math.min(6, Math.max(2, value.split("\n").length))} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />;
}

export function TestTable({
  tests,
  onChange,
  kind,
  path,
  errors,
}: {
  tests: TestCase[];
  onChange: (tests: TestCase[]) => void;
  kind: "samples" | "hidden";
  path: string;
  errors: Errors;
}) {
  const label = kind === "samples" ? "Sample" : "Hidden";
  const update = (i: number, patch: Partial<TestCase>) => onChange(tests.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  return (
    <div className="test-table-wrap">
      <table className="tests test-table" data-testid={`${kind}-table`}>
        <caption>
          {kind === "samples" ? "Sample tests (shown to the candidate)" : "Hidden tests (never leave the server)"} · {tests.length}
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Input</th>
            <th scope="col">Expected output</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tests.map((t, i) => (
            <tr key={i}>
              <td className="num">{i + 1}</td>
              <td>
                <TestCell value={t.input} onChange={(v) => update(i, { input: v })} label={`${label} ${i + 1} input`} />
                <FieldError errors={errors} path={`${path}[${i}].input`} />
              </td>
              <td>
                <TestCell value={t.output} onChange={(v) => update(i, { output: v })} label={`${label} ${i + 1} output`} />
                <FieldError errors={errors} path={`${path}[${i}].output`} />
              </td>
              <td>
                <ItemControls index={i} count={tests.length} label={`${label.toLowerCase()} test ${i + 1}`} onMove={(to) => onChange(moveItem(tests, i, to))} onRemove={() => onChange(tests.filter((_, j) => j !== i))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FieldError errors={errors} path={path} />
      <button type="button" className="secondary small" onClick={() => onChange([...tests, { input: "", output: "" }])}>
        Add {label.toLowerCase()} test
      </button>
    </div>
  );
}

function PartEditor({ part, index, onChange, errors }: { part: PartDraft; index: number; onChange: (p: PartDraft) => void; errors: Errors }) {
  const path = `coding.parts[${index}]`;
  const [preview, setPreview] = useState(false);
  return (
    <div className="part-editor" data-testid={`part-editor-${index + 1}`}>
      <label>
        Title
        <input value={part.title} onChange={(e) => onChange({ ...part, title: e.target.value })} />
        <FieldError errors={errors} path={`${path}.title`} />
      </label>
      <div className="label-row">
        <label htmlFor={`part-prompt-${index}`}>Prompt (markdown)</label>
        <button type="button" className="link small" onClick={() => setPreview((p) => !p)}>
          {preview ? "Edit" : "Preview"}
        </button>
      </div>
      {preview ? (
        <Markdown source={part.prompt} className="preview" />
      ) : (
        <textarea id={`part-prompt-${index}`} rows={4} value={part.prompt} onChange={(e) => onChange({ ...part, prompt: e.target.value })} />
      )}
      <TestTable tests={part.samples} onChange={(samples) => onChange({ ...part, samples })} kind="samples" path={`${path}.samples`} errors={errors} />
      <TestTable tests={part.hidden} onChange={(hidden) => onChange({ ...part, hidden })} kind="hidden" path={`${path}.hidden`} errors={errors} />
    </div>
  );
}

export function PartsEditor({ coding, onChange, errors }: { coding: CodingDraft; onChange: (c: CodingDraft) => void; errors: Errors }) {
  const [open, setOpen] = useState(0);
  const parts = coding.parts;
  const current = Math.min(open, Math.max(0, parts.length - 1));
  const setParts = (next: PartDraft[]) => onChange({ ...coding, parts: next });
  return (
    <Section
      title="Parts and tests"
      id="parts-title"
      actions={
        <button
          type="button"
          className="secondary small"
          onClick={() => {
            setParts([...parts, emptyPart(parts.length + 1)]);
            setOpen(parts.length);
          }}
        >
          Add part
        </button>
      }
    >
      <p className="small muted">
        Part 1 is open from the start. A part that a follow-up unlocks stays hidden from the candidate until that
        follow-up is pushed.
      </p>
      <div className="tabs" role="tablist" aria-label="Parts">
        {parts.map((_, i) => (
          <button key={i} type="button" role="tab" aria-selected={i === current} className={`tab ${i === current ? "active" : ""}`} onClick={() => setOpen(i)}>
            Part {i + 1}
            {errorsAt_(errors, `coding.parts[${i}]`) ? " ⚠" : ""}
          </button>
        ))}
      </div>
      <FieldError errors={errors} path="coding.parts" />
      {parts[current] && (
        <>
          <div className="row end">
            <ItemControls
              index={current}
              count={parts.length}
              label={`part ${current + 1}`}
              onMove={(to) => {
                setParts(moveItem(parts, current, to));
                setOpen(to);
              }}
              onRemove={() => {
                setParts(parts.filter((_, j) => j !== current));
                setOpen(Math.max(0, current - 1));
              }}
            />
          </div>
          <PartEditor key={current} part={parts[current]!} index={current} errors={errors} onChange={(p) => setParts(parts.map((x, j) => (j === current ? p : x)))} />
        </>
      )}
    </Section>
  );
}

function errorsAt_(errors: Errors, prefix: string): boolean {
  return Object.keys(errors).some((k) => k.startsWith(prefix));
}
