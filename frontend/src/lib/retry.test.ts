import { describe, expect, it } from "vitest";

import { ApiError, NetworkError } from "../api/client";
import { isTransient, nextProblem, RETRY_MAX_MS, retryDelayMs } from "./retry";

describe("retry policy", () => {
  it("doubles the wait from 1 s up to a cap, jittered to 50–100 %", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => retryDelayMs(n, () => 1))).toEqual([1000, 2000, 4000, 8000, RETRY_MAX_MS, RETRY_MAX_MS, RETRY_MAX_MS]);
    expect(retryDelayMs(3, () => 0)).toBe(2000);
  });

  it("retries by itself only what may fix itself: no answer, 5xx, 408, 429", () => {
    expect(isTransient(new NetworkError(new TypeError("Failed to fetch")))).toBe(true);
    expect([500, 502, 503, 408, 429].every((s) => isTransient(new ApiError(s, "")))).toBe(true);
    expect([400, 401, 403, 404, 409].some((s) => isTransient(new ApiError(s, "")))).toBe(false);
    expect(isTransient(new Error("bug"))).toBe(false);
  });

  it("counts failures in a row and schedules the next try only for transient ones", () => {
    const first = nextProblem(null, new ApiError(503, ""), 10_000);
    expect(first.problem.failures).toBe(1);
    expect(first.problem.retryAt).toBe(10_000 + (first.delayMs ?? NaN));
    const second = nextProblem(first.problem, new ApiError(404, ""), 20_000);
    expect(second).toMatchObject({ delayMs: null, problem: { failures: 2, retryAt: null } });
  });
});
