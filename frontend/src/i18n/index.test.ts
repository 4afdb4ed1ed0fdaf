import { afterEach, describe, expect, it } from "vitest";

import { currentLanguage, i18next, initialLanguage, matchLanguage, setLanguage } from "./index";

describe("matchLanguage", () => {
  it.each([
    ["en-GB", "en"],
    ["zh", "zh-Hans"],
    ["zh-CN", "zh-Hans"],
    ["zh-SG", "zh-Hans"],
    ["zh-Hans-CN", "zh-Hans"],
    ["zh-TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-Hant", "zh-Hant"],
    ["fr-FR", null],
    ["", null],
  ])("%s → %s", (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });
});

describe("setLanguage", () => {
  afterEach(async () => {
    await setLanguage("en");
    localStorage.clear();
  });

  it("switches the messages, the page's lang and what the next visit starts with", async () => {
    await setLanguage("zh-Hant");
    expect(currentLanguage()).toBe("zh-Hant");
    expect(i18next.t("common:nav.signOut")).toBe("登出");
    expect(document.documentElement.lang).toBe("zh-Hant");
    expect(initialLanguage()).toBe("zh-Hant");
  });

  it("falls back to English for a key a language lacks", async () => {
    await setLanguage("zh-Hans");
    i18next.addResource("en", "common", "onlyInEnglish", "Only in English");
    expect(i18next.t("common:onlyInEnglish")).toBe("Only in English");
  });
});
