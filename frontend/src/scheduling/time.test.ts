import { describe, expect, it } from "vitest";

import { setLanguage } from "../i18n";

import { formatSessionTime, isNear, untilLabel, zoneChoices } from "./time";

describe("scheduling times", () => {
  it("shows a UTC instant in the given zone, with the zone named", () => {
    expect(formatSessionTime("2030-01-15T14:00:00Z", "America/New_York", "en-US")).toBe("Tue, Jan 15, 9:00 AM EST");
    expect(formatSessionTime("2030-07-15T13:00:00Z", "America/New_York", "en-US")).toBe("Mon, Jul 15, 9:00 AM EDT");
  });

  it("offers the room from 15 minutes before until the end", () => {
    const start = "2030-01-15T14:00:00Z";
    const end = "2030-01-15T15:00:00Z";
    const at = (iso: string) => Date.parse(iso);
    expect(isNear(start, end, at("2030-01-15T13:44:00Z"))).toBe(false);
    expect(isNear(start, end, at("2030-01-15T13:46:00Z"))).toBe(true);
    expect(isNear(start, end, at("2030-01-15T15:00:00Z"))).toBe(false);
  });

  it("says how far off a session is", () => {
    const now = Date.parse("2030-01-15T12:00:00Z");
    expect(untilLabel("2030-01-15T12:20:00Z", now)).toBe("in 20 min");
    expect(untilLabel("2030-01-15T15:00:00Z", now)).toBe("in 3 h");
    expect(untilLabel("2030-01-20T12:00:00Z", now)).toBe("in 5 days");
  });

  it("says it in the interface's language", async () => {
    const now = Date.parse("2030-01-15T12:00:00Z");
    await setLanguage("zh-Hant");
    try {
      expect(untilLabel("2030-01-15T12:20:00Z", now)).toBe("20 分鐘後");
      expect(formatSessionTime("2030-01-15T14:00:00Z", "Asia/Taipei")).toContain("1月15日");
    } finally {
      await setLanguage("en");
    }
  });

  it("lists zones with the current one in", () => {
    expect(zoneChoices("Mars/Olympus")[0]).toBe("Mars/Olympus");
    expect(zoneChoices("UTC")).toContain("UTC");
  });
});
