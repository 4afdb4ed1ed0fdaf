import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";

import { api, describeError, type QuestionAdmin, type QuestionSummary } from "../api/client";
import { i18next } from "../i18n";
import { formatDateTime } from "../i18n/format";
import { useAsync } from "../lib/useAsync";
import { BankNav } from "./BankNav";
import { QUESTION_KINDS, type QuestionKind, verificationOf } from "./model";

/** The list has the summary's `verification_state`; the editor the full `verification`. */
export function StatusBadges({ question }: { question: QuestionSummary | QuestionAdmin }) {
  const { t } = useTranslation();
  const state = "verification_state" in question ? question.verification_state : verificationOf(question).state;
  return (
    <span className="badges">
      <span className={`badge q-${question.status}`}>{t("admin:status.value", { status: question.status })}</span>
      {question.kind === "coding" &&
        (question.verified_at ? (
          <span className="badge q-verified">{t("admin:list.verified")}</span>
        ) : state === "failed" ? (
          <span className="badge q-failed">{t("admin:list.verificationFailed")}</span>
        ) : (
          <span className="badge q-unverified">{t("admin:list.unverified")}</span>
        ))}
    </span>
  );
}

/** What a question holds, from the summary's counts (the list never loads the tests). */
export function contentsOf(q: QuestionSummary): string {
  const items: string[] = [];
  if (q.kind === "coding") {
    items.push(
      i18next.t("admin:list.parts", { count: q.part_count }),
      i18next.t("admin:list.samples", { count: q.sample_count }),
      i18next.t("admin:list.hidden", { count: q.hidden_count }),
    );
  }
  if (q.kind === "review") items.push(i18next.t("admin:list.flaws", { count: q.flaw_count }));
  if (q.follow_up_count) items.push(i18next.t("admin:list.followUps", { count: q.follow_up_count }));
  return items.join(" · ");
}

export function QuestionList() {
  const { t } = useTranslation();
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
          <h1>{t("admin:list.title")}</h1>
          <p className="muted">{t("admin:list.intro")}</p>
        </div>
        <div className="row">
          <label className="inline">
            <span className="sr-only">{t("admin:list.newKind")}</span>
            <select value={newKind} onChange={(e) => setNewKind(e.target.value as QuestionKind)} aria-label={t("admin:list.newKind")}>
              {QUESTION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t("admin:kind.value", { kind: k })}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={() => navigate(`/bank/questions/new?kind=${newKind}`)}>
            {t("admin:list.newQuestion")}
          </button>
        </div>
      </div>
      <BankNav />
      <div className="filters" role="search">
        <label className="inline">
          {t("admin:list.search")}
          <input type="search" aria-label={t("admin:list.searchLabel")} value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("admin:list.searchPlaceholder")} />
        </label>
        <label className="inline">
          {t("admin:list.kind")}
          <select value={kind} onChange={(e) => setFilter("kind", e.target.value)} aria-label={t("admin:list.filterKind")}>
            <option value="">{t("admin:list.all")}</option>
            {QUESTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {t("admin:kind.value", { kind: k })}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          {t("admin:list.status")}
          <select value={status} onChange={(e) => setFilter("status", e.target.value)} aria-label={t("admin:list.filterStatus")}>
            <option value="">{t("admin:list.all")}</option>
            {(["draft", "published", "archived"] as const).map((s) => (
              <option key={s} value={s}>
                {t("admin:status.value", { status: s })}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">{questions.data ? t("admin:list.shown", { shown: shown.length, total: questions.data.length }) : ""}</span>
      </div>
      {questions.error !== undefined && (
        <p className="error" role="alert">
          {describeError(questions.error)}
        </p>
      )}
      {questions.loading && !questions.data && <p className="muted">{t("admin:list.loading")}</p>}
      <table className="table" data-testid="question-list">
        <thead>
          <tr>
            <th scope="col">{t("admin:list.question")}</th>
            <th scope="col">{t("admin:list.kind")}</th>
            <th scope="col">{t("admin:list.version")}</th>
            <th scope="col">{t("admin:list.state")}</th>
            <th scope="col">{t("admin:list.contents")}</th>
            <th scope="col">{t("admin:list.tags")}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((q) => (
            <tr key={q.id} data-testid={`question-row-${q.slug}`}>
              <td>
                <Link to={`/bank/questions/${q.id}`}>{q.title}</Link>
                <div className="small muted mono">{q.slug}</div>
              </td>
              <td>{t("admin:kind.value", { kind: q.kind })}</td>
              <td>
                v{q.version}
                <div className="small muted">
                  <time dateTime={q.created_at}>{formatDateTime(q.created_at, { dateStyle: "medium" })}</time>
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
                {t("admin:list.noMatch")}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </main>
  );
}
