// A finished (or running) stage played back from its event log: the code as it was typed,
// follow-ups, chat, verdicts, notes and whiteboard, with a scrubber and 0.5×–8× speed.
// The coach and admins see every event (private notes and integrity signals too); the
// candidate's log comes without them (the server leaves them out).
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type * as Y from "yjs";

import { api, type ReviewComment, type RoomName, type StageDetail, type StageQuestion } from "../api/client";
import { useMe } from "../auth/session";
import { i18next } from "../i18n";
import { formatDateTime, formatNumber } from "../i18n/format";
import { verdictLabel } from "../lib/format";
import { stageKindLabel, stageKindsStore, useStageKinds } from "../lib/stageKinds";
import { Problem } from "../pages/Problem";
import { ReplayAudio } from "../recording/ReplayAudio";
import { CodeEditor } from "../rooms/coding/CodeEditor";
import { NOTE_SECTIONS } from "../rooms/design/DesignRoom";
import { roomFor } from "../rooms/registry";
import { REVIEW_CATEGORY_LABEL } from "../rooms/review/categories";
import { describeSignal, useYMapValue } from "../rooms/shared/hooks";
import { Markdown } from "../rooms/shared/Markdown";
import { UnsupportedStageKind } from "../rooms/shared/UnsupportedStageKind";
import type { LoggedEvent } from "../ws/events.gen";
import { buildTimeline, countAt, formatOffset, IDLE_CAP_MS, idleLabel, inFeed, realAt, ReplayDocs, type Timeline, type TimelineEvent } from "./engine";

const Whiteboard = lazy(() => import("../rooms/design/Whiteboard"));
export const SPEEDS = [0.5, 1, 2, 4, 8];
const PAGE = 5000;

/** Every event of the stage the viewer may see, paged. */
export async function loadAllEvents(stageId: number): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await api.stageEvents(stageId, { after, limit: PAGE });
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page[page.length - 1]!.seq;
  }
}

/** One line of the replay's feed, in the interface's language. */
export function describeEvent(e: LoggedEvent): string {
  const t = i18next.t.bind(i18next);
  const category = (value: string) => REVIEW_CATEGORY_LABEL[value] ?? value;
  switch (e.type) {
    case "stage.status":
      return t("replay:event.stageStatus", { status: e.status, reason: e.reason });
    case "stage.claimed":
      return t("replay:event.claimed", { coach: e.coach });
    case "timer":
      return t("replay:event.timer", { reason: e.reason });
    case "follow_up":
      return e.unlocks_part
        ? t("replay:event.followUpUnlocks", { part: e.unlocks_part, text: e.text })
        : t("replay:event.followUp", { text: e.text });
    case "chat":
      return t("replay:event.chat", { actor: e.actor ?? "Mockloop", text: e.text });
    case "submission.status":
      return t("replay:event.submission", {
        mode: e.mode,
        part: e.part,
        verdict: verdictLabel(e.verdict || e.status),
        passed: e.passed ?? 0,
        total: e.total ?? 0,
      });
    case "answer.saved":
      return t("replay:event.answerSaved");
    case "review_comment":
      return t("replay:event.comment", { lines: e.lines.join("–"), category: category(e.category) });
    case "review_comment.updated":
      return t("replay:event.commentEdited", { id: e.id, lines: e.lines.join("–"), category: category(e.category) });
    case "review_comment.deleted":
      return t("replay:event.commentDeleted", { id: e.id });
    case "note":
      return t("replay:event.note", { text: e.text });
    case "integrity":
      return describeSignal(e);
    case "scorecard.saved":
      return t("replay:event.scorecard", { recommendation: e.recommendation ?? "none" });
    case "review_match.set":
      return e.flaw
        ? t("replay:event.ruledFlaw", { comment: e.comment, flaw: e.flaw })
        : t("replay:event.ruledNone", { comment: e.comment });
    case "review_match.cleared":
      return t("replay:event.ruleCleared", { comment: e.comment });
    case "recording.started":
      return t("replay:event.recordingStarted", { kind: e.kind });
    case "recording.stopped":
      return t("replay:event.recordingStopped", { reason: e.reason });
    default:
      return e.type;
  }
}

