import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { renderMarkdown } from "../rooms/shared/renderMarkdown";
import { CATALOGUES, LANGUAGES, setLanguage } from "../i18n";
import { glossaryTerms } from "../glossary/terms";
import { GlossaryPage } from "./GlossaryPage";

/** The terms the issue names, with the anchors bank prompts link to. */
const REQUIRED = [
  "prefill",
  "decode",
  "continuous-batching",
  "paged-attention",
  "kv-cache",
  "speculative-decoding",
  "head-of-line-blocking",
  "split-brain",
  "idempotency",
  "tail-latency",
  "back-pressure",
  "quantisation",
  "tensor-parallelism",
  "pipeline-parallelism",
  "prefix-caching",
  "time-to-first-token",
  "tokens-per-second",
];

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <GlossaryPage />
    </MemoryRouter>,
  );
}

afterEach(async () => {
  cleanup();
  await setLanguage("en");
});

describe("glossary", () => {
  it("has at least 30 terms, the loop's core ones among them, each defined in every language", () => {
    const terms = glossaryTerms();
    expect(terms.length).toBeGreaterThanOrEqual(30);
    expect(terms).toEqual(expect.arrayContaining(REQUIRED));
    for (const language of LANGUAGES) {
      const catalogue = CATALOGUES[language]?.glossary?.terms as Record<string, { term: string; definition: string }>;
      for (const slug of terms) {
        expect(catalogue[slug]?.term, `${language} ${slug}`).toBeTruthy();
        expect(catalogue[slug]?.definition, `${language} ${slug}`).toMatch(/\S/);
      }
    }
  });

  it("gives every term an anchor, in English alphabetical order", () => {
    const { container } = renderAt("/glossary");
    const anchors = [...container.querySelectorAll(".glossary-term")].map((node) => node.id);
    expect(anchors).toEqual(glossaryTerms());
    const names = anchors.map((slug) => container.querySelector(`#${slug} dt a`)?.textContent ?? "");
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    const link = within(container.querySelector("#kv-cache") as HTMLElement).getByRole("link", { name: /KV cache/ });
    expect(link.getAttribute("href")).toBe("#kv-cache");
  });

  it("scrolls to and marks the term a prompt linked to", () => {
    const scrolled: Element[] = [];
    // jsdom has no layout, hence no scrollIntoView.
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const { container } = renderAt("/glossary#split-brain");
    expect(scrolled.map((node) => node.id)).toEqual(["split-brain"]);
    expect(container.querySelector("#split-brain")?.classList.contains("targeted")).toBe(true);
    expect(container.querySelectorAll(".targeted")).toHaveLength(1);
  });

  it("in English shows the Chinese names beside each definition", () => {
    renderAt("/glossary");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Glossary");
    const entry = document.getElementById("kv-cache") as HTMLElement;
    expect(entry.textContent).toContain("In Chinese: 键值缓存 · 鍵值快取");
    // One name when both scripts write it alike.
    expect(document.getElementById("admission-control")?.textContent).toContain("In Chinese: 准入控制");
    expect(document.getElementById("admission-control")?.textContent).not.toContain("·");
  });

  it("in Chinese keeps the English term and adds the English definition", async () => {
    await setLanguage("zh-Hans");
    renderAt("/glossary");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("术语表");
    const entry = document.getElementById("head-of-line-blocking") as HTMLElement;
    expect(within(entry).getByRole("link", { name: /Head-of-line blocking/ }).getAttribute("lang")).toBe("en");
    expect(entry.textContent).toContain("队头阻塞");
    expect(entry.textContent).toContain("Requests stuck behind one slow item");
    expect(screen.getByText(`共 ${glossaryTerms().length} 个术语`)).toBeTruthy();
  });

  it("prompts' glossary links open in a new tab; other links stay as they are", () => {
    const html = renderMarkdown("The [KV cache](/glossary#kv-cache) and [docs](https://example.org).");
    const root = document.createElement("div");
    root.innerHTML = html;
    const [glossary, other] = [...root.querySelectorAll("a")];
    expect(glossary?.getAttribute("target")).toBe("_blank");
    expect(glossary?.getAttribute("rel")).toBe("noopener");
    expect(other?.hasAttribute("target")).toBe(false);
  });
});
