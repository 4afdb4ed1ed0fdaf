// Bank text is wrapped in its YAML; a wrapped line must not put a space between two
// Chinese characters, and must keep one between English words and inside code.
import { describe, expect, it } from "vitest";

import { renderMarkdown } from "./renderMarkdown";

describe("renderMarkdown", () => {
  it("joins a wrapped line between Chinese characters and punctuation", () => {
    expect(renderMarkdown("三天系统设计，\n两天项目深挖。")).toBe("<p>三天系统设计，两天项目深挖。</p>\n");
    expect(renderMarkdown("對應的\n  練習環節")).toBe("<p>對應的練習環節</p>\n");
    expect(renderMarkdown("- 先写代码，\n  再并发")).toContain("先写代码，再并发");
  });

  it("keeps the break between English words, and between Chinese and English", () => {
    expect(renderMarkdown("one\ntwo")).toBe("<p>one\ntwo</p>\n");
    expect(renderMarkdown("指出每个\nbug")).toBe("<p>指出每个\nbug</p>\n");
  });

  it("leaves code as written", () => {
    expect(renderMarkdown("```\n第一行\n第二行\n```")).toContain("第一行\n第二行");
    // (CommonMark turns a break inside a code span into a space; that stays so.)
    expect(renderMarkdown("看 `甲\n乙` 这里")).toContain("<code>甲 乙</code>");
  });
});
