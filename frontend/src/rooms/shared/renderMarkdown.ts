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

// A line break inside a paragraph reads as a space, which is right between English words
// and wrong between Chinese characters ("三天设计， 两天深挖"): bank text is wrapped at
// ~90 columns in its YAML, so a soft break between two CJK characters (or their
// punctuation) is dropped. Code (blocks and spans) is other tokens and stays as written.
const CJK = "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef]";
const CJK_SOFT_BREAK = new RegExp(`(${CJK})[ \\t]*\\n[ \\t]*(?=${CJK})`, "gu");

marked.use({
  walkTokens(token) {
    if (token.type === "text" && !("tokens" in token && token.tokens)) {
      token.text = token.text.replace(CJK_SOFT_BREAK, "$1");
    }
  },
});

/** Markdown → sanitised HTML (prompts and design docs come from the bank, but a bank file
 * is still outside input). */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source ?? "", { async: false, gfm: true, breaks: false }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
