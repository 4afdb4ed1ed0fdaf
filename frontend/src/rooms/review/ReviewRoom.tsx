import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

import {
  api,
  describeError,
  type ReviewCategory,
  type ReviewComment,
  type ReviewScore,
  type StageQuestion,
} from "../../api/client";
import { useMe } from "../../auth/session";
import { formatPercent } from "../../i18n/format";
import { useAsync } from "../../lib/useAsync";
import { ReviewMatchOverrides } from "../../reports/ReviewMatchOverrides";
import { Markdown } from "../shared/Markdown";
import { type Room, roomActive } from "../shared/useStageRoom";
import { REVIEW_CATEGORIES, REVIEW_CATEGORY_LABEL } from "./categories";


export type LineRange = [number, number];

/** Click a line number to start a range, shift-click to extend it. */
export function nextRange(current: LineRange | null, line: number, extend: boolean): LineRange {
  if (!extend || !current) return [line, line];
  const anchor = current[0];
  return [Math.min(anchor, line), Math.max(anchor, line)];
}

function ScoreView({ score, overrides }: { score: ReviewScore; overrides?: React.ReactNode }) {
  const { t } = useTranslation();
  const pct = (x: number) => formatPercent(x);
  return (
    <section className="card review-score" aria-labelledby="score-title" data-testid="review-score">
      <h2 id="score-title">{t("rooms:review.compares")}</h2>
      <div className="metrics">
        <div className="metric">
          <span className="metric-value">{pct(score.recall)}</span>
          <span className="metric-label">{t("rooms:review.recall")}</span>
        </div>
        <div className="metric">
          <span className="metric-value">{pct(score.precision)}</span>
          <span className="metric-label">{t("rooms:review.precision")}</span>
        </div>
        <div className="metric">
          <span className="metric-value">{score.comments}</span>
          <span className="metric-label">{t("rooms:review.comments")}</span>
        </div>
      </div>
      <h3>{t("rooms:review.found", { count: score.matched.length })}</h3>
      <ul className="flaws">
        {score.matched.map((f, i) => (
          <li key={i} className="flaw found">
            <strong>{REVIEW_CATEGORY_LABEL[f.category] ?? f.category}</strong> ·{" "}
            {t("common:flawWhere", { first: f.lines[0], last: f.lines[1], severity: f.severity })}
            <p>{f.explanation}</p>
          </li>
        ))}
      </ul>
      <h3>{t("rooms:review.missed", { count: score.missed.length })}</h3>
      <ul className="flaws">
        {score.missed.map((f, i) => (
          <li key={i} className="flaw missed">
            <strong>{REVIEW_CATEGORY_LABEL[f.category] ?? f.category}</strong> ·{" "}
            {t("common:flawWhere", { first: f.lines[0], last: f.lines[1], severity: f.severity })}
            <p>{f.explanation}</p>
          </li>
        ))}
      </ul>
      {overrides}
    </section>
  );
}

/** The room's events that change the comment list (reload it when one arrives). */
const COMMENT_EVENTS = new Set(["review_comment", "review_comment.updated", "review_comment.deleted"]);

