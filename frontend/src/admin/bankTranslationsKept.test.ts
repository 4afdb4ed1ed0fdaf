import { describe, expect, it } from "vitest";

import { loopBank, rubricBank } from "./model";

describe("the rubric and loop editors keep translations", () => {
  it("send a rubric's and a loop template's i18n block back as it came", () => {
    const i18n = { "zh-Hans": { title: "编程", dimensions: { "1": { name: "正确性" } } } };
    const rubric = rubricBank({ slug: "r", dimensions: [{ name: "Correctness", weight: 1, levels: ["a", "b", "c", "d"] }], i18n });
    expect(rubric.rubrics![0]!.i18n).toEqual(i18n);
    const loop = loopBank({ slug: "l", title: "L", stages: [], i18n: { "zh-Hans": { title: "面试" } } });
    expect(loop.loops![0]!.i18n).toEqual({ "zh-Hans": { title: "面试" } });
    expect("i18n" in rubricBank({ slug: "r", dimensions: [], i18n: {} }).rubrics![0]!).toBe(false);
  });
});
