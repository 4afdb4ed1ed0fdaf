// The catalogues are complete: every language has every key, every message parses as ICU,
// every key the code names exists, Chinese catalogues are really translated, and no
// component shows literal text outside the catalogues (issue #18, "Must show").
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { IntlMessageFormat } from "intl-messageformat";
import ts from "typescript";
import { describe, expect, it } from "vitest";

import { CATALOGUES, LANGUAGES, NAMESPACES } from "./index";
import { PENDING_FILES, SAME_IN_EVERY_LANGUAGE, UNTRANSLATED_TEXT } from "./untranslated";

const SRC = join(__dirname, "..");

function flatten(tree: unknown, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") Object.assign(out, flatten(value, path));
    else out[path] = String(value);
  }
  return out;
}

/** {language: {"ns:key": message}} */
const flat = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    Object.fromEntries(
      NAMESPACES.flatMap((namespace) =>
        Object.entries(flatten(CATALOGUES[language]?.[namespace] ?? {})).map(([key, message]) => [`${namespace}:${key}`, message]),
      ),
    ),
  ]),
) as Record<(typeof LANGUAGES)[number], Record<string, string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

describe("catalogues", () => {
  it("every language has the same namespaces and keys", () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(CATALOGUES[language] ?? {}).sort(), language).toEqual([...NAMESPACES].sort());
      const missing = Object.keys(flat.en).filter((key) => !(key in flat[language]));
      const extra = Object.keys(flat[language]).filter((key) => !(key in flat.en));
      expect({ language, missing, extra }).toEqual({ language, missing: [], extra: [] });
    }
  });

  it("every message is valid ICU in its language", () => {
    for (const language of LANGUAGES) {
      for (const [key, message] of Object.entries(flat[language])) {
        expect(() => new IntlMessageFormat(message, language), `${language} ${key}`).not.toThrow();
      }
    }
  });

  it("the Chinese catalogues are translated, not copied", () => {
    for (const language of ["zh-Hans", "zh-Hant"] as const) {
      const copied = Object.entries(flat[language])
        .filter(([key, message]) => message === flat.en[key] && /\p{L}{2,}/u.test(message))
        .filter(([key]) => !SAME_IN_EVERY_LANGUAGE.has(key))
        .map(([key]) => key);
      expect({ language, copied }).toEqual({ language, copied: [] });
    }
  });

  it("every key the code names exists, written in full as ns:key", () => {
    const unknown: string[] = [];
    const unqualified: string[] = [];
    const call = /\b(?:t|i18next\.t)\(\s*["']([^"']+)["']|i18nKey=["']([^"']+)["']/g;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(call)) {
        const key = match[1] ?? match[2] ?? "";
        if (!key.includes(":")) unqualified.push(`${relative(SRC, file)}: ${key}`);
        else if (!(key in flat.en) && !Object.keys(flat.en).some((k) => k.startsWith(`${key}_`))) {
          unknown.push(`${relative(SRC, file)}: ${key}`);
        }
      }
    }
    expect({ unknown, unqualified }).toEqual({ unknown: [], unqualified: [] });
  });
});

/** Attributes a person reads (or hears from a screen reader). */
const READ_ATTRIBUTES = new Set(["title", "placeholder", "alt", "aria-label", "aria-description", "label"]);

function literalTexts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const isWords = (text: string) => /\p{L}{2,}/u.test(text) && !UNTRANSLATED_TEXT.has(text.trim());
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.getText().replace(/\s+/g, " ").trim();
      if (isWords(text)) found.push(text);
    } else if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText())) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value) && isWords(value.text)) found.push(`${node.name.getText()}="${value.text}"`);
    } else if (ts.isJsxExpression(node) && node.expression && ts.isStringLiteral(node.expression)) {
      if (node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) && isWords(node.expression.text)) {
        found.push(node.expression.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("components", () => {
  const files = sourceFiles(SRC).filter((file) => file.endsWith(".tsx"));

  it("show no literal text outside the catalogues", () => {
    const offenders = files
      .map((file) => relative(SRC, file))
      .filter((file) => !PENDING_FILES.has(file))
      .map((file) => ({ file, texts: literalTexts(join(SRC, file)) }))
      .filter(({ texts }) => texts.length > 0);
    expect(offenders).toEqual([]);
  });

  it("the list of files still to translate names only files that still need it", () => {
    const stale = [...PENDING_FILES].filter((file) => {
      try {
        return literalTexts(join(SRC, file)).length === 0;
      } catch {
        return true;
      }
    });
    expect(stale).toEqual([]);
  });
});
