// Complete logged events for unit tests: every key the server sends (events.gen.ts), with
// plain defaults, so a test states only what it is about.
import type {
  ChatEvent,
  DocUpdateEvent,
  FollowUpEvent,
  NoteEvent,
  StageStatusEvent,
  SubmissionStatusEvent,
  SubmissionStatusPayload,
  TimerEvent,
} from "./events.gen";

const T0 = "2026-01-01T00:00:00.000Z";

function envelope(seq: number, at = T0) {
  return { seq, at, actor: null, private: false as const };
}

export function chatEvent(seq: number, text = `m${seq}`, at?: string): ChatEvent {
  return { ...envelope(seq, at), type: "chat", text };
}

export function stageLiveEvent(seq: number, at = T0): StageStatusEvent {
  return {
    ...envelope(seq, at),
    type: "stage.status",
    status: "live",
    reason: "start",
    started_at: at,
    deadline: null,
    finished_at: null,
    coach_requested: false,
  };
}

export function timerEvent(seq: number): TimerEvent {
  return { ...envelope(seq), type: "timer", reason: "pause", status: "live", deadline: null, paused: true, remaining_ms: 60_000 };
}

export function docUpdateEvent(seq: number, doc: string, update: string, at?: string): DocUpdateEvent {
  return { ...envelope(seq, at), type: "doc.update", doc, update };
}

export function followUpEvent(
  seq: number,
  text: string,
  unlocks_part: number | null = null,
  translations: Record<string, string> = {},
): FollowUpEvent {
  return { ...envelope(seq), type: "follow_up", id: seq, text, translations, question: 1, unlocks_part };
}

export function noteEvent(seq: number, text: string): NoteEvent {
  return { ...envelope(seq), private: true, type: "note", id: seq, text };
}

export function submissionEvent(seq: number, fields: Partial<SubmissionStatusPayload> = {}): SubmissionStatusEvent {
  return {
    ...envelope(seq),
    type: "submission.status",
    id: 1,
    status: "queued",
    verdict: "",
    passed: 0,
    total: 0,
    question: 1,
    part: 1,
    mode: "submit",
    message: null,
    ...fields,
  };
}
