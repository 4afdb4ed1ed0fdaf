// One question of the bank: edit its bank-file dict, save (in place or as a new version),
// verify the reference in the sandbox with progress, publish.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";

import { ApiError, api, describeError, type QuestionAdmin } from "../api/client";
import { Problem } from "../pages/Problem";
import { Markdown } from "../rooms/shared/Markdown";
import { BankNav } from "./BankNav";
import { CodingSettings, PartsEditor, SourcesEditor } from "./CodingEditor";
import { ErrorList, FieldError, Section } from "./fields";
import { FlawEditor } from "./FlawEditor";
import { FollowUpEditor } from "./FollowUpEditor";
import { KeyPointEditor } from "./KeyPointEditor";
import {
  bodyOf,
  draftOf,
  KEY_POINT_KINDS,
  errorsStillStanding,
  newQuestion,
  parseFailure,
  QUESTION_KINDS,
  type QuestionDraft,
  type QuestionKind,
  type Verification,
  verificationOf,
} from "./model";
import { StatusBadges } from "./QuestionList";
import { type FlawProposal, ReanchorPrompt } from "./ReanchorPrompt";
import { TranslationsEditor, translationsTabLabel } from "./TranslationsEditor";
import { useLeaveGuard } from "./useLeaveGuard";

type Tab = "prompt" | "code" | "parts" | "follow-ups" | "document" | "key-points" | "translations";
const POLL_MS = 400;
const WORKER_WAIT_MS = 30_000;

