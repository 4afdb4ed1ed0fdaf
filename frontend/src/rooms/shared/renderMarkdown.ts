import DOMPurify from "dompurify";
import { marked } from "marked";

/** Markdown → sanitised HTML (prompts and design docs come from the bank, but a bank file
 * is still outside input). */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source ?? "", { async: false, gfm: true, breaks: false }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
