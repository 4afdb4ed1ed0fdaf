// "Practise in English, review in Chinese" (issue #18): the feedback of a finished stage —
// its scorecard, key points and model answers — can be read in another language than the
// interface's. The choice re-fetches those with `?lang=`; the rest of the page stays put.
// Bank text the server has no translation for comes back in English and says so
// (`language` on the object), which `UntranslatedNote` shows.
import { useTranslation } from "react-i18next";

import { textLanguage } from "../api/client";
import { LANGUAGE_NAMES, LANGUAGES, matchLanguage, type UiLanguage } from "../i18n";

export function FeedbackLanguageToggle({
  value,
  onChange,
}: {
  value: UiLanguage;
  onChange: (language: UiLanguage) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="feedback-language" role="group" aria-labelledby="feedback-language-label" data-testid="feedback-language">
      <span id="feedback-language-label" className="small muted">
        {t("candidate:feedbackLanguage.label")}
      </span>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className={`secondary small ${language === value ? "active" : ""}`}
          aria-pressed={language === value}
          onClick={() => onChange(language)}
        >
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </div>
  );
}

/** "Not translated yet — shown in English" for bank objects whose text is not in `wanted`;
 * nothing while the server does not say which language an object is in. */
export function UntranslatedNote({ objects, wanted }: { objects: readonly object[]; wanted: UiLanguage }) {
  const { t } = useTranslation();
  const shown = objects.map(textLanguage).find((language) => language && language !== wanted);
  if (!shown) return null;
  const code = matchLanguage(shown);
  const name = code ? LANGUAGE_NAMES[code] : shown;
  return (
    <p className="small muted untranslated-note" data-testid="untranslated-note">
      {t("candidate:feedbackLanguage.untranslated", { code: code ?? shown, name })}
    </p>
  );
}
