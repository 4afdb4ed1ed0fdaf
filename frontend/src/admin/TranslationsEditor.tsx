// A question's translations (its bank-file `i18n` block), edited beside the English: one
// language at a time, the English of each field on the left (read only), its translation
// on the right; saved with the question, the server's problems shown at their paths
// (`i18n.zh-Hans.parts.2.title`). Code, tests, identifiers and patterns are never
// translated, so only text fields appear.
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { i18next, LANGUAGE_NAMES } from "../i18n";
import { FieldError } from "./fields";
import { TRANSLATION_LANGUAGES, type QuestionDraft, type TranslationLanguage, type Translations, type TranslationTree } from "./model";


/** One translatable field: where it sits in a language's block, and its English. */
export interface TranslatableField {
  path: string[];
  english: string;
  /** The catalogue key of its label, and the values the label names. */
  label: string;
  values?: Record<string, number>;
  multiline: boolean;
}

function field(path: string[], english: string | undefined, label: string, values?: Record<string, number>, multiline = true): TranslatableField[] {
  return english && english.trim() ? [{ path, english, label, values, multiline }] : [];
}

/** Every text field of the question a translation may hold, in the editor's order. */
export function translatableFields(draft: QuestionDraft): TranslatableField[] {
  const fields: TranslatableField[] = [
    ...field(["title"], draft.title, "bankTranslations:field.title", undefined, false),
    ...field(["prompt"], draft.prompt, "bankTranslations:field.prompt"),
  ];
  (draft.coding?.parts ?? []).forEach((part, i) => {
    const n = i + 1;
    fields.push(...field(["parts", String(n), "title"], part.title, "bankTranslations:field.partTitle", { n }, false));
    fields.push(...field(["parts", String(n), "prompt"], part.prompt, "bankTranslations:field.partPrompt", { n }));
  });
  (draft.follow_ups ?? []).forEach((followUp, i) => {
    const n = i + 1;
    fields.push(...field(["follow_ups", String(n), "prompt"], followUp.prompt, "bankTranslations:field.followUpPrompt", { n }));
    fields.push(...field(["follow_ups", String(n), "model_answer"], followUp.coach_notes, "bankTranslations:field.modelAnswer", { n }));
    (followUp.key_points ?? []).forEach((point, j) => {
      fields.push(
        ...field(["follow_ups", String(n), "key_points", String(j + 1), "point"], point.point, "bankTranslations:field.followUpKeyPoint", { n, k: j + 1 }, false),
      );
    });
  });
  (draft.key_points ?? []).forEach((point, j) => {
    fields.push(...field(["key_points", String(j + 1), "point"], point.point, "bankTranslations:field.keyPoint", { k: j + 1 }, false));
  });
  (draft.review?.flaws ?? []).forEach((flaw, j) => {
    fields.push(...field(["flaws", String(j + 1), "explanation"], flaw.explanation, "bankTranslations:field.flaw", { k: j + 1 }));
  });
  (draft.review?.known_issues ?? []).forEach((issue, j) => {
    fields.push(...field(["known_issues", String(j + 1), "explanation"], issue.explanation, "bankTranslations:field.knownIssue", { k: j + 1 }));
  });
  return fields;
}

export function translationAt(translations: Translations | undefined, language: TranslationLanguage, path: string[]): string {
  let node: unknown = translations?.[language];
  for (const key of path) node = node && typeof node === "object" ? (node as TranslationTree)[key] : undefined;
  return typeof node === "string" ? node : "";
}

/** The block with one field set (a blank value removes it, and any mapping it empties). */
export function translationSet(translations: Translations | undefined, language: TranslationLanguage, path: string[], value: string): Translations {
  const next = structuredClone(translations ?? {}) as Translations;
  const set = (tree: TranslationTree, [key = "", ...rest]: string[]): TranslationTree => {
    if (!rest.length) {
      if (value.trim()) tree[key] = value;
      else delete tree[key];
      return tree;
    }
    const child = tree[key];
    const inner = set(child && typeof child === "object" && !Array.isArray(child) ? child : {}, rest);
    if (Object.keys(inner).length) tree[key] = inner;
    else delete tree[key];
    return tree;
  };
  const block = set(next[language] ?? {}, path);
  if (Object.keys(block).length) next[language] = block;
  else delete next[language];
  return next;
}

