// Import a bank file (all or nothing; every problem listed with its path) and download
// the bank as one YAML file.
import { type FormEvent, useState } from "react";
import { Trans, useTranslation } from "react-i18next";

import { ApiError, api, type BankImportResult, describeError } from "../api/client";
import { BankNav } from "./BankNav";
import { formatNumber } from "../i18n/format";
import { ErrorList } from "./fields";

function Summary({ result }: { result: BankImportResult }) {
  const { t } = useTranslation();
  const q = result.questions;
  const list = (title: string, items: string[]) =>
    items.length > 0 && (
      <p className="small">
        <strong>{title}:</strong> {items.join(", ")}
      </p>
    );
  return (
    <section className="card success-card" role="status" data-testid="import-result">
      <h2>{t("admin:transfer.imported")}</h2>
      <pre className="summary">{result.summary}</pre>
      {list(
        t("admin:transfer.newVersions"),
        q.created.map((c) =>
          t("admin:transfer.createdVersion", {
            slug: c.slug,
            version: c.version,
            status: t("admin:status.value", { status: c.status }),
            unverified: String(c.kind === "coding" && !c.verified),
          }),
        ),
      )}
      {list(t("admin:transfer.verified"), q.verified)}
      {list(t("admin:transfer.rubricsCreated"), result.rubrics.created)}
      {list(t("admin:transfer.rubricsUpdated"), result.rubrics.updated)}
      {list(t("admin:transfer.loopsCreated"), result.loops.created)}
      {list(t("admin:transfer.loopsUpdated"), result.loops.updated)}
    </section>
  );
}

function megabytes(bytes: number): string {
  return formatNumber(bytes / (1024 * 1024), { style: "unit", unit: "megabyte", maximumFractionDigits: 1, minimumFractionDigits: 1 });
}

/** Uploading (with the share sent), then the server's part: validating, importing and,
 * with `verify`, running the references in the sandbox. */
function ImportProgress({ upload, verify }: { upload: { sent: number; total: number } | null; verify: boolean }) {
  const { t } = useTranslation();
  const uploading = upload !== null && upload.sent < upload.total;
  return (
    <div className="verify-progress" role="status" aria-live="polite" data-testid="import-progress">
      {uploading ? (
        <>
          <progress max={upload.total} value={upload.sent} aria-label={t("admin:transfer.uploadProgress")} />
          <span className="small">{t("admin:transfer.uploading", { sent: megabytes(upload.sent), total: megabytes(upload.total) })}</span>
        </>
      ) : (
        <>
          <progress aria-label={t("admin:transfer.importProgress")} />
          <span className="small">
            {verify ? t("admin:transfer.validatingVerifying") : t("admin:transfer.validating")}
          </span>
        </>
      )}
    </div>
  );
}

export function BankTransfer() {
  const { t } = useTranslation();
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
          <h1>{t("admin:transfer.title")}</h1>
          <p className="muted">
            <Trans i18nKey="admin:transfer.intro" components={{ code: <code /> }} />
          </p>
        </div>
        <a className="button secondary" href="/api/v1/bank/export/" download="mockloop-bank.yaml" data-testid="export-link">
          {t("admin:transfer.download")}
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
        <h2 id="import-title">{t("admin:transfer.importTitle")}</h2>
        <p className="small muted">{t("admin:transfer.allOrNothing")}</p>
        {/* Our own button: the browser's file input speaks the browser's language. */}
        <div className="file-pick">
          <span id="bank-file-label">{t("admin:transfer.file")}</span>
          <label className="button secondary small file-pick-button">
            {t("admin:transfer.chooseFile")}
            <input
              type="file"
              className="sr-only"
              aria-labelledby="bank-file-label"
              accept=".yaml,.yml,application/yaml,text/yaml"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          <span className="small muted" data-testid="chosen-file">
            {file ? file.name : t("admin:transfer.noFile")}
          </span>
        </div>
        <label>
          {file ? t("admin:transfer.pasteInstead") : t("admin:transfer.paste")}
          <textarea className="mono" rows={12} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} placeholder={"questions:\n  - slug: …"} aria-label={t("admin:transfer.yamlLabel")} disabled={file !== null} />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
          {t("admin:transfer.verifyToggle")}
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={busy || (!file && !text.trim())}>
            {busy ? (verify ? t("admin:transfer.importingVerifying") : t("admin:transfer.importing")) : file ? t("admin:transfer.importFile", { name: file.name }) : t("admin:transfer.import")}
          </button>
        </div>
        {busy && <ImportProgress upload={upload} verify={verify} />}
      </form>
    </main>
  );
}
