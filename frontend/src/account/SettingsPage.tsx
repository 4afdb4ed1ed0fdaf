import { type FormEvent, useState } from "react";

import { api, describeError, fieldErrors } from "../api/client";

/** Change the password: the current one is asked for again, and every other sign-in of
 * the account ends (this one stays). */
function PasswordSection() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await api.passwordChange(current, next);
      setSaved(true);
      setCurrent("");
      setNext("");
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  return (
    <form className="card settings-card" onSubmit={submit} aria-labelledby="password-title" noValidate>
      <h2 id="password-title">Password</h2>
      <label>
        Current password
        <input
          name="current_password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          aria-invalid={Boolean(fields.current_password)}
          required
        />
      </label>
      {fields.current_password && <p className="field-error">{fields.current_password}</p>}
      <label>
        New password
        <input
          name="new_password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          aria-invalid={Boolean(fields.new_password)}
          required
        />
      </label>
      {fields.new_password && <p className="field-error">{fields.new_password}</p>}
      <p className="muted small">Changing it signs you out everywhere else.</p>
      <button type="submit" className="primary" disabled={busy || !current || !next}>
        {busy ? "Please wait…" : "Change password"}
      </button>
      {saved && (
        <p className="notice" role="status">
          Password changed. Your other sign-ins have ended.
        </p>
      )}
      {error !== null && !fields.current_password && !fields.new_password && (
        <p className="error" role="alert">
          {describeError(error)}
        </p>
      )}
    </form>
  );
}

export function SettingsPage() {
  return (
    <main id="main" className="page settings-page">
      <h1>Account settings</h1>
      <PasswordSection />
    </main>
  );
}
