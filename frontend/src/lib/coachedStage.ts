// Where a coached stage stands for its candidate (DESIGN.md "Live stages"): waiting in the
// coach queue (its clock waits; the candidate may continue solo), claimed by a coach (either
// side may start it), or no coach at all (an uncoached loop, a challenge, a solo round).

export type CoachState = "waiting" | "claimed" | "none";

export function coachState(stage: { coach_requested?: boolean; coach?: string | null }): CoachState {
  if (stage.coach) return "claimed";
  return stage.coach_requested ? "waiting" : "none";
}

/** Whether the stage's coach has a socket in the room. */
export function coachPresent(stage: { coach?: string | null }, presence: { user: string }[]): boolean {
  return Boolean(stage.coach) && presence.some((p) => p.user === stage.coach);
}

export const SOLO_LABEL = "Continue solo (the scripted interviewer takes over)";
