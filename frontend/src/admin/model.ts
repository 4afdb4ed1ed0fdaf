// The question dict the admin pages edit: the bank-file shape (DESIGN.md "Question bank
// file format"), as `GET /api/v1/questions/{id}/` returns it and PUT takes it back.
import type { BankFile, BankLoop, BankRubric, QuestionAdmin } from "../api/client";
import { i18next } from "../i18n";
import { formatNumber } from "../i18n/format";
import type { StageKinds } from "../lib/stageKinds";

export type QuestionKind = "coding" | "design" | "review" | "discussion";
export const QUESTION_KINDS: QuestionKind[] = ["coding", "design", "review", "discussion"];
export const LANGUAGES = ["python", "javascript", "cpp", "go"] as const;
export const LANGUAGE_LABEL: Record<string, string> = { python: "Python 3", javascript: "JavaScript", cpp: "C++17", go: "Go 1.19" };
export const TRIGGERS = ["manual", "on_part_passed", "after_minutes", "after_answer"] as const;
export const SEVERITIES = ["low", "medium", "high"] as const;
export const CHECKERS = ["exact", "tokens", "unordered-lines", "float:1e-6"];

export interface TestCase {
  input: string;
  output: string;
}
export interface PartDraft {
  title: string;
  prompt: string;
  samples: TestCase[];
  hidden: TestCase[];
}
export interface CodingDraft {
  languages: string[];
  io: "stdio" | "function";
  entrypoint?: string;
  time_limit_ms: number;
  memory_limit_mb: number;
  output_limit_mb?: number;
  checker: string;
  starter: Record<string, string>;
  reference: Record<string, string>;
  parts: PartDraft[];
}
/** A key point (bank file `key_points[i]`): patterns are regular expressions. */
export interface KeyPointDraft {
  point: string;
  patterns: { en?: string[]; zh?: string[] };
  dimension: string;
}
export interface FollowUpDraft {
  prompt: string;
  unlocks_part?: number;
  trigger: string;
  after_minutes?: number;
  coach_notes?: string;
  key_points?: KeyPointDraft[];
}
export interface FlawDraft {
  category: string;
  lines: [number, number];
  severity: string;
  explanation: string;
}
/** A real problem of the doc that is not a planted flaw: a comment on it scores neutral. */
export interface KnownIssueDraft {
  category: string;
  lines: [number, number];
  explanation: string;
}
export type ReviewDraft = { document: string; flaws: FlawDraft[]; known_issues?: KnownIssueDraft[] };
export const TRANSLATION_LANGUAGES = ["zh-Hans", "zh-Hant"] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];
export interface TranslationTree {
  [key: string]: string | string[] | TranslationTree | undefined;
}
/** The bank-file `i18n` block: `{language: {title, prompt, parts: {"1": {title, prompt}}, …}}`,
 * numbered from 1 (TranslationsEditor.tsx). */
export type Translations = Partial<Record<TranslationLanguage, TranslationTree>>;

export interface QuestionDraft {
  slug: string;
  kind: QuestionKind;
  status?: string;
  title: string;
  difficulty: string;
  tags: string[];
  prompt: string;
  coding?: CodingDraft;
  follow_ups?: FollowUpDraft[];
  review?: ReviewDraft;
  key_points?: KeyPointDraft[];
  rubric?: string;
  i18n?: Translations;
}

/** The question kinds whose answers key points are matched against. */
export const KEY_POINT_KINDS: QuestionKind[] = ["discussion", "design"];

/** Key points as saved: blank pattern lines dropped, an empty language or list left out. */
export function keyPointsBody(points: KeyPointDraft[] | undefined): KeyPointDraft[] | undefined {
  if (!points?.length) return undefined;
  return points.map((k) => {
    const patterns: KeyPointDraft["patterns"] = {};
    for (const language of ["en", "zh"] as const) {
      const kept = (k.patterns[language] ?? []).map((p) => p.trim()).filter(Boolean);
      if (kept.length) patterns[language] = kept;
    }
    return { point: k.point, patterns, dimension: k.dimension };
  });
}

export interface Verification {
  state?: "queued" | "running" | "passed" | "failed" | "unavailable";
  done?: number;
  total?: number;
  failures?: string[];
  checked_at?: string;
}

const READ_ONLY = new Set(["id", "version", "verified_at", "verification"]);

/** The editable dict of an admin question (identity and state left out). */
export function draftOf(question: QuestionAdmin): QuestionDraft {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(question)) if (!READ_ONLY.has(key)) out[key] = value;
  if (out.status === "published") delete out.status;
  return structuredClone(out) as unknown as QuestionDraft;
}

export function verificationOf(question: QuestionAdmin | undefined): Verification {
  const value = question?.verification;
  return value && typeof value === "object" ? (value as Verification) : {};
}

export function emptyPart(n: number): PartDraft {
  return { title: `Part ${n}`, prompt: "", samples: [{ input: "", output: "" }], hidden: [{ input: "", output: "" }] };
}

export function newQuestion(kind: QuestionKind): QuestionDraft {
  const base: QuestionDraft = {
    slug: "",
    kind,
    status: "draft",
    title: "",
    difficulty: "medium",
    tags: [],
    prompt: "",
  };
  if (kind === "coding") {
    base.coding = {
      languages: ["python"],
      io: "stdio",
      time_limit_ms: 2000,
      memory_limit_mb: 256,
      checker: "exact",
      starter: { python: "import sys\n\n\ndef main() -> None:\n    data = sys.stdin.read().split()\n\n\nmain()\n" },
      reference: { python: "" },
      parts: [emptyPart(1)],
    };
  }
  if (kind === "review") base.review = { document: "", flaws: [] };
  return base;
}

