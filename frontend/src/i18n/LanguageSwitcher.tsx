// The language menu of the top bar and the settings page: switches at once, remembered
// on this device, and saved to the account so every device of a signed-in user follows.
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api } from "../api/client";
import { useSession } from "../auth/session";
import { currentLanguage, LANGUAGE_NAMES, LANGUAGES, setLanguage, type UiLanguage } from "./index";

export function LanguageSwitcher({ className = "language-switcher" }: { className?: string }) {
  const { t } = useTranslation();
  const { session, refresh } = useSession();
  const [error, setError] = useState<string | null>(null);

  async function choose(language: UiLanguage) {
    setError(null);
    await setLanguage(language);
    if (session.state !== "signed-in") return;
    try {
      await api.accountSettingsUpdate({ language });
      await refresh();
    } catch (failure) {
      setError(t("common:language.saveFailed", { error: String((failure as Error).message ?? failure) }));
    }
  }

  return (
    <span className={className}>
      <select
        aria-label={t("common:language.label")}
        value={currentLanguage()}
        onChange={(event) => void choose(event.target.value as UiLanguage)}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="error small">
          {error}
        </span>
      )}
    </span>
  );
}
