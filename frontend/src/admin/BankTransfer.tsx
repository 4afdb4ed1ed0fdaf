// Import a bank file (all or nothing; every problem listed with its path) and download
// the bank as one YAML file.
import { type FormEvent, useState } from "react";

import { ApiError, api, type BankImportResult, describeError } from "../api/client";
import { BankNav } from "./BankNav";
import { ErrorList } from "./fields";

function Summary({ result }: { result: BankImportResult }) {
  const q = result.questions;
  const list = (title: string, items: string[]) =>
    items.length > 0 && (
      <p className="small">
        <strong>{title}:</strong> {items.join(", ")}
      </p>
    );
  return (
    <section className="card success-card" role="status" data-testid="import-result">
      <h2>Imported</h2>
      <pre className="summary">{result.summary}</pre>
      {list(
        "New versions",
        q.created.map((c) => `${c.slug} v${c.version} (${c.status}${c.kind === "coding" && !c.verified ? ", unverified" : ""})`),
      )}
      {list("Verified in the sandbox", q.verified)}
      {list("Rubrics created", result.rubrics.created)}
      {list("Rubrics updated", result.rubrics.updated)}
      {list("Loop templates created", result.loops.created)}
      {list("Loop templates updated", result.loops.updated)}
    </section>
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Uploading (with the share sent), then the server's part: validating, importing and,
 * with `verify`, running the references in the sandbox. */
function ImportProgress({ upload, verify }: { upload: { sent: number; total: number } | null; verify: boolean }) {
  const uploading = upload !== null && upload.sent < upload.total;
  return (
    <div className="verify-progress" role="status" aria-live="polite" data-testid="import-progress">
      {uploading ? (
        <>
          <progress max={upload.total} value={upload.sent} aria-label="Upload progress" />
          <span className="small">
            Uploading {megabytes(upload.sent)} of {megabytes(upload.total)}…
          </span>
        </>
      ) : (
        <>
          <progress aria-label="Import progress" />
          <span className="small">
            {verify ? "Validating, importing and verifying the references in the sandbox…" : "Validating and importing…"}
          </span>
        </>
      )}
    </div>
  );
}

export function BankTransfer() {
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<{ sent: number; total: number } | null>(null);
  const [verify, setVerify] = useState(true);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BankImportResult | null>(null);
  const [errors, setErrors] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<string | null>(null);

  /** A chosen file is uploaded as it is: a big bank is never read into the page. */
  function onFile(chosen: File | undefined) {
    setFile(chosen ?? null);
    setResult(null);
    setErrors({});
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    setErrors({});
    setError(null);
    setUpload(null);
    try {
      if (file) {
        setResult(await api.bankImportFile(file, verify, (sent, total) => setUpload({ sent, total: total || file.size })));
      } else {
        setResult(await api.bankImportYaml(text, verify));
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.errors);
      setError(err instanceof ApiError && err.status === 400 ? err.detail : describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page wide">
      <div className="page-head">
        <div>
          <h1>Import and export</h1>
          <p className="muted">
            A bank file holds <code>questions</code>, <code>rubrics</code> and <code>loops</code> (the format of{" "}
            <code>manage.py import_bank</code>).
          </p>
        </div>
        <a className="button secondary" href="/api/v1/bank/export/" download="mockloop-bank.yaml" data-testid="export-link">
          Download the bank (YAML)
        </a>
      </div>
      <BankNav />
      {error && !Object.keys(errors).length && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ErrorList errors={errors} title={error ?? undefined} />
      {result && <Summary result={result} />}
      <form className="card import-form" onSubmit={submit} aria-labelledby="import-title">
        <h2 id="import-title">Import a bank file</h2>
        <p className="small muted">
          All or nothing: if any question, rubric or loop has a problem, nothing changes and every problem is listed
          with its path. A question whose content changed becomes a new version; rubrics and loop templates are
          replaced by slug.
        </p>
        <label>
          YAML file
          <input type="file" accept=".yaml,.yml,application/yaml,text/yaml" onChange={(e) => void onFile(e.target.files?.[0])} />
        </label>
        <label>
          …or paste it{file ? " (the chosen file is imported instead)" : ""}
          <textarea className="mono" rows={12} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} placeholder={"questions:\n  - slug: …"} aria-label="Bank YAML" disabled={file !== null} />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
          Verify every new coding reference in the sandbox (unverified questions cannot be published)
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={busy || (!file && !text.trim())}>
            {busy ? (verify ? "Importing and verifying…" : "Importing…") : file ? `Import ${file.name}` : "Import"}
          </button>
        </div>
        {busy && <ImportProgress upload={upload} verify={verify} />}
      </form>
    </main>
  );
}
