import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { type AccountLanguage, type AccountSettings, api, describeError, fieldErrors } from "../api/client";
import { useSession } from "../auth/session";
import { LANGUAGE_NAMES, LANGUAGES, matchLanguage, setLanguage } from "../i18n";
import { browserZone, zoneChoices } from "../scheduling/time";

/** Email, time zone (blank: the browser's) and language. Saving refreshes the session, so
 * the scheduling pages show times in the new zone at once, and switches the interface to
 * the saved language (other devices take it from the session when they load). */
function ProfileSection() {
  const { t } = useTranslation();
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
      const next = await api.accountSettingsUpdate({ email, time_zone, language });
      setForm(next);
      setSaved(true);
      const chosen = matchLanguage(next.language);
      if (chosen) await setLanguage(chosen);
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
      <p className="muted">{t("account:loading")}</p>
    );
  }
  const zones = zoneChoices(form.time_zone || browserZone());
  return (
    <form className="card settings-card" onSubmit={submit} aria-labelledby="profile-title" noValidate>
      <h2 id="profile-title">{t("account:profile.title")}</h2>
      <label>
        {t("account:profile.email")}
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
          {form.email_verified ? t("account:profile.confirmed") : t("account:profile.notConfirmed")}
        </p>
      )}
      <label>
        {t("account:profile.timeZone")}
        <select
          name="time_zone"
          value={form.time_zone}
          onChange={(e) => setForm({ ...form, time_zone: e.target.value })}
          aria-invalid={Boolean(fields.time_zone)}
        >
          <option value="">{t("account:profile.browserZone", { zone: browserZone() })}</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      {fields.time_zone && <p className="field-error">{fields.time_zone}</p>}
      <label>
        {t("account:profile.language")}
        <select
          name="language"
          value={form.language}
          onChange={(e) => setForm({ ...form, language: e.target.value as AccountLanguage })}
          aria-invalid={Boolean(fields.language)}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </label>
      {fields.language && <p className="field-error">{fields.language}</p>}
      <p className="muted small">{t("account:profile.languageNote")}</p>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t("common:pleaseWait") : t("account:profile.save")}
      </button>
      {saved && (
        <p className="notice" role="status">
          {t("account:profile.saved")}
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
  const { t } = useTranslation();
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
      <h2 id="password-title">{t("account:password.title")}</h2>
      <label>
        {t("account:password.current")}
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
        {t("account:password.new")}
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
      <p className="muted small">{t("account:password.note")}</p>
      <button type="submit" className="primary" disabled={busy || !current || !next}>
        {busy ? t("common:pleaseWait") : t("account:password.submit")}
      </button>
      {saved && (
        <p className="notice" role="status">
          {t("account:password.changed")}
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
  const { t } = useTranslation();
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
      <h2 id="data-title">{t("account:data.title")}</h2>
      <p>
        <a className="button secondary" href="/api/v1/me/export/" download>
          {t("account:data.download")}
        </a>
      </p>
      <p className="muted small">
        {t("account:data.warning")}
      </p>
      <label>
        {t("account:data.confirmPassword")}
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
        <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} />{" "}
        {t("account:data.sure")}
      </label>
      <button type="submit" className="danger" disabled={busy || !password || !sure}>
        {busy ? t("account:data.deleting") : t("account:data.delete")}
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
  const { t } = useTranslation();
  return (
    <main id="main" className="page settings-page">
      <h1>{t("account:title")}</h1>
      <ProfileSection />
      <PasswordSection />
      <DataSection />
    </main>
  );
}
