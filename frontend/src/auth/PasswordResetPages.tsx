import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";

import { api, describeError, fieldErrors } from "../api/client";

/** Ask for a reset link. The server answers the same whether or not the address has an
 * account, so the page does too. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSent((await api.passwordResetRequest(email)).detail);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="forgot-title" noValidate>
        <h1 id="forgot-title">{t("auth:forgot.title")}</h1>
        <p className="muted">{t("auth:forgot.lead")}</p>
        <label>
          {t("auth:email")}
          <input
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={Boolean(fields.email)}
            required
            autoFocus
          />
        </label>
        {fields.email && <p className="field-error">{fields.email}</p>}
        <button type="submit" className="primary" disabled={busy || !email}>
          {busy ? t("common:pleaseWait") : t("auth:forgot.submit")}
        </button>
        {sent && (
          <p className="notice" role="status">
            {sent}
          </p>
        )}
        {error !== null && !fields.email && (
          <p className="error" role="alert">
            {describeError(error)}
          </p>
        )}
        <p className="muted small">
          {t("auth:forgot.remembered")} <Link to="/login">{t("auth:signIn")}</Link>
        </p>
      </form>
    </main>
  );
}

/** The page the mailed link opens (`?uid=…&token=…`): choose the new password, then sign in
 * with it (every other sign-in of the account has ended). */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const uid = params.get("uid") ?? "";
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.passwordResetConfirm(uid, token, password);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="reset-title" noValidate>
        <h1 id="reset-title">{t("auth:reset.title")}</h1>
        {done ? (
          <p className="notice" role="status">
            {t("auth:reset.done")} <Link to="/login">{t("auth:reset.doneSignIn")}</Link>
          </p>
        ) : (
          <>
            <label>
              {t("auth:newPassword")}
              <input
                name="new_password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={Boolean(fields.new_password)}
                required
                autoFocus
              />
            </label>
            {fields.new_password && <p className="field-error">{fields.new_password}</p>}
            <button type="submit" className="primary" disabled={busy || !password || !uid || !token}>
              {busy ? t("common:pleaseWait") : t("auth:reset.submit")}
            </button>
            {error !== null && !fields.new_password && (
              <p className="error" role="alert">
                {describeError(error)} <Link to="/forgot-password">{t("auth:reset.newLink")}</Link>
              </p>
            )}
          </>
        )}
      </form>
    </main>
  );
}

/** The page the confirmation mail links to: it confirms on opening (the link is the proof). */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<"checking" | "done" | { error: unknown }>("checking");

  useEffect(() => {
    api.verifyEmail(token).then(
      () => setState("done"),
      (error: unknown) => setState({ error }),
    );
  }, [token]);

  return (
    <main className="auth-page">
      <section className="card auth-card" aria-labelledby="verify-title">
        <h1 id="verify-title">{t("auth:verify.title")}</h1>
        {state === "checking" && <p className="muted">{t("auth:verify.checking")}</p>}
        {state === "done" && (
          <p className="notice" role="status">
            {t("auth:verify.done")} <Link to="/">{t("auth:verify.continue")}</Link>
          </p>
        )}
        {typeof state === "object" && (
          <p className="error" role="alert">
            {describeError(state.error)}
          </p>
        )}
      </section>
    </main>
  );
}
