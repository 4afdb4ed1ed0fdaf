// Stage-kind labels come from the server's registry: lib/stageKinds.ts.

/** 75_000 → "01:15"; an hour or more → "1:02:03". */
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
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleDateString([], { year: "numeric", month: "short", day: "numeric" });
}

export function verdictLabel(verdict: string | undefined | null): string {
  return (verdict || "").replace(/_/g, " ");
}

export const RECOMMENDATION_LABEL: Record<string, string> = {
  strong_no: "Strong no",
  no: "No",
  yes: "Yes",
  strong_yes: "Strong yes",
};

/** 1 → "1 stage", 3 → "3 stages": counts as a person says them. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Stages this long ask before their clock starts: an hour or more is a real commitment. */
export const LONG_STAGE_MINUTES = 60;

/** The question asked before starting a long stage's clock; null for a short one. */
export function startClockQuestion(minutes: number): string | null {
  if (minutes < LONG_STAGE_MINUTES) return null;
  return `Start the ${minutes}-minute clock? It runs on the server until the stage is done, even if you close the page.`;
}

/** When a bank follow-up fires, as a person would say it: "after 40 minutes",
 * "when the part passes" (not "after minutes 40 min"). */
export function followUpTrigger(trigger: string | null | undefined, afterMinutes?: number | null): string {
  switch (trigger) {
    case "manual":
      return "pushed by the coach";
    case "on_part_passed":
      return "when the part's hidden tests pass";
    case "after_minutes":
      return afterMinutes ? `after ${plural(afterMinutes, "minute")}` : "after some minutes";
    case "after_answer":
      return "once the candidate has answered";
    default:
      return trigger ? trigger.replace(/_/g, " ") : "";
  }
}
