// Labels and formats shared by many pages, in the interface's language (i18n/). Stage-kind
// labels come from the server's registry: lib/stageKinds.ts.
import { i18next } from "../i18n";
import { formatDateTime } from "../i18n/format";

/** 75_000 → "01:15"; an hour or more → "1:02:03" (digits read the same in every language). */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, "0");
  const ss = String(s).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function formatTime(iso: string | null | undefined): string {
  return formatDateTime(iso, { hour: "2-digit", minute: "2-digit" });
}

export function formatDate(iso: string | null | undefined): string {
  return formatDateTime(iso, { year: "numeric", month: "short", day: "numeric" });
}

const VERDICTS = new Set([
  "accepted",
  "wrong_answer",
  "time_limit",
  "memory_limit",
  "runtime_error",
  "compile_error",
  "output_limit",
  "internal_error",
]);

/** "wrong_answer" → "wrong answer" / "答案错误（wrong answer）"; an unknown one as words. */
export function verdictLabel(verdict: string | undefined | null): string {
  const v = verdict || "";
  return VERDICTS.has(v) ? i18next.t(`common:verdict.${v}`) : v.replace(/_/g, " ");
}

const RECOMMENDATIONS = ["strong_no", "no", "yes", "strong_yes"] as const;

/** strong_no … strong_yes → the label people read, in the language shown now (read at use). */
export const RECOMMENDATION_LABEL: Record<string, string> = Object.defineProperties(
  {},
  Object.fromEntries(
    RECOMMENDATIONS.map((key) => [key, { enumerable: true, get: () => i18next.t(`common:recommendation.${key}`) }]),
  ),
);

/** Stages this long ask before their clock starts: an hour or more is a real commitment. */
export const LONG_STAGE_MINUTES = 60;

/** The question asked before starting a long stage's clock; null for a short one. */
export function startClockQuestion(minutes: number): string | null {
  if (minutes < LONG_STAGE_MINUTES) return null;
  return i18next.t("candidate:startClockQuestion", { minutes });
}

/** When a bank follow-up fires, as a person would say it: "after 40 minutes",
 * "when the part passes" (not "after minutes 40 min"). */
export function followUpTrigger(trigger: string | null | undefined, afterMinutes?: number | null): string {
  switch (trigger) {
    case "manual":
      return i18next.t("rooms:followUpTrigger.manual");
    case "on_part_passed":
      return i18next.t("rooms:followUpTrigger.onPartPassed");
    case "after_minutes":
      return afterMinutes
        ? i18next.t("rooms:followUpTrigger.afterMinutes", { count: afterMinutes })
        : i18next.t("rooms:followUpTrigger.afterSomeMinutes");
    case "after_answer":
      return i18next.t("rooms:followUpTrigger.afterAnswer");
    default:
      return trigger ? trigger.replace(/_/g, " ") : "";
  }
}
