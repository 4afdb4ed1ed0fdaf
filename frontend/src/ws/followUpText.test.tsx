import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { setLanguage } from "../i18n";
import { FollowUpBanners } from "../rooms/shared/widgets";
import { followUpText } from "./followUpText";
import { followUpEvent } from "./testEvents";

afterEach(async () => {
  cleanup();
  await act(() => setLanguage("en"));
});

describe("pushed follow-ups in the reader's language", () => {
  const translations = { "zh-Hans": "现在最多 K 个。", "zh-Hant": "現在最多 K 個。" };

  it("picks the reader's translation, else the text as pushed", () => {
    const pushed = { text: "Now K at most.", translations };
    expect(followUpText(pushed, "zh-Hant")).toBe("現在最多 K 個。");
    expect(followUpText(pushed, "en")).toBe("Now K at most.");
    expect(followUpText({ text: "A coach's own words.", translations: {} }, "zh-Hans")).toBe("A coach's own words.");
  });

  it("shows the banner in the interface language the reader chose", async () => {
    await act(() => setLanguage("zh-Hans"));
    render(<FollowUpBanners events={[followUpEvent(4, "Now K at most.", 2, translations)]} />);
    expect(screen.getByRole("alert").textContent).toContain("现在最多 K 个。");
    expect(screen.getByRole("alert").textContent).not.toContain("Now K at most.");
  });
});
