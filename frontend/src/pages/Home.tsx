import { useCallback, useEffect, useState } from "react";

import { api, describeError } from "../api/client";
import { LoginForm } from "../auth/LoginForm";
import { loadSession, type Session } from "../auth/session";

const STAGES = [
  "Recruiter screen",
  "Online coding challenge",
  "Hiring-manager call",
  "Coding & optimisation",
  "System design",
  "Design doc review",
  "Project deep dive",
  "Culture & values",
];

export function Home() {
  const [session, setSession] = useState<Session>({ state: "loading" });

  const refresh = useCallback(() => {
    loadSession().then(setSession);
  }, []);

  useEffect(refresh, [refresh]);

  const signOut = useCallback(() => {
    api
      .logout()
      .then(refresh)
      .catch((error: unknown) => setSession({ state: "unavailable", error }));
  }, [refresh]);

  return (
    <div className="page">
      <header className="masthead">
        <h1>Mockloop</h1>
        <p className="tagline">Practise AI-infrastructure interview loops the way AI labs run them.</p>
      </header>

      <main className="layout">
        <section className="card" aria-live="polite" data-testid="session">
          {session.state === "loading" && <p>Checking who is signed in…</p>}
          {session.state === "signed-in" && (
            <div className="who">
              <p>
                Signed in as <strong>{session.me.username}</strong>{" "}
                <span className={`role role-${session.me.role}`}>{session.me.role}</span>
              </p>
              <button type="button" className="secondary" onClick={signOut}>
                Sign out
              </button>
            </div>
          )}
          {session.state === "signed-out" && <LoginForm onSignedIn={refresh} />}
          {session.state === "unavailable" && (
            <div className="notice">
              <p>{describeError(session.error)}</p>
              <p>Mockloop is still being set up; sign-in appears here once the API is live.</p>
            </div>
          )}
        </section>

        <section className="card">
          <h2>The AI-lab infrastructure loop</h2>
          <ol className="stages">
            {STAGES.map((stage) => (
              <li key={stage}>{stage}</li>
            ))}
          </ol>
          <p className="links">
            <a href="/api/docs/">API docs</a> · <a href="/admin/">Admin</a>
          </p>
        </section>
      </main>
    </div>
  );
}
