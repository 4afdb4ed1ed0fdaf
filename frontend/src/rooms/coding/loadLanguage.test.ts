// Every judged language gets its editor mode (Go included since function-style questions
// offer it); an unknown one is plain text rather than an error.
import { describe, expect, it } from "vitest";

import { loadLanguage } from "./CodeEditor";

describe("loadLanguage", () => {
  it.each(["python", "javascript", "cpp", "go"])("%s has a language mode", async (language) => {
    const extension = await loadLanguage(language);
    expect(Array.isArray(extension) && extension.length === 0).toBe(false);
  });

  it("an unknown language is plain text", async () => {
    expect(await loadLanguage("cobol")).toEqual([]);
  });
});
