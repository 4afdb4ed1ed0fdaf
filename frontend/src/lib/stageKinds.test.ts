import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiError, NetworkError } from "../api/client";
import { StageKinds, stageKindLabel, StageKindsStore } from "./stageKinds";
import { STAGE_KINDS_FIXTURE } from "./stageKindsFixture";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const settle = () => vi.advanceTimersByTimeAsync(0);

describe("stage kinds from the server", () => {
  it("labels a kind from its spec, and an unknown or not yet loaded kind by its slug", () => {
    const kinds = new StageKinds(STAGE_KINDS_FIXTURE);
    expect(kinds.label("hm_call")).toBe("Hiring-manager call");
    expect(kinds.get("challenge")?.live).toBe(false);
    expect(kinds.list.map((k) => k.kind)).toEqual(["screen", "challenge", "hm_call", "coding", "design", "review", "deep_dive", "values"]);
    expect(stageKindLabel(kinds, "pair_programming")).toBe("pair programming");
    expect(stageKindLabel(null, "deep_dive")).toBe("deep dive");
  });

  it("fetches once however many pages subscribe, and keeps the list", async () => {
    vi.useFakeTimers();
    const fetchKinds = vi.fn().mockResolvedValue(STAGE_KINDS_FIXTURE);
    const store = new StageKindsStore(fetchKinds);
    const seen: unknown[] = [];
    const first = store.subscribe(() => seen.push(store.getSnapshot()));
    const second = store.subscribe(() => undefined);
    expect(store.getSnapshot().kinds).toBeNull();
    await settle();
    expect(store.getSnapshot().kinds?.label("coding")).toBe("Live coding");
    expect(seen).toHaveLength(1);
    first();
    second();
    store.subscribe(() => undefined);
    await settle();
    expect(fetchKinds).toHaveBeenCalledTimes(1);
  });

  it("retries a fetch that may work with backoff, and one the server refused only when asked", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(1);
    const fetchKinds = vi
      .fn()
      .mockRejectedValueOnce(new NetworkError(new TypeError("Failed to fetch")))
      .mockRejectedValueOnce(new ApiError(403, "Not allowed."))
      .mockResolvedValueOnce(STAGE_KINDS_FIXTURE);
    const store = new StageKindsStore(fetchKinds);
    store.subscribe(() => undefined);
    await settle();
    expect(store.getSnapshot().problem?.failures).toBe(1);
    expect(store.getSnapshot().problem?.retryAt).not.toBeNull();

    await vi.advanceTimersByTimeAsync(1000); // the automatic retry: refused this time
    expect(fetchKinds).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot().problem?.failures).toBe(2);
    expect(store.getSnapshot().problem?.retryAt).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchKinds).toHaveBeenCalledTimes(2);

    store.retry();
    await settle();
    expect(fetchKinds).toHaveBeenCalledTimes(3);
    expect(store.getSnapshot()).toEqual({ kinds: expect.any(StageKinds), problem: null });
  });
});

describe("StageKindsStore.refresh", () => {
  it("fetches the labels again and keeps the old ones if that fails", async () => {
    let label = "Live coding";
    const coding = STAGE_KINDS_FIXTURE.find((k) => k.kind === "coding")!;
    const fetchKinds = vi.fn(async () => [{ ...coding, label }]);
    const store = new StageKindsStore(fetchKinds);
    await store.load();
    label = "现场编程";
    store.refresh();
    await vi.waitFor(() => expect(store.getSnapshot().kinds?.label("coding")).toBe("现场编程"));
    fetchKinds.mockRejectedValueOnce(new Error("offline"));
    store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getSnapshot().kinds?.label("coding")).toBe("现场编程");
  });
});
