// Dates, times, durations and numbers in the interface's language (Intl), so no page
// builds "3 minutes" or "Dec 1" by hand.
import { currentLanguage } from "./index";

function locale(): string {
  return currentLanguage();
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale(), options).format(value);
}

/** 0.42 → "42%". */
export function formatPercent(fraction: number): string {
  return formatNumber(fraction, { style: "percent", maximumFractionDigits: 0 });
}

export function formatDateTime(
  iso: string | Date | null | undefined,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" },
): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), options).format(typeof iso === "string" ? new Date(iso) : iso);
}

/** A span as words: 90 s → "1 min, 30 sec" / "1分钟30秒" (Intl.DurationFormat where the
 * browser has it, else the largest two units through Intl.NumberFormat's unit style). */
export function formatDuration(ms: number, style: "long" | "short" | "narrow" = "short"): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const parts = { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
  const DurationFormat = (Intl as unknown as { DurationFormat?: new (l: string, o: object) => { format(d: object): string } })
    .DurationFormat;
  if (DurationFormat) {
    const shown = Object.fromEntries(Object.entries(parts).filter(([, v]) => v > 0));
    return new DurationFormat(locale(), { style }).format(Object.keys(shown).length ? shown : { seconds: 0 });
  }
  const unit = { hours: "hour", minutes: "minute", seconds: "second" } as const;
  const words = (Object.keys(parts) as (keyof typeof parts)[])
    .filter((key) => parts[key] > 0)
    .slice(0, 2)
    .map((key) => formatNumber(parts[key], { style: "unit", unit: unit[key], unitDisplay: style }));
  return words.length ? new Intl.ListFormat(locale(), { style: "narrow", type: "unit" }).format(words) : formatNumber(0, { style: "unit", unit: "second", unitDisplay: style });
}

/** "in 5 minutes", "3 days ago". */
export function formatRelative(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return new Intl.RelativeTimeFormat(locale(), { numeric: "auto" }).format(value, unit);
}

/** ["ada", "grace"] → "ada and grace" / "ada和grace": names listed as the language lists them. */
export function formatList(items: readonly string[], type: "conjunction" | "disjunction" = "conjunction"): string {
  return new Intl.ListFormat(locale(), { style: "long", type }).format(items);
}
