import { Link } from "react-router";

import { ApiError, describeError } from "../api/client";

/** A full-page message for not found / forbidden / failed loads. */
export function Problem({ error, title }: { error?: unknown; title?: string }) {
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
