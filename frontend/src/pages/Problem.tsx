import { Link } from "react-router";

import { ApiError, describeError } from "../api/client";
import { isTransient, type LoadProblem, useSecondsUntil } from "../lib/retry";

/** A failed load that can be tried again: when it will be by itself, and a button for now. */
export interface ProblemRetry {
  problem: LoadProblem;
  onRetry: () => void;
}

function RetryLine({ retry }: { retry: ProblemRetry }) {
  const seconds = useSecondsUntil(retry.problem.retryAt);
  const when =
    retry.problem.retryAt === null ? "" : seconds > 0 ? `Trying again in ${seconds} s.` : "Trying again…";
  return (
    <p className="problem-retry" data-testid="problem-retry">
      {when && <span className="muted">{when} </span>}
      <button type="button" className="secondary small" onClick={retry.onRetry}>
        Try again now
      </button>
    </p>
  );
}

/** A full-page message for not found / forbidden / failed loads; `retry` for a load that
 * may work on another try (a 403 or 404 will not, so it offers none). */
export function Problem({ error, title, retry }: { error?: unknown; title?: string; retry?: ProblemRetry }) {
  const status = error instanceof ApiError ? error.status : undefined;
  const heading =
    title ?? (status === 404 ? "Not found" : status === 403 ? "Not allowed" : "Something went wrong");
  const text =
    status === 404
      ? "This page does not exist, or it is not yours to see."
      : error !== undefined
        ? describeError(error)
        : "This page does not exist.";
  return (
    <main id="main" className="page narrow problem" data-testid="problem">
      <h1>{heading}</h1>
      <p>{text}</p>
      {retry && (isTransient(error) || !(error instanceof ApiError)) && <RetryLine retry={retry} />}
      <p>
        <Link to="/">Back to your loops</Link>
      </p>
    </main>
  );
}

export const NotFoundPage = () => <Problem title="Not found" />;

export function ForbiddenPage({ roles = ["coach", "admin"] }: { roles?: string[] }) {
  const who = roles.includes("coach") ? "coaches" : "admins";
  return (
    <main id="main" className="page narrow problem" data-testid="problem">
      <h1>Not allowed</h1>
      <p>This page is for {who}. Your account may not open it.</p>
      <p>
        <Link to="/">Back to your loops</Link>
      </p>
    </main>
  );
}
