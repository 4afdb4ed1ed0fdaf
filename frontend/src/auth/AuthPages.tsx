import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";

import { ApiError, api, describeError, fieldErrors } from "../api/client";
import { useSession } from "./session";

function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function AuthForm({ mode }: { mode: "login" | "signup" }) {
  const { t } = useTranslation();
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
  const title = mode === "login" ? t("auth:login.title") : t("auth:signup.title");
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="auth-title" noValidate>
        <h1 id="auth-title">{title}</h1>
        <p className="muted">
          {mode === "login" ? t("auth:login.lead") : t("auth:signup.lead")}
        </p>
        {ended && mode === "login" && (
          <p className="notice" role="status">
            {t("auth:login.ended")}
          </p>
        )}
        <label>
          {t("auth:username")}
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
              {t("auth:email")} <span className="muted">{t("auth:optional")}</span>
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
          {t("auth:password")}
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
            <Link to="/forgot-password">{t("auth:login.forgot")}</Link>
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t("common:pleaseWait") : mode === "login" ? t("auth:signIn") : t("auth:signUp")}
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
            {t("auth:login.lostMail")} <Link to="/forgot-password">{t("auth:login.resetLink")}</Link> —{" "}
            {t("auth:login.resetWhy")}
          </p>
        )}
        <p className="muted small">
          {mode === "login" ? (
            <>
              {t("auth:login.newHere")}{" "}
              <Link to={`/signup${params.toString() ? `?${params}` : ""}`}>{t("auth:createAccount")}</Link>
            </>
          ) : (
            <>
              {t("auth:signup.haveAccount")} <Link to="/login">{t("auth:signIn")}</Link>
            </>
          )}
        </p>
      </form>
    </main>
  );
}

export const LoginPage = () => <AuthForm mode="login" />;
export const SignupPage = () => <AuthForm mode="signup" />;
