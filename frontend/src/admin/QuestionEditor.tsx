// One question of the bank: edit its bank-file dict, save (in place or as a new version),
// verify the reference in the sandbox with progress, publish.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";

import { ApiError, api, describeError, type QuestionAdmin } from "../api/client";
import { i18next } from "../i18n";
import { formatDateTime } from "../i18n/format";
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
  const { t } = useTranslation();
  const preview = useDeferredValue(draft.prompt);
  return (
    <>
      <Section title={t("admin:list.question")} id="basics-title">
        <div className="form-grid">
          <label>
            {t("admin:slug")}
            <input value={draft.slug} onChange={(e) => set({ slug: e.target.value })} readOnly={!isNew} placeholder="token-batcher" pattern="[a-z0-9-]+" />
            {!isNew && <span className="small muted">{t("admin:editor.slugFixed")}</span>}
            <FieldError errors={errors} path="slug" />
          </label>
          <label>
            {t("admin:list.kind")}
            <select value={draft.kind} disabled={!isNew} onChange={(e) => set({ kind: e.target.value as QuestionKind })}>
              {QUESTION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t("admin:kind.value", { kind: k })}
                </option>
              ))}
            </select>
          </label>
          <label className="span-2">
            {t("admin:parts.title")}
            <input value={draft.title} onChange={(e) => set({ title: e.target.value })} />
            <FieldError errors={errors} path="title" />
          </label>
          <label>
            {t("admin:editor.difficulty")}
            <select value={draft.difficulty} onChange={(e) => set({ difficulty: e.target.value })}>
              {(["easy", "medium", "hard"] as const).map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {t("admin:difficulty.value", { difficulty })}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("admin:editor.tags")}
            <input value={draft.tags.join(", ")} onChange={(e) => set({ tags: e.target.value.split(",").map((t) => t.trim()).filter(Boolean) })} />
            <FieldError errors={errors} path="tags" />
          </label>
          <label>
            {t("admin:editor.rubric")}
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
      <Section title={t("admin:editor.prompt")} id="prompt-title">
        <div className="split">
          <label>
            {t("admin:editor.markdown")}
            <textarea className="mono prompt-input" rows={18} value={draft.prompt} onChange={(e) => set({ prompt: e.target.value })} />
            <FieldError errors={errors} path="prompt" />
          </label>
          <div className="preview-pane" aria-label={t("admin:parts.preview")}>
            <h3 className="small muted">{t("admin:parts.preview")}</h3>
            {preview.trim() ? <Markdown source={preview} className="preview" /> : <p className="muted small">{t("admin:editor.nothingToPreview")}</p>}
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
      return i18next.t("admin:publish.blockedFailed");
    case "queued":
    case "running":
      return i18next.t("admin:publish.blockedRunning");
    case "unavailable":
      return i18next.t("admin:publish.blockedUnavailable");
    default:
      return i18next.t("admin:publish.blockedNotVerified");
  }
}

