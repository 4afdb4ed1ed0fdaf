import { describe, expect, it } from "vitest";

import { followUpTrigger, formatClock, plural, startClockQuestion } from "./format";

describe("format", () => {
  it("says when a follow-up fires as a person would", () => {
    expect(followUpTrigger("after_minutes", 40)).toBe("after 40 minutes");
    expect(followUpTrigger("after_minutes", 1)).toBe("after 1 minute");
    expect(followUpTrigger("on_part_passed")).toBe("when the part's hidden tests pass");
    expect(followUpTrigger("manual")).toBe("pushed by the coach");
  });

  it("says counts as a person would", () => {
    expect(plural(1, "stage")).toBe("1 stage");
    expect(plural(0, "stage")).toBe("0 stages");
    expect(plural(8, "stage")).toBe("8 stages");
    expect(plural(2, "follow-up question", "follow-up questions")).toBe("2 follow-up questions");
  });

  it("asks before starting a long stage only", () => {
    expect(startClockQuestion(90)).toMatch(/^Start the 90-minute clock\?/);
    expect(startClockQuestion(60)).toMatch(/^Start the 60-minute clock\?/);
    expect(startClockQuestion(45)).toBeNull();
  });

  it("formats the clock", () => {
    expect(formatClock(75_000)).toBe("01:15");
    expect(formatClock(3_723_000)).toBe("1:02:03");
  });
});
