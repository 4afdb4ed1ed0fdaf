import { describe, expect, it } from "vitest";

import { ApiError, NetworkError } from "../api/client";
import { ChunkQueue } from "./chunkedRecorder";

const blob = (text: string) => new Blob([text], { type: "audio/webm" });
const noWait = () => Promise.resolve();

describe("ChunkQueue", () => {
  it("uploads chunks one at a time, in order, numbered from 0", async () => {
    const seen: [number, number][] = [];
    const queue = new ChunkQueue(async (seq, b) => {
      await Promise.resolve();
      seen.push([seq, b.size]);
    }, noWait);
    queue.push(blob("a"));
    queue.push(blob("bb"));
    queue.push(blob(""));
    queue.push(blob("ccc"));
    await queue.flush();
    expect(seen).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(queue.uploaded).toBe(3);
  });

  it("retries a chunk that did not arrive, with the same number", async () => {
    const tries: number[] = [];
    let failures = 2;
    const queue = new ChunkQueue(async (seq) => {
      tries.push(seq);
      if (seq === 1 && failures-- > 0) throw new NetworkError(new Error("offline"));
    }, noWait);
    for (const text of ["a", "b", "c"]) queue.push(blob(text));
    await queue.flush();
    expect(tries).toEqual([0, 1, 1, 1, 2]);
    expect(queue.failed).toBeNull();
  });

  it("stops at a refusal that will not fix itself", async () => {
    const tries: number[] = [];
    const queue = new ChunkQueue(async (seq) => {
      tries.push(seq);
      throw new ApiError(413, "A chunk is at most 512 KiB.");
    }, noWait);
    queue.push(blob("a"));
    queue.push(blob("b"));
    await queue.flush();
    expect(tries).toEqual([0]);
    expect(queue.failed).toBeInstanceOf(ApiError);
  });
});
