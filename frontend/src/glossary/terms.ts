// The glossary's terms are the keys of its catalogue: adding a term is one entry per
// language in locales/<language>/glossary.json (catalogues.test.ts checks all three).
import { CATALOGUES } from "../i18n";

/** Term slugs (the page's anchors), in the English terms' alphabetical order. */
export function glossaryTerms(): string[] {
  const terms = (CATALOGUES.en?.glossary?.terms ?? {}) as Record<string, { term: string }>;
  return Object.keys(terms).sort((a, b) =>
    (terms[a]?.term ?? a).localeCompare(terms[b]?.term ?? b, "en", { sensitivity: "base" }),
  );
}
