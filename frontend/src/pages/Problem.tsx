import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { ApiError, describeError } from "../api/client";
import { isTransient, type LoadProblem, useSecondsUntil } from "../lib/retry";

/** A failed load that can be tried again: when it will be by itself, and a button for now. */
export interface ProblemRetry {
  problem: LoadProblem;
  onRetry: () => void;
}

function RetryLine({ retry }: { retry: ProblemRetry }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(retry.problem.retryAt);
  const when =
    retry.problem.retryAt === null
      ? ""
      : seconds > 0
        ? t("common:problem.retryIn", { seconds })
        : t("common:problem.retrying");
  return (
    <p className="problem-retry" data-testid="problem-retry">
      {when && <span className="muted">{when} </span>}
      <button type="button" className="secondary small" onClick={retry.onRetry}>
        {t("common:problem.retryNow")}
      </button>
    </p>
  );
}

/** A full-page message for not found / forbidden / failed loads; `retry` for a load that
 * may work on another try (a 403 or 404 will not, so it offers none). */
export function Problem({ error, title, retry }: { error?: unknown; title?: string; retry?: ProblemRetry }) {
  const { t } = useTranslation();
  const status = error instanceof ApiError ? error.status : undefined;
  const heading =
    title ??
    (status === 404
      ? t("common:problem.notFound")
      : status === 403
        ? t("common:problem.notAllowed")
        : t("common:problem.failed"));
  const text =
    status === 404
      ? t("common:problem.notYours")
      : error !== undefined
        ? describeError(error)
        : t("common:problem.noPage");
  return (
    <main id="main" className="page narrow problem" data-testid="problem">
      <h1>{heading}</h1>
      <p>{text}</p>
      {retry && (isTransient(error) || !(error instanceof ApiError)) && <RetryLine retry={retry} />}
      <p>
        <Link to="/">{t("common:problem.back")}</Link>
      </p>
    </main>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return <Problem title={t("common:problem.notFound")} />;
}

export function ForbiddenPage({ roles = ["coach", "admin"] }: { roles?: string[] }) {
  const { t } = useTranslation();
  const who = roles.includes("coach") ? "coaches" : "admins";
  return (
    <main id="main" className="page narrow problem" data-testid="problem">
      <h1>{t("common:problem.notAllowed")}</h1>
      <p>{t("common:problem.forRole", { who })}</p>
      <p>
        <Link to="/">{t("common:problem.back")}</Link>
      </p>
    </main>
  );
}
