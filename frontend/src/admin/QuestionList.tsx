import { useMemo, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";

import { api, describeError, type QuestionAdmin, type QuestionSummary } from "../api/client";
import { useAsync } from "../lib/useAsync";
import { BankNav } from "./BankNav";
import { QUESTION_KINDS, type QuestionKind, verificationOf } from "./model";

/** The list has the summary's `verification_state`; the editor the full `verification`. */
export function StatusBadges({ question }: { question: QuestionSummary | QuestionAdmin }) {
  const state = "verification_state" in question ? question.verification_state : verificationOf(question).state;
  return (
    <span className="badges">
      <span className={`badge q-${question.status}`}>{question.status}</span>
      {question.kind === "coding" &&
        (question.verified_at ? (
          <span className="badge q-verified">verified</span>
        ) : state === "failed" ? (
          <span className="badge q-failed">verification failed</span>
        ) : (
          <span className="badge q-unverified">unverified</span>
        ))}
    </span>
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a question holds, from the summary's counts (the list never loads the tests). */
export function contentsOf(q: QuestionSummary): string {
  const items: string[] = [];
  if (q.kind === "coding") {
    items.push(plural(q.part_count, "part"), plural(q.sample_count, "sample"), plural(q.hidden_count, "hidden test"));
  }
  if (q.kind === "review") items.push(plural(q.flaw_count, "planted flaw"));
  if (q.follow_up_count) items.push(plural(q.follow_up_count, "follow-up"));
  return items.join(" · ");
}

export function QuestionList() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const kind = params.get("kind") ?? "";
  const status = params.get("status") ?? "";
  const [search, setSearch] = useState(params.get("q") ?? "");
  const [newKind, setNewKind] = useState<QuestionKind>("coding");
  const questions = useAsync(() => api.questions({ kind: kind || undefined, status: status || undefined }), [kind, status]);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = questions.data ?? [];
    if (!needle) return list;
    return list.filter((q) =>
      [q.slug, q.title, ...(q.tags ?? [])].some((text) => String(text).toLowerCase().includes(needle)),
    );
  }, [questions.data, search]);

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <main id="main" className="page wide">
      <div className="page-head">
        <div>
          <h1>Question bank</h1>
          <p className="muted">Coding questions are published only once their reference solution passes every hidden test in the sandbox.</p>
        </div>
        <div className="row">
          <label className="inline">
            <span className="sr-only">Kind of the new question</span>
            <select value={newKind} onChange={(e) => setNewKind(e.target.value as QuestionKind)} aria-label="Kind of the new question">
              {QUESTION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={() => navigate(`/bank/questions/new?kind=${newKind}`)}>
            New question
          </button>
        </div>
      </div>
      <BankNav />
      <div className="filters" role="search">
        <label className="inline">
          Search
          <input type="search" aria-label="Search questions" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="slug, title or tag" />
        </label>
        <label className="inline">
          Kind
          <select value={kind} onChange={(e) => setFilter("kind", e.target.value)} aria-label="Filter by kind">
            <option value="">all</option>
            {QUESTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Status
          <select value={status} onChange={(e) => setFilter("status", e.target.value)} aria-label="Filter by status">
            <option value="">all</option>
            <option value="draft">draft</option>
            <option value="published">published</option>
            <option value="archived">archived</option>
          </select>
        </label>
        <span className="muted small">{questions.data ? `${shown.length} of ${questions.data.length}` : ""}</span>
      </div>
      {questions.error !== undefined && (
        <p className="error" role="alert">
          {describeError(questions.error)}
        </p>
      )}
      {questions.loading && !questions.data && <p className="muted">Loading the bank…</p>}
      <table className="table" data-testid="question-list">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Kind</th>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col">Contents</th>
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((q) => (
            <tr key={q.id} data-testid={`question-row-${q.slug}`}>
              <td>
                <Link to={`/bank/questions/${q.id}`}>{q.title}</Link>
                <div className="small muted mono">{q.slug}</div>
              </td>
              <td>{q.kind}</td>
              <td>
                v{q.version}
                <div className="small muted">
                  <time dateTime={q.created_at}>{new Date(q.created_at).toLocaleDateString()}</time>
                </div>
              </td>
              <td>
                <StatusBadges question={q} />
              </td>
              <td className="small">{contentsOf(q)}</td>
              <td className="small muted">{(q.tags ?? []).join(", ")}</td>
            </tr>
          ))}
          {questions.data && shown.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No question matches.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </main>
  );
}