/** The body to PUT/POST: the draft, with empty optional blocks left out. */
export function bodyOf(draft: QuestionDraft): QuestionDraft {
  const body = structuredClone(draft);
  if (body.review?.known_issues && body.review.known_issues.length === 0) delete body.review.known_issues;
  if (body.follow_ups && body.follow_ups.length === 0) delete body.follow_ups;
  if (!body.rubric) delete body.rubric;
  if (body.i18n && !Object.keys(body.i18n).length) delete body.i18n;
  const points = keyPointsBody(body.key_points);
  if (points) body.key_points = points;
  else delete body.key_points;
  if (body.coding) {
    if (body.coding.io !== "function") delete body.coding.entrypoint;
    for (const key of ["starter", "reference"] as const) {
      const sources = body.coding[key];
      for (const language of Object.keys(sources)) {
        if (!body.coding.languages.includes(language) || !sources[language]) delete sources[language];
      }
    }
  }
  for (const f of body.follow_ups ?? []) {
    if (f.trigger !== "after_minutes") delete f.after_minutes;
    if (!f.unlocks_part) delete f.unlocks_part;
    if (!f.coach_notes) delete f.coach_notes;
    const followUpPoints = keyPointsBody(f.key_points);
    if (followUpPoints) f.key_points = followUpPoints;
    else delete f.key_points;
  }
  return body;
}

/** `python: parts[0].hidden[3] wrong_answer (detail)` (or `.samples[j]`) → its pieces, for the failure table. */
export interface VerificationFailure {
  language: string;
  part: number | null;
  test: number | null;
  tests: "sample" | "hidden" | null;
  verdict: string;
  detail: string;
  text: string;
}

export function parseFailure(text: string): VerificationFailure {
  const match = /^(\w+): parts\[(\d+)\]\.(hidden|samples)\[(\d+)\] (\w+)(?: \((.*)\))?$/s.exec(text);
  if (match) {
    return {
      language: match[1]!,
      part: Number(match[2]) + 1,
      tests: match[3] === "samples" ? "sample" : "hidden",
      test: Number(match[4]) + 1,
      verdict: match[5]!,
      detail: match[6] ?? "",
      text,
    };
  }
  const [language, ...rest] = text.split(":");
  const known = rest.length > 0 && /^\w+$/.test(language ?? "");
  return {
    language: known ? language! : "",
    part: null,
    test: null,
    tests: null,
    verdict: known ? (/^\w+/.exec(rest.join(":").trim())?.[0] ?? "") : "",
    detail: known ? rest.join(":").trim() : text,
    text,
  };
}

/** Messages of a 400 for one field path (`coding.parts[0].title`), and those under it. */
export function errorsAt(errors: Record<string, unknown>, path: string, nested = false): string[] {
  const out: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (key === path || (nested && (key.startsWith(`${path}.`) || key.startsWith(`${path}[`)))) {
      out.push(...([] as unknown[]).concat(messages).map(String));
    }
  }
  return out;
}

/** A bank file holding just one rubric / one loop template (what the editors import). */
export function rubricBank(rubric: BankRubric): BankFile {
  const clean: BankRubric = { slug: rubric.slug, dimensions: rubric.dimensions.map((d) => ({ ...d, weight: Number(d.weight) })) };
  if (rubric.title) clean.title = rubric.title;
  // The rubric's translations go back as they came: an edit here must not drop them.
  if (rubric.i18n && Object.keys(rubric.i18n).length) clean.i18n = rubric.i18n;
  return { rubrics: [clean] };
}

export function loopBank(loop: BankLoop): BankFile {
  const clean: BankLoop = {
    slug: loop.slug,
    title: loop.title,
    stages: loop.stages.map((s) => {
      const stage = { kind: s.kind, title: s.title, minutes: Number(s.minutes), questions: [...s.questions] } as BankLoop["stages"][number];
      if (s.rubric) stage.rubric = s.rubric;
      return stage;
    }),
  };
  if (loop.description) clean.description = loop.description;
  if (loop.status && loop.status !== "published") clean.status = loop.status;
  if (loop.i18n && Object.keys(loop.i18n).length) clean.i18n = loop.i18n;
  return { loops: [clean] };
}

/** Move item `from` to index `to` (drag to order). */
export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item!);
  return next;
}

/** The question kinds a stage kind takes, as the server's registry says and the bank
 * validates (null: not known here, so any). */
export function questionKindsFor(kinds: StageKinds | null, stageKind: string): readonly QuestionKind[] | null {
  return kinds?.get(stageKind)?.question_kinds ?? null;
}

/** "1,234 lines · 56.7 KB" for big test data. */
export function sizeLabel(text: string): string {
  const lines = text.split("\n").length;
  const kb = new Blob([text]).size / 1024;
  const size = formatNumber(kb >= 1024 ? kb / 1024 : kb, {
    style: "unit",
    unit: kb >= 1024 ? "megabyte" : "kilobyte",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return i18next.t("admin:tests.size", { lines, size });
}

/** The value at a bank-file path (`coding.parts[0].hidden[3].output`), or undefined. */
export function valueAt(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (value === null || typeof value !== "object") return undefined;
    value = index !== undefined ? (value as unknown[])[Number(index)] : (value as Record<string, unknown>)[key!];
  }
  return value;
}

/** The problems of the last save that still stand: a field the author has changed since
 * is no longer flagged (the next save checks it again). A path that is not a field
 * (`non_field_errors`, a whole list) stays until the next save. */
export function errorsStillStanding(errors: Record<string, unknown>, savedBody: unknown, body: unknown): Record<string, unknown> {
  const standing: Record<string, unknown> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const before = valueAt(savedBody, path);
    if (before !== undefined && JSON.stringify(before) !== JSON.stringify(valueAt(body, path))) continue;
    standing[path] = messages;
  }
  return standing;
}
