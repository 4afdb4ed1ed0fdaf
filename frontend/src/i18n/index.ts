// The interface's languages (DESIGN.md "Languages"): i18next with ICU messages, every
// catalogue bundled (a few kB each), one namespace per area of the app in
// locales/<language>/<namespace>.json. Keys are always written in full, "ns:key", so
// catalogues.test.ts can check each one the code uses exists in every language.
import i18next from "i18next";
import ICU from "i18next-icu";
import { initReactI18next } from "react-i18next";

export const LANGUAGES = ["en", "zh-Hans", "zh-Hant"] as const;
export type UiLanguage = (typeof LANGUAGES)[number];

/** Each language named in itself: what the switcher lists. */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = {
  en: "English",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
};

const STORAGE_KEY = "mockloop.language";

type Catalogue = Record<string, unknown>;
const modules = import.meta.glob<{ default: Catalogue }>("./locales/*/*.json", { eager: true });

/** {language: {namespace: messages}} from the files under locales/. */
export const CATALOGUES: Record<string, Record<string, Catalogue>> = {};
for (const [path, module] of Object.entries(modules)) {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language = "", namespace = ""] = match;
  (CATALOGUES[language] ??= {})[namespace] = module.default;
}
export const NAMESPACES = Object.keys(CATALOGUES.en ?? {});

/** A BCP 47 tag as browsers and Accept-Language write it → one of ours, or null.
 * Traditional for Taiwan, Hong Kong and Macau; Simplified for every other Chinese. */
export function matchLanguage(tag: string | null | undefined): UiLanguage | null {
  if (!tag) return null;
  const lower = tag.toLowerCase();
  if (lower === "en" || lower.startsWith("en-")) return "en";
  if (lower === "zh" || lower.startsWith("zh-") || lower.startsWith("zh_")) {
    return /hant|-tw|-hk|-mo|_tw|_hk|_mo/.test(lower) ? "zh-Hant" : "zh-Hans";
  }
  return null;
}

function storedLanguage(): UiLanguage | null {
  try {
    return matchLanguage(globalThis.localStorage?.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

/** Before the session loads: the last choice on this device, else the browser's languages. */
export function initialLanguage(): UiLanguage {
  const stored = storedLanguage();
  if (stored) return stored;
  const browser = globalThis.navigator?.languages ?? [globalThis.navigator?.language];
  for (const tag of browser) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return "en";
}

void i18next
  .use(ICU)
  .use(initReactI18next)
  .init({
    resources: CATALOGUES,
    lng: initialLanguage(),
    fallbackLng: "en",
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: "common",
    // React escapes; ICU does the plurals and selects.
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
    initAsync: false,
  });
if (typeof document !== "undefined") document.documentElement.lang = i18next.language;

/** The language the interface shows now (also sent to the API as Accept-Language). */
export function currentLanguage(): UiLanguage {
  return matchLanguage(i18next.language) ?? "en";
}

/** Switch the whole interface; remembered on this device (the account keeps it too when
 * the caller saves it: LanguageSwitcher). */
export async function setLanguage(language: UiLanguage): Promise<void> {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  if (typeof document !== "undefined") document.documentElement.lang = language;
  if (i18next.language !== language) await i18next.changeLanguage(language);
}

export { i18next };
