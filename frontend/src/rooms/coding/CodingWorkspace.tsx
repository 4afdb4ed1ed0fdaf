import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as Y from "yjs";

import { api, describeError, type Part, type StageQuestion } from "../../api/client";
import { Markdown } from "../shared/Markdown";
import { useRunShortcuts, useYMapValue } from "../shared/hooks";
import { type Room, roomActive } from "../shared/useStageRoom";
import { ReadOnlyLabel, SaveIndicator } from "../shared/widgets";
import { CodeEditor, type RemoteCursor } from "./CodeEditor";
import { PushedFollowUps } from "./PushedFollowUps";
import { useSubmissions } from "./useSubmissions";
import { VerdictTable } from "./VerdictTable";

const LANGUAGE_LABEL: Record<string, string> = { python: "Python 3", javascript: "JavaScript (Node)", cpp: "C++17", go: "Go 1.19" };

function languagesOf(q: StageQuestion): string[] {
  return Array.isArray(q.languages) ? (q.languages as string[]) : ["python"];
}
function starterOf(q: StageQuestion, language: string): string {
  const starter = (q.starter ?? {}) as Record<string, string>;
  return starter[language] ?? "";
}

function Samples({ part }: { part: Part }) {
  const { t } = useTranslation();
  if (!part.samples.length) return null;
  return (
    <div className="samples">
      {part.samples.map((s, i) => (
        <div key={i} className="sample">
          <h4>{t("rooms:coding.sample", { n: i + 1 })}</h4>
          <div className="io-grid">
            <div>
              <h5>{t("rooms:coding.input")}</h5>
              <pre>{s.input}</pre>
            </div>
            <div>
              <h5>{t("rooms:coding.output")}</h5>
              <pre>{s.output}</pre>
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

export function QuestionPrompt({
  question,
  part,
  onPart,
}: {
  question: StageQuestion;
  part: number;
  onPart: (n: number) => void;
}) {
  const { t } = useTranslation();
  const parts = question.parts as Part[];
  const current = parts.find((p) => p.number === part) ?? parts[0];
  return (
    <div className="question-prompt">
      <h2>{question.title}</h2>
      <p className="small muted">
        {t("rooms:coding.meta", {
          difficulty: question.difficulty,
          ms: question.time_limit_ms,
          mb: question.memory_limit_mb,
        })}{" "}
        · {t("rooms:coding.checker")} <code>{question.checker}</code>
      </p>
      <Markdown source={question.prompt ?? ""} />
      {parts.length > 0 && (
        <>
          <div className="tabs" role="tablist" aria-label={t("rooms:coding.parts")}>
            {parts.map((p) => (
              <button
                key={p.number}
                type="button"
                role="tab"
                aria-selected={p.number === current?.number}
                className={`tab ${p.number === current?.number ? "active" : ""} ${p.locked ? "locked" : ""}`}
                onClick={() => onPart(p.number)}
                data-testid={`part-tab-${p.number}`}
              >
                {p.locked ? t("rooms:coding.partLocked", { n: p.number }) : t("rooms:coding.part", { n: p.number })}
              </button>
            ))}
          </div>
          {current && (
            <div className="part" role="tabpanel" data-testid={`part-${current.number}`}>
              <h3>
                {t("rooms:coding.partTitle", { n: current.number, title: current.title })}
                {current.locked && <span className="badge">{t("rooms:coding.lockedForCandidate")}</span>}
              </h3>
              <Markdown source={current.prompt ?? ""} />
              <Samples part={current} />
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** The candidate's editor and controls for one coding question (or the coach's read-only view). */
function QuestionWorkspace({
  room,
  question,
  editable,
  part,
  remoteCursor,
}: {
  room: Room;
  question: StageQuestion;
  editable: boolean;
  part: number;
  remoteCursor: RemoteCursor | null;
}) {
  const { t } = useTranslation();
  const docName = `code:${question.id}`;
  const doc = useMemo(() => room.docs.get(docName), [room.docs, docName]);
  const meta = useMemo(() => doc.getMap("meta") as Y.Map<unknown>, [doc]);
  const text = useMemo(() => doc.getText("code"), [doc]);
  const languages = languagesOf(question);
  const language = (useYMapValue<string>(meta, "language") ?? languages[0]) as string;
  const canEdit = editable && roomActive(room);
  const [useStdin, setUseStdin] = useState(false);
  const [stdin, setStdin] = useState("");
  const [busy, setBusy] = useState<"run" | "submit" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { rows, track } = useSubmissions(room.events, room.initialSubmissions);
  const cursorTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // A fresh document gets the starter code once the room has replayed its log (so two
  // tabs, or a reload, never insert it twice).
  useEffect(() => {
    if (!canEdit || !room.synced) return;
    if (text.length === 0 && meta.get("language") === undefined) {
      const first = languages[0] ?? "python";
      doc.transact(() => {
        meta.set("language", first);
        text.insert(0, starterOf(question, first));
      });
    }
  }, [canEdit, room.synced, doc, meta, text, languages, question]);

  const changeLanguage = (next: string) => {
    const previousStarter = starterOf(question, language).trim();
    const current = text.toString().trim();
    doc.transact(() => {
      meta.set("language", next);
      if (!current || current === previousStarter) {
        text.delete(0, text.length);
        text.insert(0, starterOf(question, next));
      }
    });
  };

  const submit = useCallback(
    async (mode: "run" | "submit") => {
      if (!canEdit || busy) return;
      setBusy(mode);
      setError(null);
      try {
        room.docs.flush();
        const body = {
          stage: room.stage.id,
          question: question.id,
          part,
          language: language as "python",
          code: text.toString(),
          mode,
          ...(mode === "run" && useStdin ? { stdin } : {}),
        };
        const queued = await api.submissionCreate(body);
        track({ id: queued.id, question: question.id, part, mode, status: queued.status ?? "queued", verdict: "", passed: 0, total: 0, position: queued.queue_position });
      } catch (err) {
        setError(describeError(err));
      } finally {
        setBusy(null);
      }
    },
    [canEdit, busy, room.docs, room.stage.id, question.id, part, language, text, useStdin, stdin, track],
  );
  const run = useCallback(() => void submit("run"), [submit]);
  const submitHidden = useCallback(() => void submit("submit"), [submit]);
  useRunShortcuts(run, submitHidden, canEdit);

  const onCursor = useCallback(
    (anchor: number, head: number) => {
      if (cursorTimer.current) return;
      cursorTimer.current = setTimeout(() => {
        cursorTimer.current = null;
      }, 150);
      room.socket.send({ type: "cursor", doc: docName, anchor, head });
    },
    [room.socket, docName],
  );

  const mine = [...rows.values()].filter((r) => r.question === question.id).sort((a, b) => b.id - a.id);

  return (
    <div className="workspace">
      <div className="toolbar">
        <label className="inline">
          {t("rooms:coding.language")}
          <select value={language} onChange={(e) => changeLanguage(e.target.value)} disabled={!canEdit}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_LABEL[l] ?? l}
              </option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        {editable && !room.refused ? <SaveIndicator status={room.saveStatus} /> : <ReadOnlyLabel room={room} />}
      </div>
      <CodeEditor
        doc={doc}
        language={language}
        readOnly={!canEdit}
        onCursor={canEdit ? onCursor : undefined}
        remoteCursor={remoteCursor}
        label={t("rooms:coding.codeFor", { title: question.title })}
      />
      {editable && (
        <div className="run-bar">
          <label className="toggle">
            <input type="checkbox" checked={useStdin} onChange={(e) => setUseStdin(e.target.checked)} disabled={!canEdit} />
            {t("rooms:coding.customInput")}
          </label>
          <span className="spacer" />
          <button type="button" className="secondary" onClick={run} disabled={!canEdit || busy !== null} title="Ctrl/⌘+Enter">
            {busy === "run"
              ? t("rooms:coding.running")
              : useStdin
                ? t("rooms:coding.runWithInput")
                : t("rooms:coding.runSamples")}
            <kbd>Ctrl+↵</kbd>
          </button>
          <button type="button" className="primary" onClick={submitHidden} disabled={!canEdit || busy !== null} title="Ctrl/⌘+Shift+Enter">
            {busy === "submit" ? t("rooms:coding.submitting") : t("rooms:coding.submitPart", { part })}
            <kbd>Ctrl+⇧+↵</kbd>
          </button>
        </div>
      )}
      {editable && useStdin && (
        <label className="stdin">
          {t("rooms:coding.stdin")}
          <textarea value={stdin} onChange={(e) => setStdin(e.target.value)} rows={4} spellCheck={false} />
        </label>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <section className="results" aria-label={t("rooms:coding.results")}>
        <VerdictTable rows={mine} />
      </section>
    </div>
  );
}

export function CodingWorkspace({ room, editable, side }: { room: Room; editable: boolean; side?: React.ReactNode }) {
  const { t } = useTranslation();
  const questions = room.stage.questions.filter((q) => q.kind === "coding");
  const [questionId, setQuestionId] = useState<number | undefined>(questions[0]?.id);
  const question = questions.find((q) => q.id === questionId) ?? questions[0];
  const openParts = ((question?.parts ?? []) as Part[]).filter((p) => !p.locked).map((p) => p.number);
  const [part, setPart] = useState<number>(1);
  const seenParts = useRef<Record<number, number>>({});
  const [remoteCursor, setRemoteCursor] = useState<RemoteCursor | null>(null);

  // A newly unlocked part (follow-up) becomes the selected one.
  useEffect(() => {
    if (!question) return;
    const highest = Math.max(1, ...openParts);
    const seen = seenParts.current[question.id];
    if (seen !== undefined && highest > seen) setPart(highest);
    seenParts.current[question.id] = highest;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [question?.id, openParts.join(",")]);

  useEffect(() => {
    if (editable) return;
    return room.socket.on("cursor", (m) => {
      if (question && m.doc === `code:${question.id}`) {
        setRemoteCursor({ user: m.user, anchor: m.anchor ?? 0, head: m.head ?? 0 });
      }
    });
  }, [room.socket, editable, question]);

  if (!question) return <p className="muted">{t("rooms:coding.noQuestion")}</p>;
  const partForRun = openParts.includes(part) ? part : (openParts[0] ?? 1);

  return (
    <div className="coding-room">
      <section className="prompt-pane" aria-label={t("rooms:coding.problem")}>
        {questions.length > 1 && (
          <div className="tabs" role="tablist" aria-label={t("rooms:coding.questions")}>
            {questions.map((q, i) => (
              <button
                key={q.id}
                type="button"
                role="tab"
                aria-selected={q.id === question.id}
                className={`tab ${q.id === question.id ? "active" : ""}`}
                title={q.title}
                onClick={() => {
                  setQuestionId(q.id);
                  setPart(1);
                }}
              >
                <span>{t("rooms:coding.questionTab", { n: i + 1, title: q.title })}</span>
              </button>
            ))}
          </div>
        )}
        <PushedFollowUps followUps={room.stage.follow_ups} />
        <QuestionPrompt question={question} part={part} onPart={setPart} />
        {side}
      </section>
      <section className="editor-pane" aria-label={t("rooms:coding.editor")}>
        <QuestionWorkspace
          key={question.id}
          room={room}
          question={question}
          editable={editable}
          part={partForRun}
          remoteCursor={remoteCursor}
        />
      </section>
    </div>
  );
}
