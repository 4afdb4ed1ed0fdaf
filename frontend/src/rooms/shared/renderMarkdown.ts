import DOMPurify from "dompurify";
import { marked } from "marked";

/** Glossary links (`/glossary#kv-cache`, issue #18) open in a new tab: following one from a
 * prompt must not take the candidate out of a live room. */
function openGlossaryLinksApart(node: Element): void {
  if (node.tagName === "A" && node.getAttribute("href")?.startsWith("/glossary")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener");
  }
}
DOMPurify.addHook("afterSanitizeAttributes", openGlossaryLinksApart);

/** Markdown → sanitised HTML (prompts and design docs come from the bank, but a bank file
 * is still outside input). */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source ?? "", { async: false, gfm: true, breaks: false }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
