import { type FormEvent, useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";

import { ApiError, api, describeError, fieldErrors } from "../api/client";
import { useSession } from "./session";

function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function AuthForm({ mode }: { mode: "login" | "signup" }) {
  const { session, refresh } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const ended = params.get("ended") === "1";
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState<string | null>(null);

  if (session.state === "signed-in") return <Navigate to={next} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === "login") await api.login(username, password);
      else {
        const created = await api.signup(username, password, email);
        if (!("token" in created)) {
          // This deployment confirms addresses first: sign in after opening the mail.
          setPending(created.detail);
          return;
        }
      }
      await refresh();
      navigate(next, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  const title = mode === "login" ? "Sign in" : "Create your account";
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="auth-title" noValidate>
        <h1 id="auth-title">{title}</h1>
        <p className="muted">
          {mode === "login"
            ? "Practise AI-infrastructure interview loops the way AI labs run them."
            : "Candidates sign up here; coaches are added by an admin."}
        </p>
        {ended && mode === "login" && (
          <p className="notice" role="status">
            You were signed out (signed out elsewhere, or your sign-in expired). Sign in again to continue.
          </p>
        )}
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            aria-invalid={Boolean(fields.username)}
            aria-describedby={fields.username ? "username-error" : undefined}
            required
            autoFocus
          />
        </label>
        {fields.username && (
          <p className="field-error" id="username-error">
            {fields.username}
          </p>
        )}
        {mode === "signup" && (
          <>
            <label>
              Email <span className="muted">(optional)</span>
              <input
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
            {fields.email && <p className="field-error">{fields.email}</p>}
          </>
        )}
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === "login" ? "current-password" : "new-password"}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={Boolean(fields.password)}
            required
          />
        </label>
        {fields.password && <p className="field-error">{fields.password}</p>}
        {mode === "login" && (
          <p className="muted small">
            <Link to="/forgot-password">Forgot your password?</Link>
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Please wait…" : mode === "login" ? "Sign in" : "Sign up"}
        </button>
        {pending && (
          <p className="notice" role="status">
            {pending}
          </p>
        )}
        {error !== null && (
          <p className="error" role="alert">
            {describeError(error)}
          </p>
        )}
        {error instanceof ApiError && error.code === "email_not_verified" && (
          <p className="muted small">
            Lost the mail? <Link to="/forgot-password">Reset your password</Link>: the link we mail for that confirms
            the address too.
          </p>
        )}
        <p className="muted small">
          {mode === "login" ? (
            <>
              New here? <Link to={`/signup${params.toString() ? `?${params}` : ""}`}>Create an account</Link>
            </>
          ) : (
            <>
              Have an account? <Link to="/login">Sign in</Link>
            </>
          )}
        </p>
      </form>
    </main>
  );
}

export const LoginPage = () => <AuthForm mode="login" />;
export const SignupPage = () => <AuthForm mode="signup" />;
