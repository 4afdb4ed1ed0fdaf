import { useEffect, useMemo, useRef } from "react";

import { renderMarkdown } from "./renderMarkdown";

let mermaidSeq = 0;

/** Render ```mermaid blocks as diagrams; mermaid is loaded only when a prompt has one. */
async function renderMermaid(root: HTMLElement): Promise<void> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>("pre > code.language-mermaid"));
  if (!blocks.length) return;
  const { default: mermaid } = await import("mermaid");
  // Diagrams keep their natural size and scroll sideways in a narrow pane: scaled to fit,
  // a wide flowchart's labels shrank to ~6 px.
  const natural = { useMaxWidth: false };
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    theme: "neutral",
    flowchart: natural,
    sequence: natural,
    class: natural,
    state: natural,
    er: natural,
    gantt: natural,
  });
  for (const code of blocks) {
    const pre = code.parentElement;
    if (!pre || !pre.isConnected) continue;
    try {
      const { svg } = await mermaid.render(`mermaid-${++mermaidSeq}`, code.textContent ?? "");
      const figure = document.createElement("figure");
      figure.className = "mermaid-diagram";
      figure.tabIndex = 0; // scrollable by keyboard when wider than the pane
      figure.innerHTML = svg;
      pre.replaceWith(figure);
    } catch {
      pre.classList.add("mermaid-error");
    }
  }
}

export function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) void renderMermaid(ref.current);
  }, [html]);
  return <div ref={ref} className={`markdown ${className ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
