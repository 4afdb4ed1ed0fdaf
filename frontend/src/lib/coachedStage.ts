// Where a coached stage stands for its candidate (DESIGN.md "Live stages"): waiting in the
// coach queue (its clock waits; the candidate may continue solo), claimed by a coach (either
// side may start it), or no coach at all (an uncoached loop, a challenge, a solo round).
import { i18next } from "../i18n";

export type CoachState = "waiting" | "claimed" | "none";

export function coachState(stage: { coach_requested?: boolean; coach?: string | null }): CoachState {
  if (stage.coach) return "claimed";
  return stage.coach_requested ? "waiting" : "none";
}

/** Whether the stage's coach has a socket in the room. */
export function coachPresent(stage: { coach?: string | null }, presence: { user: string }[]): boolean {
  return Boolean(stage.coach) && presence.some((p) => p.user === stage.coach);
}

/** The button that takes a waiting stage out of the coach queue. */
export function soloLabel(): string {
  return i18next.t("candidate:soloLabel");
}
