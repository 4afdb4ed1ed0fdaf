// Replay of a stage from its event log: a timeline (idle gaps shortened so a 60-minute
// round with long pauses still plays in reasonable time) and the shared documents rebuilt
// by applying the `doc.update` Yjs updates in order to fresh Y.Docs up to a position.
//
// Two clocks: replay time `t` (what the scrubber and playback move along, gaps capped) and
// real time — the offset from the stage's start, which is what every label shows ("at
// 23:10"). A shortened gap plays in at most IDLE_CAP_MS while the real clock jumps across
// it, and the scrubber marks it ("⋯ 6 min idle") so the shortening is visible.
import * as Y from "yjs";

import { i18next } from "../i18n";
import type { LoggedEvent, LoggedEventType } from "../ws/events.gen";
import { fromBase64 } from "../ws/sharedDocs";

/** Gaps between events longer than this play as this long. */
export const IDLE_CAP_MS = 4000;
/** Shortened gaps at least this long are marked on the scrubber. */
export const IDLE_MARK_MS = 60_000;
/** Document states are snapshotted every this many updates, so seeking back is cheap. */
const CHECKPOINT_EVERY = 400;

export interface TimelineEvent {
  index: number;
  seq: number;
  type: LoggedEventType;
  /** Replay time (ms from the first event, idle gaps capped). */
  t: number;
  /** Wall-clock time of the event. */
  at: number;
  /** Real time: ms from the stage's start (negative before the clock started). */
  real: number;
  event: LoggedEvent;
}

/** An idle stretch the replay plays shortened: from replay time `t` (for `playedMs`), `ms`
 * of real time with nothing happening. */
export interface IdleGap {
  t: number;
  playedMs: number;
  ms: number;
}

export interface Timeline {
  events: TimelineEvent[];
  duration: number;
  /** Real time at the end (ms from the stage's start). */
  realDuration: number;
  gaps: IdleGap[];
}

/** `startedAt`: the stage's start (its clock); the first event's time when unknown. */
export function buildTimeline(events: LoggedEvent[], idleCapMs = IDLE_CAP_MS, startedAt?: string | null): Timeline {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  const out: TimelineEvent[] = [];
  const gaps: IdleGap[] = [];
  let t = 0;
  let previous: number | null = null;
  sorted.forEach((event, index) => {
    const parsed = Date.parse(event.at);
    const at = Number.isFinite(parsed) ? parsed : (previous ?? 0);
    if (previous !== null) {
      const gap = Math.max(0, at - previous);
      const played = Math.min(gap, idleCapMs);
      if (gap >= IDLE_MARK_MS) gaps.push({ t, playedMs: played, ms: gap });
      t += played;
    }
    previous = at;
    out.push({ index, seq: event.seq, type: event.type, t, at, real: 0, event });
  });
  const start = startedAt && Number.isFinite(Date.parse(startedAt)) ? Date.parse(startedAt) : (out[0]?.at ?? 0);
  for (const e of out) e.real = e.at - start;
  return { events: out, duration: t, realDuration: out.length ? out[out.length - 1]!.real : 0, gaps };
}

/** Real time (ms from the stage's start) at replay time `t`: between two events the real
 * clock runs in step with playback, faster across a shortened gap. */
export function realAt(timeline: Timeline, t: number): number {
  const events = timeline.events;
  if (!events.length) return 0;
  const n = countAt(timeline, t);
  if (n === 0) return events[0]!.real;
  const before = events[n - 1]!;
  const after = events[n];
  if (!after || after.t <= before.t) return before.real;
  const fraction = (t - before.t) / (after.t - before.t);
  return before.real + fraction * (after.real - before.real);
}

/** "⋯ 6 min idle" for a shortened gap. */
export function idleLabel(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1
    ? i18next.t("replay:idle.minutes", { minutes })
    : i18next.t("replay:idle.seconds", { seconds: Math.round(ms / 1000) });
}

/** How many events have happened at replay time `t` (events at exactly `t` included). */
export function countAt(timeline: Timeline, t: number): number {
  const events = timeline.events;
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The stage's documents at a position of the timeline. `seek(n)` makes the documents
 * hold exactly the updates of the first `n` events: forward by applying the next updates,
 * backward by rebuilding fresh docs from the nearest checkpoint. `generation` changes on a
 * rebuild (views bound to the old Y.Docs must re-bind).
 */
export class ReplayDocs {
  docs = new Map<string, Y.Doc>();
  generation = 0;
  private applied = 0;
  private readonly updates: { index: number; doc: string; update: Uint8Array }[] = [];
  private readonly checkpoints: { applied: number; states: Map<string, Uint8Array> }[] = [];

  constructor(timeline: Timeline) {
    for (const { index, event } of timeline.events) {
      if (event.type !== "doc.update") continue;
      const { doc, update } = event;
      if (!doc || !update) continue;
      try {
        this.updates.push({ index, doc, update: fromBase64(update) });
      } catch {
        /* a malformed update is skipped, as the server would have refused it */
      }
    }
  }

  get(name: string): Y.Doc {
    let doc = this.docs.get(name);
    if (!doc) {
      doc = new Y.Doc();
      this.docs.set(name, doc);
    }
    return doc;
  }

  /** Updates (doc.update events) among the first `events` events. */
  private updatesBefore(events: number): number {
    let lo = 0;
    let hi = this.updates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.updates[mid]!.index < events) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  seek(events: number): void {
    const target = this.updatesBefore(events);
    if (target < this.applied) this.rebuild(target);
    while (this.applied < target) {
      const { doc, update } = this.updates[this.applied]!;
      Y.applyUpdate(this.get(doc), update);
      this.applied += 1;
      if (this.applied % CHECKPOINT_EVERY === 0 && !this.checkpoints.some((c) => c.applied === this.applied)) {
        const states = new Map<string, Uint8Array>();
        for (const [name, d] of this.docs) states.set(name, Y.encodeStateAsUpdate(d));
        this.checkpoints.push({ applied: this.applied, states });
      }
    }
  }

  private rebuild(target: number): void {
    for (const doc of this.docs.values()) doc.destroy();
    this.docs = new Map();
    this.generation += 1;
    this.applied = 0;
    let best: (typeof this.checkpoints)[number] | undefined;
    for (const c of this.checkpoints) if (c.applied <= target && (!best || c.applied > best.applied)) best = c;
    if (best) {
      for (const [name, state] of best.states) Y.applyUpdate(this.get(name), state);
      this.applied = best.applied;
    }
  }

  destroy(): void {
    for (const doc of this.docs.values()) doc.destroy();
    this.docs.clear();
  }
}

/** "03:07" for replay and stage times. */
export function formatOffset(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** The events the replay's feed lists (edits and presence are shown as the documents). */
export const FEED_TYPES = new Set<LoggedEventType>([
  "stage.status",
  "stage.claimed",
  "timer",
  "follow_up",
  "chat",
  "submission.status",
  "answer.saved",
  "review_comment",
  "review_comment.updated",
  "review_comment.deleted",
  "note",
  "integrity",
  "scorecard.saved",
  "review_match.set",
  "review_match.cleared",
  "recording.started",
  "recording.stopped",
]);

export function inFeed(e: LoggedEvent): boolean {
  if (!FEED_TYPES.has(e.type)) return false;
  // A submission shows once, with its verdict (queued/running are noise in a replay).
  if (e.type === "submission.status") return e.status === "done" || e.status === "error";
  return true;
}
