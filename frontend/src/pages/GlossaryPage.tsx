// The loop's terms in English as interviewers say them, with their Chinese names and a
// one-line definition in the reader's language (issue #18). Bank prompts link to a term
// on its first use: /glossary#kv-cache.
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

import { currentLanguage } from "../i18n";
import { glossaryTerms } from "../glossary/terms";

function useScrollToHash(): string {
  const { hash } = useLocation();
  const target = decodeURIComponent(hash.replace(/^#/, ""));
  useEffect(() => {
    // The page renders after the browser looked for the anchor, so find it ourselves.
    if (target) document.getElementById(target)?.scrollIntoView({ block: "start" });
  }, [target]);
  return target;
}

/** The term's Chinese names for an English reader: Simplified, then Traditional when it is
 * written differently. */
function ChineseNames({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const simplified = t(`glossary:terms.${slug}.term`, { lng: "zh-Hans" });
  const traditional = t(`glossary:terms.${slug}.term`, { lng: "zh-Hant" });
  return (
    <p className="muted small">
      {t("glossary:inChinese")} <span lang="zh-Hans">{simplified}</span>
      {traditional !== simplified && (
        <>
          {" · "}
          <span lang="zh-Hant">{traditional}</span>
        </>
      )}
    </p>
  );
}

export function GlossaryPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const target = useScrollToHash();
  const terms = glossaryTerms();
  const english = (key: string) => t(key, { lng: "en" });
  return (
    <main id="main" className="page narrow glossary">
      <h1>{t("glossary:title")}</h1>
      <p className="lead">{t("glossary:intro")}</p>
      <nav aria-label={t("glossary:contents")} className="glossary-contents">
        <p className="muted small">{t("glossary:count", { count: terms.length })}</p>
        <ul>
          {terms.map((slug) => (
            <li key={slug}>
              <a href={`#${slug}`} lang="en">
                {english(`glossary:terms.${slug}.term`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <dl className="glossary-terms">
        {terms.map((slug) => {
          const term = english(`glossary:terms.${slug}.term`);
          return (
            <div key={slug} id={slug} className={`glossary-term${slug === target ? " targeted" : ""}`}>
              <dt>
                <a href={`#${slug}`} lang="en" aria-label={t("glossary:link", { term })}>
                  {term}
                </a>
                {language !== "en" && <span className="glossary-name">{t(`glossary:terms.${slug}.term`)}</span>}
              </dt>
              <dd>
                <p>{t(`glossary:terms.${slug}.definition`)}</p>
                {language === "en" ? (
                  <ChineseNames slug={slug} />
                ) : (
                  <p className="muted small">
                    {t("glossary:inEnglish")} <span lang="en">{english(`glossary:terms.${slug}.definition`)}</span>
                  </p>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </main>
  );
}
