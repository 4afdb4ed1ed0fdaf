// The coding block of a question: languages, I/O and limits, starter and reference code
// per language (CodeMirror), and the parts with their sample and hidden tests.
import { useState } from "react";
import { useTranslation } from "react-i18next";

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
  const { t } = useTranslation();
  const set = (patch: Partial<CodingDraft>) => onChange({ ...coding, ...patch });
  const toggleLanguage = (language: string, on: boolean) => {
    const languages = on ? [...coding.languages, language] : coding.languages.filter((l) => l !== language);
    set({ languages: LANGUAGES.filter((l) => languages.includes(l)) });
  };
  return (
    <Section title={t("admin:coding.judging")} id="judging-title">
      <div className="form-grid">
        <fieldset className="inline-set">
          <legend>{t("admin:coding.languages")}</legend>
          {LANGUAGES.map((l) => (
            <label key={l} className="toggle">
              <input type="checkbox" checked={coding.languages.includes(l)} onChange={(e) => toggleLanguage(l, e.target.checked)} />
              {LANGUAGE_LABEL[l]}
            </label>
          ))}
          <FieldError errors={errors} path="coding.languages" />
        </fieldset>
        <label>
          {t("admin:coding.io")}
          <select value={coding.io} onChange={(e) => set({ io: e.target.value as CodingDraft["io"] })}>
            <option value="stdio">{t("admin:coding.ioStdio")}</option>
            <option value="function">{t("admin:coding.ioFunction")}</option>
          </select>
        </label>
        {coding.io === "function" && (
          <label>
            {t("admin:coding.entrypoint")}
            <input value={coding.entrypoint ?? ""} onChange={(e) => set({ entrypoint: e.target.value })} placeholder="solve" />
            <FieldError errors={errors} path="coding.entrypoint" />
          </label>
        )}
        <label>
          {t("admin:coding.checker")}
          <input list="checkers" value={coding.checker} onChange={(e) => set({ checker: e.target.value })} />
          <datalist id="checkers">
            {CHECKERS.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <FieldError errors={errors} path="coding.checker" />
        </label>
        <label>
          {t("admin:coding.timeLimit")}
          <input type="number" min={100} value={coding.time_limit_ms} onChange={(e) => set({ time_limit_ms: Number(e.target.value) })} />
          <FieldError errors={errors} path="coding.time_limit_ms" />
        </label>
        <label>
          {t("admin:coding.memoryLimit")}
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
  const { t } = useTranslation();
  const setSource = (key: "starter" | "reference", text: string) =>
    onChange({ ...coding, [key]: { ...coding[key], [current]: text } });
  return (
    <Section title={t("admin:coding.sources")} id="sources-title">
      <p className="small muted">{t("admin:coding.sourcesHelp")}</p>
      <div className="tabs" role="tablist" aria-label={t("admin:coding.language")}>
        {coding.languages.map((l) => (
          <button key={l} type="button" role="tab" aria-selected={l === current} className={`tab ${l === current ? "active" : ""}`} onClick={() => setLanguage(l)}>
            {coding.reference[l] ? t("admin:coding.hasReference", { language: LANGUAGE_LABEL[l] ?? l }) : (LANGUAGE_LABEL[l] ?? l)}
          </button>
        ))}
      </div>
      <div className="sources">
        <div>
          <h3>{t("admin:coding.starter", { language: LANGUAGE_LABEL[current] ?? current })}</h3>
          <SourceEditor key={`starter-${current}`} name={`Starter ${current}`} label={t("admin:coding.starter", { language: LANGUAGE_LABEL[current] ?? current })} language={current} value={coding.starter[current] ?? ""} onChange={(text) => setSource("starter", text)} />
          <FieldError errors={errors} path={`coding.starter.${current}`} />
        </div>
        <div>
          <h3>{t("admin:coding.reference", { language: LANGUAGE_LABEL[current] ?? current })}</h3>
          <SourceEditor key={`reference-${current}`} name={`Reference ${current}`} label={t("admin:coding.reference", { language: LANGUAGE_LABEL[current] ?? current })} language={current} value={coding.reference[current] ?? ""} onChange={(text) => setSource("reference", text)} />
          <FieldError errors={errors} path={`coding.reference.${current}`} />
          <FieldError errors={errors} path="coding.reference" />
        </div>
      </div>
    </Section>
  );
}

function TestCell({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const { t } = useTranslation();
  const [force, setForce] = useState(false);
  if (value.length > LARGE && !force) {
    return (
      <div className="large-test">
        <span className="small muted">{sizeLabel(value)}</span>{" "}
        <button type="button" className="link small" onClick={() => setForce(true)}>
          {t("admin:coding.edit")}
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
  const { t } = useTranslation();
  const update = (i: number, patch: Partial<TestCase>) => onChange(tests.map((test, j) => (j === i ? { ...test, ...patch } : test)));
  return (
    <div className="test-table-wrap">
      <table className="tests test-table" data-testid={`${kind}-table`}>
        <caption>
          {t("admin:tests.caption", { kind, count: tests.length })}
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t("admin:tests.input")}</th>
            <th scope="col">{t("admin:tests.expected")}</th>
            <th scope="col">
              <span className="sr-only">{t("admin:tests.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tests.map((test, i) => (
            <tr key={i}>
              <td className="num">{i + 1}</td>
              <td>
                <TestCell value={test.input} onChange={(v) => update(i, { input: v })} label={t("admin:tests.inputLabel", { kind, n: i + 1 })} />
                <FieldError errors={errors} path={`${path}[${i}].input`} />
              </td>
              <td>
                <TestCell value={test.output} onChange={(v) => update(i, { output: v })} label={t("admin:tests.outputLabel", { kind, n: i + 1 })} />
                <FieldError errors={errors} path={`${path}[${i}].output`} />
              </td>
              <td>
                <ItemControls index={i} count={tests.length} label={t("admin:tests.itemLabel", { kind, n: i + 1 })} onMove={(to) => onChange(moveItem(tests, i, to))} onRemove={() => onChange(tests.filter((_, j) => j !== i))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FieldError errors={errors} path={path} />
      <button type="button" className="secondary small" onClick={() => onChange([...tests, { input: "", output: "" }])}>
        {t("admin:tests.add", { kind })}
      </button>
    </div>
  );
}

function PartEditor({ part, index, onChange, errors }: { part: PartDraft; index: number; onChange: (p: PartDraft) => void; errors: Errors }) {
  const path = `coding.parts[${index}]`;
  const { t } = useTranslation();
  const [preview, setPreview] = useState(false);
  return (
    <div className="part-editor" data-testid={`part-editor-${index + 1}`}>
      <label>
        {t("admin:parts.title")}
        <input value={part.title} onChange={(e) => onChange({ ...part, title: e.target.value })} />
        <FieldError errors={errors} path={`${path}.title`} />
      </label>
      <div className="label-row">
        <label htmlFor={`part-prompt-${index}`}>{t("admin:parts.prompt")}</label>
        <button type="button" className="link small" onClick={() => setPreview((p) => !p)}>
          {preview ? t("admin:coding.edit") : t("admin:parts.preview")}
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
  const { t } = useTranslation();
  return (
    <Section
      title={t("admin:parts.section")}
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
          {t("admin:parts.add")}
        </button>
      }
    >
      <p className="small muted">{t("admin:parts.help")}</p>
      <div className="tabs" role="tablist" aria-label={t("admin:parts.tabs")}>
        {parts.map((_, i) => (
          <button key={i} type="button" role="tab" aria-selected={i === current} className={`tab ${i === current ? "active" : ""}`} onClick={() => setOpen(i)}>
            {t("admin:parts.tab", { n: i + 1 })}
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
              label={t("admin:parts.itemLabel", { n: current + 1 })}
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