function DocReview({
  room,
  question,
  editable,
  side,
}: {
  room: Room;
  question: StageQuestion;
  editable: boolean;
  side?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const lines = useMemo(() => (question.document ?? "").split("\n"), [question.document]);
  const comments = useAsync(() => api.reviewComments(room.stage.id), [room.stage.id]);
  const [range, setRange] = useState<LineRange | null>(null);
  const [category, setCategory] = useState<ReviewCategory>("spof");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<ReviewComment | null>(null);
  const canComment = editable && roomActive(room);
  const reviewEvents = room.events.filter((e) => COMMENT_EVENTS.has(e.type)).length;
  const reload = comments.reload;

  useEffect(() => {
    if (reviewEvents) void reload();
  }, [reviewEvents, reload]);

  const mine = (comments.data ?? []).filter((c) => c.question === question.id);
  const commented = new Set<number>();
  for (const c of mine) for (let l = c.lines[0]!; l <= c.lines[1]!; l += 1) commented.add(l);

  function stopEditing() {
    setEditing(null);
    setText("");
    setRange(null);
  }

  function edit(comment: ReviewComment) {
    setEditing(comment);
    setRange([comment.lines[0]!, comment.lines[1]!]);
    setCategory(comment.category);
    setText(comment.text);
    setError(null);
  }

  async function change(action: () => Promise<unknown>, after: () => void) {
    setBusy(true);
    setError(null);
    try {
      await action();
      after();
      await comments.reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!range) return;
    const body = { lines: range, category, text };
    await change(
      () =>
        editing
          ? api.reviewCommentUpdate(room.stage.id, editing.id, body)
          : api.reviewCommentCreate(room.stage.id, { question: question.id, ...body }),
      stopEditing,
    );
  }

  async function remove(comment: ReviewComment) {
    if (!window.confirm(t("rooms:review.confirmDelete", { first: comment.lines[0], last: comment.lines[1] }))) return;
    await change(
      () => api.reviewCommentDelete(room.stage.id, comment.id),
      () => {
        if (editing?.id === comment.id) stopEditing();
      },
    );
  }

  return (
    <div className="review-room">
      <section className="doc-pane" aria-label={t("rooms:review.document")}>
        <h2>{question.title}</h2>
        <Markdown source={question.prompt ?? ""} className="small" />
        <p className="small muted">
          {canComment ? t("rooms:review.howToSelect") : ""}
        </p>
        <ol className="doc-lines" data-testid="doc-lines">
          {lines.map((line, i) => {
            const n = i + 1;
            const selected = range && n >= range[0] && n <= range[1];
            return (
              <li key={n} className={`${selected ? "selected" : ""} ${commented.has(n) ? "commented" : ""}`}>
                <button
                  type="button"
                  className="ln"
                  aria-label={t("rooms:review.line", { n })}
                  aria-pressed={Boolean(selected)}
                  disabled={!canComment}
                  onClick={(e) => setRange((r) => nextRange(r, n, e.shiftKey))}
                >
                  {n}
                </button>
                <span className="line-text">{line || " "}</span>
              </li>
            );
          })}
        </ol>
      </section>
      <aside className="side-pane">
        {canComment && (
          <form className="card comment-form" onSubmit={add} aria-label={editing ? t("rooms:review.editLabel") : t("rooms:review.newLabel")}>
            <h3>
              {range
                ? t("rooms:review.heading", {
                    mode: editing ? "edit" : "new",
                    range: t("rooms:review.range", { same: String(range[0] === range[1]), first: range[0], last: range[1] }),
                  })
                : t("rooms:review.selectLines")}
            </h3>
            <label>
              {t("rooms:review.category")}
              <select value={category} onChange={(e) => setCategory(e.target.value as ReviewCategory)}>
                {REVIEW_CATEGORIES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t("rooms:review.comment")}
              <textarea value={text} onChange={(e) => setText(e.target.value)} rows={4} required />
            </label>
            <div className="row">
              <button type="submit" className="primary" disabled={!range || !text.trim() || busy}>
                {editing ? t("rooms:review.save") : t("rooms:review.add")}
              </button>
              {editing && (
                <button type="button" className="secondary" onClick={stopEditing} disabled={busy}>
                  {t("common:cancel")}
                </button>
              )}
            </div>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
          </form>
        )}
        <section className="card" aria-labelledby="comments-title">
          <h3 id="comments-title">{t("rooms:review.list", { count: mine.length })}</h3>
          {comments.error !== undefined && <p className="error">{describeError(comments.error)}</p>}
          <ul className="comment-list" data-testid="review-comments">
            {mine.map((c: ReviewComment) => (
              <li key={c.id}>
                <button type="button" className="link" onClick={() => setRange([c.lines[0]!, c.lines[1]!])}>
                  {t("rooms:review.lines", { first: c.lines[0], last: c.lines[1] })}
                </button>{" "}
                <span className="chip">{REVIEW_CATEGORY_LABEL[c.category] ?? c.category}</span>
                <p>{c.text}</p>
                {canComment && (
                  <span className="row small">
                    <button type="button" className="link" onClick={() => edit(c)} aria-label={t("rooms:review.editOn", { first: c.lines[0], last: c.lines[1] })}>
                      {t("common:edit")}
                    </button>
                    <button type="button" className="link" onClick={() => void remove(c)} aria-label={t("rooms:review.deleteOn", { first: c.lines[0], last: c.lines[1] })}>
                      {t("common:delete")}
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
        {side}
      </aside>
    </div>
  );
}

export function ReviewWorkspace({ room, editable, side }: { room: Room; editable: boolean; side?: React.ReactNode }) {
  const questions = room.stage.questions.filter((q) => q.kind === "review");
  const done = room.stage.status === "done";
  // The coach's match panel follows the candidate's comments as they are added, edited or
  // deleted: each comment event asks for the score again.
  const commentEvents = room.events.filter((e) => COMMENT_EVENTS.has(e.type)).length;
  const watching = done || !editable;
  const score = useAsync(
    () => (watching ? api.reviewScore(room.stage.id) : Promise.resolve(null)),
    [room.stage.id, watching, watching ? commentEvents : 0],
  );
  const me = useMe();
  const canOverride = !editable && (me.role === "coach" || me.role === "admin");
  return (
    <div className="review-workspace">
      {score.data && (
        <ScoreView
          score={score.data}
          overrides={canOverride ? <ReviewMatchOverrides stageId={room.stage.id} score={score.data} onScore={score.setData} /> : undefined}
        />
      )}
      {questions.map((q) => (
        <DocReview key={q.id} room={room} question={q} editable={editable} side={side} />
      ))}
    </div>
  );
}
