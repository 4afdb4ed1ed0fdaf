// Replay time ↔ wall-clock time, so a recording's audio lines up with the replayed log.
// The replay's timeline shortens idle gaps (engine.ts), so the two clocks differ: an
// event's replay time `t` and its wall time `at` are both known, and between two events
// the replay runs at real speed until the (shortened) gap ends.
import type { Timeline } from "../replay/engine";

/** The wall time (ms since the epoch) that replay time `t` shows. */
export function wallAt(timeline: Timeline, t: number): number {
  const events = timeline.events;
  if (events.length === 0) return t;
  let lo = 0;
  let hi = events.length - 1;
  if (t <= events[0]!.t) return events[0]!.at - (events[0]!.t - t);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (events[mid]!.t <= t) lo = mid;
    else hi = mid - 1;
  }
  const e = events[lo]!;
  return e.at + (t - e.t);
}

/** The replay time at wall time `wall`: inside a shortened gap, the replay waits at the
 * gap's end for the next event (while the audio of the gap plays on). */
export function replayTimeAt(timeline: Timeline, wall: number): number {
  const events = timeline.events;
  if (events.length === 0) return 0;
  if (wall <= events[0]!.at) return events[0]!.t;
  let lo = 0;
  let hi = events.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (events[mid]!.at <= wall) lo = mid;
    else hi = mid - 1;
  }
  const e = events[lo]!;
  const next = events[lo + 1];
  const t = e.t + (wall - e.at);
  return next ? Math.min(t, next.t) : Math.min(t, timeline.duration);
}
