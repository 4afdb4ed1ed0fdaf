// CodeMirror 6 over a plain string (starter and reference code): the admin's edits are
// saved with the question, not shared live, so no Yjs here.
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";

import { loadLanguage } from "../rooms/coding/CodeEditor";

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.45" },
  ".cm-gutters": { backgroundColor: "#f6f7f9", borderRight: "1px solid #e3e6ea", color: "#6b7280" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
});

export function SourceEditor({
  value,
  onChange,
  language,
  name,
  label,
  readOnly = false,
}: {
  value: string;
  onChange: (value: string) => void;
  language: string;
  /** Which source this is, e.g. "Reference python": one editor per name, and its test id. */
  name: string;
  /** What a screen reader announces, in the interface's language. */
  label: string;
  readOnly?: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          indentUnit.of("    "),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          languageSlot.current.of([]),
          theme,
          EditorView.contentAttributes.of({ "aria-label": label }),
          EditorState.readOnly.of(readOnly),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
      parent: host.current,
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // One editor per name (language tab); outside changes of `value` are synced below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, label, readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    let stale = false;
    void loadLanguage(language).then((extension) => {
      if (!stale) view.current?.dispatch({ effects: languageSlot.current.reconfigure(extension) });
    });
    return () => {
      stale = true;
    };
  }, [language, name, label]);

  return <div className="code-editor source-editor" ref={host} data-testid={`source-${name}`} />;
}
