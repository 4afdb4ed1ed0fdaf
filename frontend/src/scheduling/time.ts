// Times on the scheduling pages: the server speaks UTC; people read their own zone, named,
// in the interface's language.
import { currentLanguage, i18next } from "../i18n";

/** The browser's IANA zone, e.g. "Europe/Paris". */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every IANA zone the browser knows, the given one first if it is missing. */
export function zoneChoices(current: string): string[] {
  const zones: string[] =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = zones.includes("UTC") ? zones : [...zones, "UTC"];
  return all.includes(current) ? all : [current, ...all];
}

/** "Tue, Jan 15, 9:00 AM EST": a UTC instant in `zone` (the browser's by default), with
 * the zone's short name so nobody guesses which clock it is. */
export function formatSessionTime(iso: string, zone?: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale ?? currentLanguage(), {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: zone,
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** A session is near (the room link shows) from this long before it starts until it ends. */
export const JOIN_EARLY_MS = 15 * 60_000;

export function isNear(startsAt: string, endsAt: string, now: number): boolean {
  return now >= Date.parse(startsAt) - JOIN_EARLY_MS && now < Date.parse(endsAt);
}

/** "in 3 h", "in 12 min", "now": how far off a session is. */
export function untilLabel(startsAt: string, now: number): string {
  const minutes = Math.round((Date.parse(startsAt) - now) / 60_000);
  if (minutes <= 0) return i18next.t("scheduling:until.now");
  if (minutes < 60) return i18next.t("scheduling:until.minutes", { n: minutes });
  if (minutes < 48 * 60) return i18next.t("scheduling:until.hours", { n: Math.round(minutes / 60) });
  return i18next.t("scheduling:until.days", { n: Math.round(minutes / 1440) });
}