/** A moment of the stage as a time of day, in the interface's language. */
function timeOfDay(at: number): string {
  return formatDateTime(new Date(at), { hour: "2-digit", minute: "2-digit" });
}

function CodeReplay({ docs, generation, question }: { docs: ReplayDocs; generation: number; question: StageQuestion }) {
  const { t } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const doc = useMemo(() => docs.get(`code:${question.id}`), [docs, generation, question.id]);
  const meta = useMemo(() => doc.getMap("meta") as Y.Map<unknown>, [doc]);
  const language = useYMapValue<string>(meta, "language") ?? ((question.languages as string[] | undefined)?.[0] ?? "python");
  const text = doc.getText("code");
  const [chars, setChars] = useState(text.length);
  useEffect(() => {
    setChars(text.length);
    const update = () => setChars(text.length);
    text.observe(update);
    return () => text.unobserve(update);
  }, [text]);
  return (
    <div className="replay-code">
      <div className="toolbar small muted">
        <span>{language}</span>
        <span className="spacer" />
        <span data-testid="replay-chars">{t("replay:chars", { count: chars })}</span>
      </div>
      <CodeEditor key={generation} doc={doc} language={language} readOnly label={t("replay:codeLabel", { title: question.title })} />
    </div>
  );
}

function NoteReplay({ map, sectionKey, label }: { map: Y.Map<unknown>; sectionKey: string; label: string }) {
  const value = useYMapValue<string>(map, sectionKey) ?? "";
  return (
    <div className="note-field">
      <h4>{label}</h4>
      {value ? <p className="prose-pre">{value}</p> : <p className="muted small">—</p>}
    </div>
  );
}

