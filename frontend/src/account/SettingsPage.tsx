import { type FormEvent, useEffect, useState } from "react";
import { useNavigate } from "react-router";

import { type AccountLanguage, type AccountSettings, api, describeError, fieldErrors } from "../api/client";
import { useSession } from "../auth/session";
import { browserZone, zoneChoices } from "../scheduling/time";

export const LANGUAGES: { value: AccountLanguage; label: string }[] = [
  { value: "en", label: "English" },
  { value: "zh-Hans", label: "简体中文 (Simplified Chinese)" },
  { value: "zh-Hant", label: "繁體中文 (Traditional Chinese)" },
];

/** Email, time zone (blank: the browser's) and language. Saving refreshes the session, so
 * the scheduling pages show times in the new zone at once. */
function ProfileSection() {
  const { refresh } = useSession();
  const [form, setForm] = useState<AccountSettings | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api.accountSettings().then(setForm, setError);
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const { email, time_zone, language } = form;
      setForm(await api.accountSettingsUpdate({ email, time_zone, language }));
      setSaved(true);
      await refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  if (!form) {
    return error !== null ? (
      <p className="error" role="alert">
        {describeError(error)}
      </p>
    ) : (
      <p className="muted">Loading your settings…</p>
    );
  }
  const zones = zoneChoices(form.time_zone || browserZone());
  return (
    <form className="card settings-card" onSubmit={submit} aria-labelledby="profile-title" noValidate>
      <h2 id="profile-title">Profile</h2>
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          aria-invalid={Boolean(fields.email)}
        />
      </label>
      {fields.email && <p className="field-error">{fields.email}</p>}
      {form.email && form.email_verification !== "none" && (
        <p className="muted small" data-testid="email-status">
          {form.email_verified ? "Confirmed." : "Not confirmed yet: open the link we mailed to this address."}
        </p>
      )}
      <label>
        Time zone
        <select
          name="time_zone"
          value={form.time_zone}
          onChange={(e) => setForm({ ...form, time_zone: e.target.value })}
          aria-invalid={Boolean(fields.time_zone)}
        >
          <option value="">This browser&apos;s ({browserZone()})</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      {fields.time_zone && <p className="field-error">{fields.time_zone}</p>}
      <label>
        Language
        <select
          name="language"
          value={form.language}
          onChange={(e) => setForm({ ...form, language: e.target.value as AccountLanguage })}
          aria-invalid={Boolean(fields.language)}
        >
          {LANGUAGES.map((language) => (
            <option key={language.value} value={language.value}>
              {language.label}
            </option>
          ))}
        </select>
      </label>
      {fields.language && <p className="field-error">{fields.language}</p>}
      <p className="muted small">Mockloop is in English for now; your choice is kept for the translations to come.</p>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "Please wait…" : "Save settings"}
      </button>
      {saved && (
        <p className="notice" role="status">
          Settings saved.
        </p>
      )}
      {error !== null && Object.keys(fields).length === 0 && (
        <p className="error" role="alert">
          {describeError(error)}
        </p>
      )}
    </form>
  );
}

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

/** Download everything as JSON; delete the account (the password again, and a tick). */
function DataSection() {
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [sure, setSure] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.accountDelete(password);
      await refresh();
      navigate("/", { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  const fields = fieldErrors(error);
  return (
    <form className="card settings-card" onSubmit={submit} aria-labelledby="data-title" noValidate>
      <h2 id="data-title">Your data</h2>
      <p>
        <a className="button secondary" href="/api/v1/me/export/" download>
          Download my data (JSON)
        </a>
      </p>
      <p className="muted small">
        Deleting the account removes your loops, answers, code, recordings and bookings for good. Download your data
        first if you want to keep it.
      </p>
      <label>
        Your password, to confirm
        <input
          name="delete_password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={Boolean(fields.password)}
        />
      </label>
      {fields.password && <p className="field-error">{fields.password}</p>}
      <label className="checkbox">
        <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} /> Yes, delete my account and
        all its data
      </label>
      <button type="submit" className="danger" disabled={busy || !password || !sure}>
        {busy ? "Deleting…" : "Delete my account"}
      </button>
      {error !== null && !fields.password && (
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
      <ProfileSection />
      <PasswordSection />
      <DataSection />
    </main>
  );
}