function VerifyPanel({ verification }: { verification: Verification }) {
  const { t } = useTranslation();
  const done = verification.done ?? 0;
  const total = verification.total ?? 0;
  const state = verification.state;
  const failures = state === "failed" ? (verification.failures ?? []) : [];
  const running = state === "queued" || state === "running";
  return (
    <section className={`card verify-panel verify-${state ?? "none"}`} aria-labelledby="verify-title" data-testid="verify-panel">
      <h2 id="verify-title">{t("admin:verify.title")}</h2>
      {!state && <p className="muted small">{t("admin:verify.none")}</p>}
      {running && (
        <div className="verify-progress" role="status" aria-live="polite">
          <progress max={total || 1} value={done} aria-label={t("admin:verify.progress")} />
          <span className="small">
            {state === "queued" ? t("admin:verify.queued") : total ? t("admin:verify.count", { done, total }) : t("admin:verify.starting")}
          </span>
        </div>
      )}
      {!running && state === "passed" && (
        <p className="ok" role="status" data-testid="verify-passed">
          {verification.checked_at
            ? t("admin:verify.passedAt", { total, at: formatDateTime(verification.checked_at) })
            : t("admin:verify.passed", { total })}
        </p>
      )}
      {state === "unavailable" && <p className="error">{t("admin:verify.unavailable")}</p>}
      {!running && state === "failed" && (
        <>
          <p className="error" role="alert" data-testid="verify-failed">
            {t("admin:verify.failed", { count: failures.length })}
          </p>
          <ul className="failure-list" data-testid="verify-failures">
            {failures.map((text) => {
              const f = parseFailure(text);
              return (
                <li key={text}>
                  <div className="row">
                    <strong>{f.part ? t("admin:verify.failureAt", { part: f.part, tests: f.tests === "sample" ? "sample" : "hidden", test: f.test }) : t("admin:verify.reference")}</strong>
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
  const { t } = useTranslation();
  return (
    <details className="versioning">
      <summary>{t("admin:versioning.summary")}</summary>
      <p className="small">
        <Trans
          i18nKey="admin:versioning.body"
          values={{ next: saved ? saved.version + 1 : 2, current: saved?.version ?? 1 }}
          components={{ strong: <strong /> }}
        />
      </p>
    </details>
  );
}

export function QuestionEditorPage() {
  const { t } = useTranslation();
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
  if (!draft) return <main id="main" className="page"><p className="muted">{t("admin:editor.loading")}</p></main>;

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
        setMessage({ kind: "ok", text: t("admin:editor.created", { slug: created.slug, version: created.version, status: t("admin:status.value", { status: created.status }) }) });
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
        notes.push(t("admin:editor.savedNewVersion", { after: after.version, before: before.version }));
      } else {
        notes.push(t("admin:editor.savedInPlace", { version: after.version }));
      }
      if (before.status === "published" && after.status === "draft") {
        notes.push(t("admin:editor.backToDraft"));
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
        setMessage({ kind: "notice", text: t("admin:editor.checkFlaws") });
        return;
      }
      if (err instanceof ApiError && err.status === 400) {
        // Listed once, in the problem list below (and at each field), not again up here.
        setErrors(err.errors, bodyOf(draft));
        const count = Object.values(err.errors).reduce<number>((n, m) => n + ([] as unknown[]).concat(m).length, 0);
        setMessage({ kind: "error", text: t("admin:editor.notSaved", { count }) });
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
                setMessage({ kind: "notice", text: t("admin:verify.noWorker") });
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
      setMessage({ kind: "ok", text: t("admin:publish.done", { version: after.version }) });
    } catch (err) {
      if (err instanceof ApiError && err.code === "question_not_verified") {
        setMessage({ kind: "notice", text: t("admin:publish.notPublished", { reason: publishBlockedReason(saved, progress) ?? t("admin:publish.notVerifiedYet") }) });
      } else {
        setMessage({ kind: "error", text: describeError(err) });
      }
    } finally {
      setBusy(null);
    }
  }

  async function archive() {
    if (!saved || !window.confirm(t("admin:editor.archiveConfirm", { slug: saved.slug }))) return;
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
    ["prompt", t("admin:editor.prompt"), true],
    ["code", t("admin:editor.tabCode"), draft.kind === "coding"],
    ["parts", t("admin:editor.tabParts", { count: coding?.parts.length ?? 0 }), draft.kind === "coding"],
    ["follow-ups", t("admin:editor.tabFollowUps", { count: draft.follow_ups?.length ?? 0 }), true],
    ["document", t("admin:editor.tabDocument", { count: draft.review?.flaws.length ?? 0 }), draft.kind === "review"],
    ["key-points", t("admin:editor.tabKeyPoints", { count: draft.key_points?.length ?? 0 }), KEY_POINT_KINDS.includes(draft.kind)],
    ["translations", translationsTabLabel(draft), true],
  ];
  const keyPointDimensions = KEY_POINT_KINDS.includes(draft.kind) ? (rubricDimensions[draft.rubric ?? ""] ?? []) : null;
  const tabHasErrors = (which: Tab) => {
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
    return keys.some(prefix[which]);
  };
  const busyAny = busy !== null;
  const canPublish = saved && saved.status !== "published";
  const publishBlocked = saved ? publishBlockedReason(saved, progress) : null;

  return (
    <main id="main" className="page wide question-editor" data-testid="question-editor">
      <p className="crumbs">
        <Link to="/bank">{t("admin:list.title")}</Link> / {isNew ? t("admin:list.newQuestion") : `${saved?.slug} v${saved?.version}`}
      </p>
      <div className="page-head sticky-head">
        <div>
          <h1>{isNew ? t("admin:editor.newOfKind", { kind: t("admin:kind.value", { kind: draft.kind }) }) : draft.title || draft.slug}</h1>
          {saved && (
            <p className="row small">
              <span className="mono">
                {saved.slug} · v{saved.version}
              </span>
              <StatusBadges question={saved} />
              {dirty && <span className="save save-dirty">{t("admin:editor.unsaved")}</span>}
            </p>
          )}
        </div>
        <div className="row actions">
          <button type="button" className="primary" onClick={() => void save()} disabled={busyAny || !dirty}>
            {busy === "save" ? t("admin:saving") : isNew ? t("admin:editor.createDraft") : t("admin:editor.save")}
          </button>
          {saved?.kind === "coding" && (
            <button type="button" className="secondary" onClick={() => void verify()} disabled={busyAny || dirty} title={dirty ? t("admin:editor.saveFirst") : t("admin:verify.hint")}>
              {busy === "verify" ? t("admin:verify.verifying") : t("admin:verify.button")}
            </button>
          )}
          {canPublish && (
            <button
              type="button"
              className="secondary"
              onClick={() => void publish()}
              disabled={busyAny || dirty || publishBlocked !== null}
              title={dirty ? t("admin:editor.saveFirst") : (publishBlocked ?? undefined)}
              aria-describedby={publishBlocked ? "publish-blocked" : undefined}
            >
              {busy === "publish" ? t("admin:publish.publishing") : t("admin:publish.button")}
            </button>
          )}
          {saved && saved.status !== "archived" && (
            <button type="button" className="danger" onClick={() => void archive()} disabled={busyAny}>
              {t("admin:editor.archive")}
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
      {dirty && saved && (saved.kind === "coding") && <p className="small muted">{t("admin:editor.saveBefore")}</p>}
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
          <div className="tabs" role="tablist" aria-label={t("admin:editor.sections")}>
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
              <Section title={t("admin:editor.keyPoints")} id="key-points-title">
                <p className="small muted">{t("admin:editor.keyPointsHelp")}</p>
                <KeyPointEditor title={t("admin:editor.keyPointsOfQuestion")} keyPoints={draft.key_points ?? []} onChange={(list) => set({ key_points: list })} errors={errors} path="key_points" dimensions={keyPointDimensions} />
              </Section>
            )}
          </div>
        </div>
        <aside className="editor-side">
          {saved?.kind === "coding" && <VerifyPanel verification={progress} />}
          <section className="card">
            <h2>{t("admin:publish.title")}</h2>
            <p className="small">
              {saved
                ? saved.status === "published"
                  ? t("admin:publish.published")
                  : saved.status === "archived"
                    ? t("admin:publish.archived")
                    : saved.kind === "coding"
                      ? t("admin:publish.draftCoding")
                      : t("admin:publish.draft")
                : t("admin:publish.createFirst")}
            </p>
            <VersioningNote saved={saved} />
          </section>
        </aside>
      </div>
    </main>
  );
}
