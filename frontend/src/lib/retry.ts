// When a failed load is worth trying again by itself. A request that got no answer (the
// network blipped, the server restarted), a 5xx, a timeout or a rate limit may well work
// in a moment: retry with jittered exponential backoff, and at once when the browser says
// it is back online. Anything else (403, 404 …) will not fix itself: a person decides.
import { useEffect, useState } from "react";

import { ApiError, NetworkError } from "../api/client";

export const RETRY_INITIAL_MS = 1000;
export const RETRY_MAX_MS = 15_000;

export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status >= 500 || error.status === 408 || error.status === 429);
}

/** The wait before the next try after `failures` failures in a row (1, 2 …): doubling from
 * RETRY_INITIAL_MS up to RETRY_MAX_MS, jittered to 50–100 % so that many clients cut off
 * by the same blip do not all come back in the same instant. */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.5 + random() / 2));
}

/** A load that failed and what happens next. */
export interface LoadProblem {
  /** The last failure. */
  error: unknown;
  /** Failures in a row. */
  failures: number;
  /** When (Date.now()) the next automatic try starts; null when none will (not transient). */
  retryAt: number | null;
}

/** The problem after one more failure, and the delay before the automatic retry (null: none). */
export function nextProblem(
  previous: LoadProblem | null,
  error: unknown,
  now: number = Date.now(),
): { problem: LoadProblem; delayMs: number | null } {
  const failures = (previous?.failures ?? 0) + 1;
  const delayMs = isTransient(error) ? retryDelayMs(failures) : null;
  return { problem: { error, failures, retryAt: delayMs === null ? null : now + delayMs }, delayMs };
}

/** Whole seconds until `at` (Date.now() time; 0 once past or when null), kept current. */
export function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (at === null) return;
    const id = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= at) clearInterval(id);
    }, 250);
    return () => clearInterval(id);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}
