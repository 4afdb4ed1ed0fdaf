import { afterEach, describe, expect, it } from "vitest";

import { i18next, setLanguage } from "../i18n";
import { followUpTrigger, formatClock, formatDate, RECOMMENDATION_LABEL, startClockQuestion, verdictLabel } from "./format";

afterEach(async () => {
  await setLanguage("en");
});

describe("format", () => {
  it("says when a follow-up fires as a person would", () => {
    expect(followUpTrigger("after_minutes", 40)).toBe("after 40 minutes");
    expect(followUpTrigger("after_minutes", 1)).toBe("after 1 minute");
    expect(followUpTrigger("on_part_passed")).toBe("when the part's hidden tests pass");
    expect(followUpTrigger("manual")).toBe("pushed by the coach");
  });

  it("says counts as a person would, in each language", async () => {
    expect(i18next.t("candidate:progressDone", { done: 1, count: 1 })).toBe("1 of 1 stage done");
    expect(i18next.t("candidate:progressDone", { done: 0, count: 0 })).toBe("0 of 0 stages done");
    expect(i18next.t("candidate:template.size", { count: 8, hours: 4.5 })).toBe("8 stages · 4.5 h");
    await setLanguage("zh-Hans");
    expect(i18next.t("candidate:template.size", { count: 8, hours: 4.5 })).toBe("8 个阶段 · 4.5 小时");
    expect(followUpTrigger("after_minutes", 40)).toBe("40 分钟后");
  });

  it("asks before starting a long stage only", () => {
    expect(startClockQuestion(90)).toMatch(/^Start the 90-minute clock\?/);
    expect(startClockQuestion(60)).toMatch(/^Start the 60-minute clock\?/);
    expect(startClockQuestion(45)).toBeNull();
  });

  it("names verdicts, recommendations and dates in the language shown", async () => {
    expect(verdictLabel("wrong_answer")).toBe("wrong answer");
    expect(RECOMMENDATION_LABEL.strong_yes).toBe("Strong yes");
    await setLanguage("zh-Hant");
    expect(verdictLabel("wrong_answer")).toBe("答案錯誤（wrong answer）");
    expect(RECOMMENDATION_LABEL.strong_yes).toBe("強烈推薦");
    expect(formatDate("2026-12-01T12:00:00Z")).toBe("2026年12月1日");
  });

  it("formats the clock", () => {
    expect(formatClock(75_000)).toBe("01:15");
    expect(formatClock(3_723_000)).toBe("1:02:03");
  });
});