function DesignReplay({ docs, generation, question }: { docs: ReplayDocs; generation: number; question: StageQuestion }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"notes" | "board">("notes");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const notes = useMemo(() => docs.get(`notes:${question.id}`).getMap("notes") as Y.Map<unknown>, [docs, generation, question.id]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const scene = useMemo(() => docs.get(`scene:${question.id}`).getMap("scene") as Y.Map<unknown>, [docs, generation, question.id]);
  return (
    <div className="work-pane">
      <div className="tabs" role="tablist" aria-label={t("replay:design.views")}>
        <button type="button" role="tab" aria-selected={tab === "notes"} className={`tab ${tab === "notes" ? "active" : ""}`} onClick={() => setTab("notes")}>
          {t("replay:design.notes")}
        </button>
        <button type="button" role="tab" aria-selected={tab === "board"} className={`tab ${tab === "board" ? "active" : ""}`} onClick={() => setTab("board")}>
          {t("replay:design.board")}
        </button>
      </div>
      {tab === "notes" ? (
        <div className="notes">
          {NOTE_SECTIONS.map((s) => (
            <NoteReplay key={`${generation}-${s.key}`} map={notes} sectionKey={s.key} label={s.label} />
          ))}
        </div>
      ) : (
        <div className="board">
          <Suspense fallback={<p className="muted">{t("replay:design.loadingBoard")}</p>}>
            <Whiteboard key={generation} scene={scene} editable={false} />
          </Suspense>
        </div>
      )}
    </div>
  );
}

function ReviewReplay({ question, shown, comments }: { question: StageQuestion; shown: Set<number>; comments: ReviewComment[] }) {
  const { t } = useTranslation();
  const lines = (question.document ?? "").split("\n");
  const visible = comments.filter((c) => shown.has(c.id) && c.question === question.id);
  const commented = new Set<number>();
  for (const c of visible) for (let l = c.lines[0]!; l <= c.lines[1]!; l += 1) commented.add(l);
  return (
    <div className="review-room">
      <section className="doc-pane" aria-label={t("replay:review.document")}>
        <ol className="doc-lines">
          {lines.map((line, i) => (
            <li key={i} className={commented.has(i + 1) ? "commented" : ""}>
              <span className="ln">{i + 1}</span>
              <span className="line-text">{line || " "}</span>
            </li>
          ))}
        </ol>
      </section>
      <aside className="side-pane">
        <section className="card">
          <h3>{t("replay:review.comments", { count: visible.length })}</h3>
          <ul className="comment-list">
            {visible.map((c) => (
              <li key={c.id}>
                <strong>{t("replay:review.lines", { first: c.lines[0], last: c.lines[1] })}</strong>{" "}
                <span className="chip">{REVIEW_CATEGORY_LABEL[c.category] ?? c.category}</span>
                <p>{c.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </aside>
    </div>
  );
}

function DiscussionReplay({ stage, question }: ReplayViewProps) {
  const { t } = useTranslation();
  return (
    <div className="discussion-room">
      <article className="card">
        <h2>{question.title}</h2>
        <Markdown source={question.prompt ?? ""} className="small" />
        <h3>{t("replay:discussion.final")}</h3>
        <p className="small muted">{t("replay:discussion.help")}</p>
        <pre className="prose-pre">{stage.answers.find((a) => a.question === question.id)?.text || t("replay:discussion.none")}</pre>
      </article>
    </div>
  );
}

interface ReplayViewProps {
  stage: StageDetail;
  question: StageQuestion;
  docs: ReplayDocs;
  generation: number;
  shownComments: Set<number>;
  comments: ReviewComment[];
}

/** How each room of rooms/registry.tsx is played back. */
const REPLAY_VIEWS: Record<RoomName, (props: ReplayViewProps) => React.ReactNode> = {
  coding: (props) => (props.question.kind === "coding" ? <CodeReplay docs={props.docs} generation={props.generation} question={props.question} /> : <DiscussionReplay {...props} />),
  design: (props) => <DesignReplay docs={props.docs} generation={props.generation} question={props.question} />,
  review: (props) => <ReviewReplay question={props.question} shown={props.shownComments} comments={props.comments} />,
  discussion: (props) => <DiscussionReplay {...props} />,
};

function Workspace({ stage, room, docs, generation, upTo, comments }: { stage: StageDetail; room: RoomName; docs: ReplayDocs; generation: number; upTo: TimelineEvent[]; comments: ReviewComment[] }) {
  const { t } = useTranslation();
  const [questionId, setQuestionId] = useState<number | undefined>(stage.questions[0]?.id);
  const question = stage.questions.find((q) => q.id === questionId) ?? stage.questions[0];
  if (!question) return <p className="muted">{t("replay:noQuestions")}</p>;
  const shownComments = new Set(upTo.flatMap(({ event }) => (event.type === "review_comment" ? [event.id] : [])));
  return (
    <div className="replay-workspace">
      {stage.questions.length > 1 && (
        <div className="tabs" role="tablist" aria-label={t("replay:questions")}>
          {stage.questions.map((q, i) => (
            <button key={q.id} type="button" role="tab" aria-selected={q.id === question.id} className={`tab ${q.id === question.id ? "active" : ""}`} onClick={() => setQuestionId(q.id)}>
              Q{i + 1}. {q.title}
            </button>
          ))}
        </div>
      )}
      {REPLAY_VIEWS[room]({ stage, question, docs, generation, shownComments, comments })}
    </div>
  );
}

function Scrubber({ timeline, at, onSeek }: { timeline: Timeline; at: number; onSeek: (at: number) => void }) {
  const { t } = useTranslation();
  const duration = Math.max(1, timeline.duration);
  const marks = timeline.events.filter(({ event: e }) => e.type === "follow_up" || (e.type === "submission.status" && (e.status === "done" || e.status === "error")) || e.type === "note");
  return (
    <div className="scrubber">
      <input
        type="range"
        min={0}
        max={duration}
        step={50}
        value={Math.min(at, duration)}
        onChange={(e) => onSeek(Number(e.target.value))}
        aria-label={t("replay:position")}
        aria-valuetext={t("replay:positionValue", { at: formatOffset(realAt(timeline, at)), total: formatOffset(timeline.realDuration) })}
        data-testid="replay-scrubber"
      />
      <div className="marks" aria-hidden="true">
        {marks.map((m) => (
          <span
            key={m.seq}
            className={`mark mark-${m.type.replace(".", "-")} ${m.event.type === "submission.status" && m.event.verdict === "accepted" ? "ok" : ""}`}
            style={{ left: `${(m.t / duration) * 100}%` }}
            title={describeEvent(m.event)}
          />
        ))}
      </div>
      {/* Idle stretches play shortened: marked where they are, with how long they really were. */}
      <div className="idle-gaps" data-testid="replay-idle-gaps">
        {timeline.gaps.map((g) => (
          <span
            key={g.t}
            className="idle-gap"
            style={{ left: `${(g.t / duration) * 100}%`, width: `${(g.playedMs / duration) * 100}%` }}
            title={t("replay:idle.title", { idle: idleLabel(g.ms).replace("⋯ ", ""), played: formatNumber(Math.round(g.playedMs / 1000), { style: "unit", unit: "second" }) })}
          >
            {idleLabel(g.ms)}
          </span>
        ))}
      </div>
    </div>
  );
}

export function ReplayPage() {
  const { t } = useTranslation();
  const { stageId } = useParams();
  const id = Number(stageId);
  const me = useMe();
  const [stage, setStage] = useState<StageDetail | null>(null);
  const [events, setEvents] = useState<LoggedEvent[] | null>(null);
  const [comments, setComments] = useState<ReviewComment[]>([]);
  const [error, setError] = useState<unknown>(undefined);
  const [at, setAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  /** A recording's audio is playing and drives the clock (recording/ReplayAudio.tsx). */
  const [audioDriven, setAudioDriven] = useState(false);
  const feedRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    let stale = false;
    setStage(null);
    setEvents(null);
    Promise.all([api.stage(id), loadAllEvents(id)]).then(
      ([detail, log]) => {
        if (stale) return;
        setStage(detail);
        setEvents(log);
      },
      (err) => !stale && setError(err),
    );
    return () => {
      stale = true;
    };
  }, [id]);

  const { kinds, problem: kindsProblem } = useStageKinds();
  const room = stage && kinds ? roomFor(kinds, stage.kind)?.name : undefined;
  useEffect(() => {
    if (room !== "review") return;
    let stale = false;
    api.reviewComments(id).then((c) => !stale && setComments(c), () => undefined);
    return () => {
      stale = true;
    };
  }, [id, room]);

  const startedAt = stage?.started_at ?? null;
  const timeline = useMemo(() => buildTimeline(events ?? [], IDLE_CAP_MS, startedAt), [events, startedAt]);
  const docs = useMemo(() => new ReplayDocs(timeline), [timeline]);
  useEffect(() => () => docs.destroy(), [docs]);
  const count = countAt(timeline, at);
  const [generation, setGeneration] = useState(0);
  useLayoutEffect(() => {
    docs.seek(count);
    setGeneration(docs.generation);
  }, [docs, count]);

  // Playback: advance the replay clock by real time × speed.
  useEffect(() => {
    if (!playing || audioDriven) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const dt = now - last;
      last = now;
      setAt((current) => {
        const next = Math.min(timeline.duration, current + dt * speed);
        if (next >= timeline.duration) setPlaying(false);
        return next;
      });
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, timeline.duration, audioDriven]);

  const upTo = timeline.events.slice(0, count);
  const feed = upTo.filter((e) => inFeed(e.event));
  useEffect(() => {
    feedRef.current?.scrollTo({ top: feedRef.current.scrollHeight });
  }, [feed.length]);

  const seek = useCallback((value: number) => setAt(Math.max(0, Math.min(value, timeline.duration))), [timeline.duration]);
  const stepTo = (direction: 1 | -1) => {
    const points = timeline.events.filter((e) => inFeed(e.event));
    const next = direction > 0 ? points.find((e) => e.t > at) : [...points].reverse().find((e) => e.t < at);
    if (next) seek(next.t);
    else seek(direction > 0 ? timeline.duration : 0);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && (target as HTMLInputElement).type !== "range") return;
      if (event.key === " " && !(target && target.closest(".cm-editor"))) {
        event.preventDefault();
        setPlaying((p) => !p);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (error !== undefined) return <Problem error={error} />;
  if (kindsProblem) return <Problem error={kindsProblem.error} retry={{ problem: kindsProblem, onRetry: stageKindsStore.retry }} />;
  if (!stage || !events || !kinds) return <main id="main" className="room"><p className="muted">{t("replay:loading")}</p></main>;

  const current = upTo[upTo.length - 1];
  const privateView = me.role !== "candidate";
  const atEnd = at >= timeline.duration;

  return (
    <main id="main" className="room replay" data-testid="replay">
      <div className="room-header">
        <div className="room-title">
          <p className="crumbs">
            <Link to={`/loops/${stage.loop}`}>{t("replay:loop")}</Link> / <Link to={me.role === "candidate" ? `/stages/${stage.id}` : `/coach/stages/${stage.id}`}>{stage.title}</Link> / {t("replay:replay")}
          </p>
          <h1>
            {t("replay:heading", { title: stage.title })} <span className="muted small">{stageKindLabel(kinds, stage.kind)}</span>
          </h1>
        </div>
        <div className="room-status">
          <span className={`badge status-${stage.status}`}>{t("coach:stageStatus", { status: stage.status })}</span>
          <span className="small muted">{privateView ? t("replay:coachView") : t("replay:ownView")}</span>
          {stage.status === "done" && (
            <Link className="button secondary small" to={`/loops/${stage.loop}/report`}>
              {t("replay:loopReport")}
            </Link>
          )}
        </div>
      </div>
      <div className="replay-controls" role="group" aria-label={t("replay:playback")}>
        <button type="button" className="secondary small" onClick={() => seek(0)} aria-label={t("replay:toStart")}>
          {t("replay:start")}
        </button>
        <button type="button" className="secondary small" onClick={() => stepTo(-1)} aria-label={t("replay:previous")}>
          ◀
        </button>
        <button
          type="button"
          className="primary small play"
          onClick={() => {
            if (atEnd) seek(0);
            setPlaying((p) => !p);
          }}
          data-testid="replay-play"
        >
          {playing ? t("replay:pause") : t("replay:play")}
        </button>
        <button type="button" className="secondary small" onClick={() => stepTo(1)} aria-label={t("replay:next")}>
          ▶
        </button>
        <button type="button" className="secondary small" onClick={() => { seek(timeline.duration); setPlaying(false); }} aria-label={t("replay:toEnd")}>
          {t("replay:end")}
        </button>
        <label className="inline small">
          {t("replay:speed")}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} aria-label={t("replay:speedLabel")}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {formatNumber(s)}×
              </option>
            ))}
          </select>
        </label>
        <Scrubber timeline={timeline} at={at} onSeek={seek} />
        <span className="replay-clock mono" data-testid="replay-clock">
          {formatOffset(realAt(timeline, at))} / {formatOffset(timeline.realDuration)}
        </span>
        <span className="small muted">{current ? timeOfDay(current.at) : ""}</span>
      </div>
      <ReplayAudio stageId={stage.id} timeline={timeline} clock={{ t: at, playing, speed, seek, setPlaying, setDriven: setAudioDriven }} />
      {!room ? (
        <UnsupportedStageKind kind={stage.kind} />
      ) : events.length === 0 ? (
        <p className="notice">{t("replay:nothing")}</p>
      ) : (
        <div className="room-body with-side">
          <div className="room-main">
            <Workspace stage={stage} room={room} docs={docs} generation={generation} upTo={upTo} comments={comments} />
          </div>
          <aside className="room-side panel replay-feed" aria-label={t("replay:feed")}>
            <h2>
              {t("replay:feed")}{" "}
              <span className="muted small">{t("replay:feedCount", { shown: feed.length, total: timeline.events.filter((e) => inFeed(e.event)).length })}</span>
            </h2>
            <ol ref={feedRef} className="feed" data-testid="replay-feed">
              {feed.map((e) => (
                <li key={e.seq} className={`feed-item feed-${e.type.replace(/\./g, "-")} ${e.event.private ? "private" : ""}`}>
                  <button type="button" className="link-button" onClick={() => seek(e.t)}>
                    <span className="mono small muted">{formatOffset(e.real)}</span> {describeEvent(e.event)}
                  </button>
                </li>
              ))}
              {feed.length === 0 && <li className="muted small">{t("replay:feedEmpty")}</li>}
            </ol>
          </aside>
        </div>
      )}
    </main>
  );
}

export default ReplayPage;