function BasicsSection({ draft, set, isNew, errors, rubrics }: { draft: QuestionDraft; set: (p: Partial<QuestionDraft>) => void; isNew: boolean; errors: Record<string, unknown>; rubrics: string[] }) {
  const preview = useDeferredValue(draft.prompt);
  return (
    <>
      <Section title="Question" id="basics-title">
        <div className="form-grid">
          <label>
            Slug
            <input value={draft.slug} onChange={(e) => set({ slug: e.target.value })} readOnly={!isNew} placeholder="token-batcher" pattern="[a-z0-9-]+" />
            {!isNew && <span className="small muted">A slug never changes; create a new question instead.</span>}
            <FieldError errors={errors} path="slug" />
          </label>
          <label>
            Kind
            <select value={draft.kind} disabled={!isNew} onChange={(e) => set({ kind: e.target.value as QuestionKind })}>
              {QUESTION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <label className="span-2">
            Title
            <input value={draft.title} onChange={(e) => set({ title: e.target.value })} />
            <FieldError errors={errors} path="title" />
          </label>
          <label>
            Difficulty
            <select value={draft.difficulty} onChange={(e) => set({ difficulty: e.target.value })}>
              <option value="easy">easy</option>
              <option value="medium">medium</option>
              <option value="hard">hard</option>
            </select>
          </label>
          <label>
            Tags (comma-separated)
            <input value={draft.tags.join(", ")} onChange={(e) => set({ tags: e.target.value.split(",").map((t) => t.trim()).filter(Boolean) })} />
            <FieldError errors={errors} path="tags" />
          </label>
          <label>
            Rubric
            <input list="rubric-slugs" value={draft.rubric ?? ""} onChange={(e) => set({ rubric: e.target.value || undefined })} placeholder="coding-default" />
            <datalist id="rubric-slugs">
              {rubrics.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
            <FieldError errors={errors} path="rubric" />
          </label>
        </div>
      </Section>
      <Section title="Prompt" id="prompt-title">
        <div className="split">
          <label>
            Markdown (```mermaid blocks render as diagrams)
            <textarea className="mono prompt-input" rows={18} value={draft.prompt} onChange={(e) => set({ prompt: e.target.value })} />
            <FieldError errors={errors} path="prompt" />
          </label>
          <div className="preview-pane" aria-label="Preview">
            <h3 className="small muted">Preview</h3>
            {preview.trim() ? <Markdown source={preview} className="preview" /> : <p className="muted small">Nothing to preview yet.</p>}
          </div>
        </div>
      </Section>
    </>
  );
}

/** Why this version cannot be published yet, in words (null: it can). A coding question
 * needs a reference that passed every sample and hidden test; "failed" and "not verified
 * yet" call for different next steps. */
export function publishBlockedReason(question: QuestionAdmin, progress: Verification): string | null {
  if (question.kind !== "coding" || question.verified_at) return null;
  switch (progress.state) {
    case "failed":
      return "Verification failed: fix the reference solution or the tests, save, and verify again before publishing.";
    case "queued":
    case "running":
      return "Verification is running: publish once it has passed.";
    case "unavailable":
      return "Verification could not run (the sandbox was unavailable): verify again before publishing.";
    default:
      return "Not verified yet: press Verify and wait for the reference to pass every test before publishing.";
  }
}

function VerifyPanel({ verification }: { verification: Verification }) {
  const done = verification.done ?? 0;
  const total = verification.total ?? 0;
  const state = verification.state;
  const failures = state === "failed" ? (verification.failures ?? []) : [];
  const running = state === "queued" || state === "running";
  return (
    <section className={`card verify-panel verify-${state ?? "none"}`} aria-labelledby="verify-title" data-testid="verify-panel">
      <h2 id="verify-title">Reference verification</h2>
      {!state && <p className="muted small">Not verified yet. Verify runs the reference on every sample and hidden test in the sandbox.</p>}
      {running && (
        <div className="verify-progress" role="status" aria-live="polite">
          <progress max={total || 1} value={done} aria-label="Verification progress" />
          <span className="small">
            {state === "queued" ? "Queued for the judge worker…" : total ? `${done}/${total} tests` : "Starting the sandbox…"}
          </span>
        </div>
      )}
      {!running && state === "passed" && (
        <p className="ok" role="status" data-testid="verify-passed">
          ✓ The reference passed all {total || ""} sample and hidden tests{verification.checked_at ? ` · ${new Date(verification.checked_at).toLocaleString()}` : ""}.
        </p>
      )}
      {state === "unavailable" && <p className="error">The sandbox was unavailable. Start the Docker engine (and the judge worker) and verify again.</p>}
      {!running && state === "failed" && (
        <>
          <p className="error" role="alert" data-testid="verify-failed">
            ✗ The reference failed {failures.length} check{failures.length === 1 ? "" : "s"}: fix the reference or the tests, save, verify again.
          </p>
          <ul className="failure-list" data-testid="verify-failures">
            {failures.map((text) => {
              const f = parseFailure(text);
              return (
                <li key={text}>
                  <div className="row">
                    <strong>{f.part ? `Part ${f.part} · ${f.tests === "sample" ? "sample" : "hidden test"} ${f.test}` : "Reference"}</strong>
                    {f.language && <span className="small muted">{f.language}</span>}
                    {f.verdict && <span className={`verdict verdict-${f.verdict}`}>{f.verdict.replace(/_/g, " ")}</span>}
                  </div>
                  {f.detail && f.detail !== f.verdict && <p className="small mono">{f.detail}</p>}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

function VersioningNote({ saved }: { saved: QuestionAdmin | null }) {
  return (
    <details className="versioning">
      <summary>New version or edit in place?</summary>
      <p className="small">
        Saving edits <strong>this version in place</strong> while nothing uses it. Once a candidate's stage or a
        submission uses a version it never changes: saving then creates <strong>version {saved ? saved.version + 1 : 2}</strong>{" "}
        and leaves v{saved?.version ?? 1} as it was (loops under way keep it; new loops get the newest published
        version). Changed coding content is unverified again, so a published coding question becomes a draft until
        its reference passes and you publish it.
      </p>
    </details>
  );
}

export function QuestionEditorPage() {
  const { questionId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const isNew = !questionId;
  const id = Number(questionId);
  const [saved, setSaved] = useState<QuestionAdmin | null>(null);
  const [draft, setDraft] = useState<QuestionDraft | null>(isNew ? newQuestion((params.get("kind") as QuestionKind) || "coding") : null);
  const [dirty, setDirty] = useState(isNew);
  const [loadError, setLoadError] = useState<unknown>(undefined);
  // The last save's problems with the body it sent: a field changed since is unflagged.
  const [saveErrors, setSaveErrors] = useState<{ errors: Record<string, unknown>; body: unknown }>({ errors: {}, body: null });
  const setErrors = (errors: Record<string, unknown>, body: unknown = null) => setSaveErrors({ errors, body });
  const [message, setMessage] = useState<{ kind: "ok" | "error" | "notice"; text: string } | null>(null);
  const [busy, setBusy] = useState<null | "save" | "verify" | "publish" | "archive">(null);
  const [progress, setProgress] = useState<Verification>({});
  const [reanchor, setReanchor] = useState<FlawProposal[] | null>(null);
  const [tab, setTab] = useState<Tab>("prompt");
  const [rubrics, setRubrics] = useState<string[]>([]);
  const [rubricDimensions, setRubricDimensions] = useState<Record<string, string[]>>({});
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(() => {
    api.bankExport("rubrics").then((bank) => {
      setRubrics((bank.rubrics ?? []).map((r) => r.slug));
      setRubricDimensions(Object.fromEntries((bank.rubrics ?? []).map((r) => [r.slug, r.dimensions.map((d) => d.name)])));
    }, () => undefined);
  }, []);

  useEffect(() => {
    if (isNew) return;
    let stale = false;
    api.question(id).then(
      (question) => {
        if (stale) return;
        setSaved(question);
        setDraft(draftOf(question));
        setProgress(verificationOf(question));
        setDirty(false);
      },
      (err) => !stale && setLoadError(err),
    );
    return () => {
      stale = true;
    };
  }, [id, isNew]);

  const leaveGuard = useLeaveGuard(dirty);

  useEffect(() => () => {
    if (poll.current) clearInterval(poll.current);
  }, []);

  const set = useCallback((patch: Partial<QuestionDraft>) => {
    setDraft((d) => {
      if (!d) return d;
      const next = { ...d, ...patch };
      if (patch.kind && patch.kind !== d.kind) return { ...newQuestion(patch.kind), slug: d.slug, title: d.title, prompt: d.prompt, tags: d.tags };
      return next;
    });
    setDirty(true);
  }, []);

  const errors = useMemo(
    () => (draft && saveErrors.body ? errorsStillStanding(saveErrors.errors, saveErrors.body, bodyOf(draft)) : saveErrors.errors),
    [draft, saveErrors],
  );

  if (loadError !== undefined) return <Problem error={loadError} />;
  if (!draft) return <main id="main" className="page"><p className="muted">Loading the question…</p></main>;

  async function save({ confirmReanchor = false }: { confirmReanchor?: boolean } = {}) {
    if (!draft) return;
    setBusy("save");
    setErrors({});
    setMessage(null);
    try {
      const body = confirmReanchor ? { ...bodyOf(draft), confirm_reanchor: true } : bodyOf(draft);
      if (isNew) {
        const created = await api.questionCreate(body);
        setDirty(false);
        setMessage({ kind: "ok", text: `Created ${created.slug} v${created.version} as a ${created.status}.` });
        leaveGuard.allowNext();
        navigate(`/bank/questions/${created.id}`, { replace: true });
        return;
      }
      const before = saved!;
      const after = await api.questionSave(before.id, body);
      setReanchor(null);
      setDirty(false);
      setSaved(after);
      setDraft(draftOf(after));
      setProgress(verificationOf(after));
      const notes: string[] = [];
      if (after.id !== before.id) {
        notes.push(`Saved as a new version, v${after.version}: v${before.version} is used by a stage or submission and stays as it was.`);
      } else {
        notes.push(`Saved v${after.version} in place.`);
      }
      if (before.status === "published" && after.status === "draft") {
        notes.push("The coding content changed, so it is a draft until its reference is verified and you publish it.");
      }
      setMessage({ kind: "ok", text: notes.join(" ") });
      if (after.id !== before.id) {
        leaveGuard.allowNext();
        navigate(`/bank/questions/${after.id}`, { replace: true });
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === "flaw_reanchor_needed" && Array.isArray(err.payload.flaws)) {
        setReanchor(err.payload.flaws as FlawProposal[]);
        setTab("document");
        setMessage({ kind: "notice", text: "Not saved yet: check where the planted flaws should point." });
        return;
      }
      if (err instanceof ApiError && err.status === 400) {
        // Listed once, in the problem list below (and at each field), not again up here.
        setErrors(err.errors, bodyOf(draft));
        const count = Object.values(err.errors).reduce<number>((n, m) => n + ([] as unknown[]).concat(m).length, 0);
        setMessage({ kind: "error", text: `Not saved: ${count} problem${count === 1 ? "" : "s"}, listed below.` });
        return;
      }
      setMessage({ kind: "error", text: describeError(err) });
    } finally {
      setBusy(null);
    }
  }

  /** Verification runs on the judge worker: queue it, then follow the question's
   * `verification` until it is no longer queued or running. */
  async function verify() {
    if (!saved) return;
    setBusy("verify");
    setMessage(null);
    try {
      const queued = await api.questionVerify(saved.id);
      setSaved(queued.question);
      setProgress(verificationOf(queued.question));
      const started = Date.now();
      const finished = await new Promise<QuestionAdmin>((resolve) => {
        poll.current = setInterval(() => {
          api.question(saved.id).then(
            (q) => {
              const v = verificationOf(q);
              setProgress(v);
              if (v.state !== "queued" && v.state !== "running") resolve(q);
              else if (v.state === "queued" && Date.now() - started > WORKER_WAIT_MS)
                setMessage({ kind: "notice", text: "No judge worker has taken this yet. Is the worker running? It will start as soon as one does." });
            },
            () => undefined, // a failed poll is retried on the next tick
          );
        }, POLL_MS);
      });
      setSaved(finished);
    } catch (err) {
      setMessage({ kind: "error", text: describeError(err) });
    } finally {
      if (poll.current) clearInterval(poll.current);
      poll.current = null;
      setBusy(null);
    }
  }

  async function publish() {
    if (!saved) return;
    setBusy("publish");
    setMessage(null);
    try {
      const after = await api.questionPublish(saved.id);
      setSaved(after);
      setDraft(draftOf(after));
      setMessage({ kind: "ok", text: `Published v${after.version}: new loops now get this version.` });
    } catch (err) {
      if (err instanceof ApiError && err.code === "question_not_verified") {
        setMessage({ kind: "notice", text: `Not published: ${publishBlockedReason(saved, progress) ?? "its reference solution has not passed verification yet."}` });
      } else {
        setMessage({ kind: "error", text: describeError(err) });
      }
    } finally {
      setBusy(null);
    }
  }

  async function archive() {
    if (!saved || !window.confirm(`Archive ${saved.slug}? Every version leaves the bank; loops under way keep theirs.`)) return;
    setBusy("archive");
    try {
      await api.questionArchive(saved.id);
      leaveGuard.allowNext();
      navigate("/bank");
    } catch (err) {
      setMessage({ kind: "error", text: describeError(err) });
      setBusy(null);
    }
  }

  const coding = draft.coding;
  const tabs: [Tab, string, boolean][] = [
    ["prompt", "Prompt", true],
    ["code", "Code", draft.kind === "coding"],
    ["parts", `Parts & tests${coding ? ` (${coding.parts.length})` : ""}`, draft.kind === "coding"],
    ["follow-ups", `Follow-ups (${draft.follow_ups?.length ?? 0})`, true],
    ["document", `Design doc & flaws (${draft.review?.flaws.length ?? 0})`, draft.kind === "review"],
    ["key-points", `Key points (${draft.key_points?.length ?? 0})`, KEY_POINT_KINDS.includes(draft.kind)],
    ["translations", translationsTabLabel(draft), true],
  ];
  const keyPointDimensions = KEY_POINT_KINDS.includes(draft.kind) ? (rubricDimensions[draft.rubric ?? ""] ?? []) : null;
  const tabHasErrors = (t: Tab) => {
    const keys = Object.keys(errors);
    const prefix: Record<Tab, (k: string) => boolean> = {
      prompt: (k) => !/^(coding|follow_ups|review|key_points|i18n)/.test(k),
      code: (k) => k.startsWith("coding") && !k.startsWith("coding.parts"),
      parts: (k) => k.startsWith("coding.parts"),
      "follow-ups": (k) => k.startsWith("follow_ups"),
      document: (k) => k.startsWith("review"),
      "key-points": (k) => k.startsWith("key_points"),
      translations: (k) => k.startsWith("i18n"),
    };
    return keys.some(prefix[t]);
  };
  const busyAny = busy !== null;
  const canPublish = saved && saved.status !== "published";
  const publishBlocked = saved ? publishBlockedReason(saved, progress) : null;

  return (
    <main id="main" className="page wide question-editor" data-testid="question-editor">
      <p className="crumbs">
        <Link to="/bank">Question bank</Link> / {isNew ? "New question" : `${saved?.slug} v${saved?.version}`}
      </p>
      <div className="page-head sticky-head">
        <div>
          <h1>{isNew ? `New ${draft.kind} question` : draft.title || draft.slug}</h1>
          {saved && (
            <p className="row small">
              <span className="mono">
                {saved.slug} · v{saved.version}
              </span>
              <StatusBadges question={saved} />
              {dirty && <span className="save save-dirty">Unsaved changes</span>}
            </p>
          )}
        </div>
        <div className="row actions">
          <button type="button" className="primary" onClick={() => void save()} disabled={busyAny || !dirty}>
            {busy === "save" ? "Saving…" : isNew ? "Create draft" : "Save"}
          </button>
          {saved?.kind === "coding" && (
            <button type="button" className="secondary" onClick={() => void verify()} disabled={busyAny || dirty} title={dirty ? "Save first" : "Run the reference on every hidden test"}>
              {busy === "verify" ? "Verifying…" : "Verify"}
            </button>
          )}
          {canPublish && (
            <button
              type="button"
              className="secondary"
              onClick={() => void publish()}
              disabled={busyAny || dirty || publishBlocked !== null}
              title={dirty ? "Save first" : (publishBlocked ?? undefined)}
              aria-describedby={publishBlocked ? "publish-blocked" : undefined}
            >
              {busy === "publish" ? "Publishing…" : "Publish"}
            </button>
          )}
          {saved && saved.status !== "archived" && (
            <button type="button" className="danger" onClick={() => void archive()} disabled={busyAny}>
              Archive
            </button>
          )}
        </div>
      </div>
      <BankNav />
      {message && (
        <p className={message.kind === "error" ? "error" : message.kind === "notice" ? "notice" : "success"} role={message.kind === "ok" ? "status" : "alert"} data-testid="editor-message">
          {message.text}
        </p>
      )}
      {canPublish && publishBlocked && (
        <p id="publish-blocked" className="small notice" data-testid="publish-blocked">
          {publishBlocked}
        </p>
      )}
      {dirty && saved && (saved.kind === "coding") && <p className="small muted">Save before you verify or publish: both act on the saved version.</p>}
      {reanchor && (
        <ReanchorPrompt
          proposals={reanchor}
          busy={busy === "save"}
          onAccept={() => void save({ confirmReanchor: true })}
          onCancel={() => {
            setReanchor(null);
            setMessage(null);
          }}
        />
      )}
      <ErrorList errors={errors} />
      <div className="editor-layout">
        <div className="editor-main">
          <div className="tabs" role="tablist" aria-label="Question sections">
            {tabs
              .filter(([, , shown]) => shown)
              .map(([key, label]) => (
                <button key={key} type="button" role="tab" aria-selected={tab === key} className={`tab ${tab === key ? "active" : ""}`} onClick={() => setTab(key)}>
                  {label}
                  {tabHasErrors(key) ? " ⚠" : ""}
                </button>
              ))}
          </div>
          <div role="tabpanel">
            {tab === "prompt" && <BasicsSection draft={draft} set={set} isNew={isNew} errors={errors} rubrics={rubrics} />}
            {tab === "code" && coding && (
              <>
                <CodingSettings coding={coding} onChange={(c) => set({ coding: c })} errors={errors} />
                <SourcesEditor coding={coding} onChange={(c) => set({ coding: c })} errors={errors} />
              </>
            )}
            {tab === "parts" && coding && <PartsEditor coding={coding} onChange={(c) => set({ coding: c })} errors={errors} />}
            {tab === "follow-ups" && (
              <FollowUpEditor followUps={draft.follow_ups ?? []} parts={coding?.parts.length ?? 0} onChange={(list) => set({ follow_ups: list })} errors={errors} keyPointDimensions={keyPointDimensions} />
            )}
            {tab === "document" && draft.review && <FlawEditor review={draft.review} onChange={(review) => set({ review })} errors={errors} />}
            {tab === "translations" && <TranslationsEditor draft={draft} onChange={(i18n) => set({ i18n })} errors={errors} />}
            {tab === "key-points" && keyPointDimensions && (
              <Section title="Key points" id="key-points-title">
                <p className="small muted">
                  What a strong answer covers. In solo practice the automatic scorecard marks each covered (quoting the sentence a pattern matched) or not, per rubric dimension. Follow-ups carry their own, on the Follow-ups tab.
                </p>
                <KeyPointEditor title="Key points of the question" keyPoints={draft.key_points ?? []} onChange={(list) => set({ key_points: list })} errors={errors} path="key_points" dimensions={keyPointDimensions} />
              </Section>
            )}
          </div>
        </div>
        <aside className="editor-side">
          {saved?.kind === "coding" && <VerifyPanel verification={progress} />}
          <section className="card">
            <h2>Publishing</h2>
            <p className="small">
              {saved
                ? saved.status === "published"
                  ? "Published: new loops get this version."
                  : saved.status === "archived"
                    ? "Archived: no new loop gets it."
                    : saved.kind === "coding"
                      ? "A draft. Verify the reference, then publish."
                      : "A draft. Publish it to make it available to loop templates."
                : "Create the draft first; a coding question is verified before it is published."}
            </p>
            <VersioningNote saved={saved} />
          </section>
        </aside>
      </div>
    </main>
  );
}
