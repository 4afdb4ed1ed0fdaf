import { describe, expect, it } from "vitest";

import type { ProgressData } from "../api/client";
import { dimensionSeries, kindSeries } from "./ProgressCharts";

const base = { loop: 1, loop_title: "AI lab", kind: "coding", title: "Live coding" };

const data: ProgressData = {
  stages: [],
  by_kind: [
    {
      kind: "coding",
      points: [
        { ...base, stage: 1, at: "2026-01-01T10:00:00Z", percent: 50, level: 2.5, recommendation: null, source: "auto" },
        { ...base, stage: 2, at: "2026-01-02T10:00:00Z", percent: 75, level: 3, recommendation: "yes", source: "coach" },
      ],
    },
  ],
  by_dimension: [{ dimension: "Performance", points: [{ ...base, stage: 1, at: "2026-01-01T10:00:00Z", level: 2, weight: 1, source: "auto" }] }],
  review: [],
  deep_dive: [],
};

describe("progress series", () => {
  it("marks the points that come from automatic scorecards", () => {
    const [coding] = kindSeries(data, (k) => k);
    expect(coding!.points.map((p) => [p.y, p.hollow])).toEqual([
      [50, true],
      [75, false],
    ]);
    expect(coding!.points[0]!.label).toBe("Live coding · AI lab · automatic scorecard");
    const [performance] = dimensionSeries(data);
    expect(performance!.points[0]!.label).toBe("Live coding · automatic scorecard");
  });
});