/** Translated fields whose English is gone (a removed part, cleared coach notes): the
 * server refuses them; the editor offers to drop them. */
export function orphanTranslations(fields: TranslatableField[], translations: Translations | undefined): [TranslationLanguage, string[]][] {
  const wanted = new Set(fields.map((f) => f.path.join(".")));
  const leaves = (tree: TranslationTree, prefix: string[]): string[][] =>
    Object.entries(tree).flatMap(([key, value]) =>
      value && typeof value === "object" && !Array.isArray(value) ? leaves(value, [...prefix, key]) : [[...prefix, key]],
    );
  const found: [TranslationLanguage, string[]][] = [];
  for (const language of TRANSLATION_LANGUAGES) {
    for (const path of leaves(translations?.[language] ?? {}, [])) if (!wanted.has(path.join("."))) found.push([language, path]);
  }
  return found;
}

/** "3 of 7 fields translated" for a language. */
export function translatedCount(fields: TranslatableField[], translations: Translations | undefined, language: TranslationLanguage): number {
  return fields.filter((f) => translationAt(translations, language, f.path).trim()).length;
}

/** The editor's tab label (the question editor names its tabs with plain strings). */
export function translationsTabLabel(draft: QuestionDraft): string {
  const languages = TRANSLATION_LANGUAGES.filter((language) => draft.i18n?.[language]).length;
  return i18next.t("bankTranslations:tab", { count: languages });
}

export function TranslationsEditor({
  draft,
  onChange,
  errors,
}: {
  draft: QuestionDraft;
  onChange: (translations: Translations | undefined) => void;
  errors: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<TranslationLanguage>("zh-Hans");
  const fields = translatableFields(draft);
  const done = translatedCount(fields, draft.i18n, language);
  const orphans = orphanTranslations(fields, draft.i18n);
  const dropOrphans = () => onChange(orphans.reduce<Translations | undefined>((next, [code, path]) => translationSet(next, code, path, ""), draft.i18n));
  return (
    <section className="card editor-section translations-editor" aria-labelledby="translations-title">
      <div className="section-head">
        <h2 id="translations-title">{t("bankTranslations:title")}</h2>
        <label className="translations-language">
          {t("bankTranslations:language")}{" "}
          <select value={language} onChange={(e) => setLanguage(e.target.value as TranslationLanguage)}>
            {TRANSLATION_LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="small muted">{t("bankTranslations:help")}</p>
      <p className="small" data-testid="translations-progress">
        {t("bankTranslations:progress", { done, total: fields.length })}
      </p>
      <FieldError errors={errors} path={`i18n.${language}`} />
      {orphans.length > 0 && (
        <p className="notice" data-testid="orphan-translations">
          {t("bankTranslations:orphans", { count: orphans.length })}{" "}
          <button type="button" className="link" onClick={dropOrphans}>
            {t("bankTranslations:dropOrphans")}
          </button>
        </p>
      )}
      <div className="translations-grid" role="table" aria-label={t("bankTranslations:tableLabel")}>
        <div className="translations-row translations-head" role="row">
          <span role="columnheader">{t("bankTranslations:english")}</span>
          <span role="columnheader">{LANGUAGE_NAMES[language]}</span>
        </div>
        {fields.map((f) => {
          const path = ["i18n", language, ...f.path].join(".");
          const label = t(f.label, f.values);
          const value = translationAt(draft.i18n, language, f.path);
          const Input = f.multiline ? "textarea" : "input";
          return (
            <div className="translations-row" role="row" key={path} data-path={path}>
              <div role="cell" className="translations-source">
                <span className="small muted">{label}</span>
                <div className={f.multiline ? "translations-english multiline" : "translations-english"} lang="en">
                  {f.english}
                </div>
              </div>
              <div role="cell">
                <label className="sr-only" htmlFor={path}>
                  {t("bankTranslations:inputLabel", { field: label, language: LANGUAGE_NAMES[language] })}
                </label>
                <Input
                  id={path}
                  lang={language}
                  value={value}
                  rows={f.multiline ? Math.min(12, Math.max(3, f.english.split("\n").length)) : undefined}
                  placeholder={t("bankTranslations:placeholder")}
                  onChange={(e) => onChange(translationSet(draft.i18n, language, f.path, e.target.value))}
                />
                <FieldError errors={errors} path={path} nested />
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
