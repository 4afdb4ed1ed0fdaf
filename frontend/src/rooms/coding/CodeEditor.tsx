// CodeMirror 6 bound to a shared Y.Text (y-codemirror.next): local keystrokes become Yjs
// updates, remote updates land in the editor. The coach's copy is read-only and shows
// the candidate's cursor from `cursor` messages.
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { Compartment, EditorState, type Extension, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  WidgetType,
} from "@codemirror/view";
import { useEffect, useRef } from "react";
import { yCollab, yUndoManagerKeymap } from "y-codemirror.next";
import type * as Y from "yjs";

/** Language support is loaded on demand: only the language in use is downloaded. */
export async function loadLanguage(language: string): Promise<Extension> {
  switch (language) {
    case "python":
      return (await import("@codemirror/lang-python")).python();
    case "javascript":
      return (await import("@codemirror/lang-javascript")).javascript();
    case "cpp":
      return (await import("@codemirror/lang-cpp")).cpp();
    case "go":
      return (await import("@codemirror/lang-go")).go();
    default: // a language this build has no mode for: plain text
      return [];
  }
}

export interface RemoteCursor {
  user: string;
  anchor: number;
  head: number;
}

const setRemoteCursor = StateEffect.define<RemoteCursor | null>();

class CaretWidget extends WidgetType {
  constructor(readonly user: string) {
    super();
  }
  eq(other: CaretWidget) {
    return other.user === this.user;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-remote-caret";
    span.setAttribute("aria-hidden", "true");
    span.dataset.user = this.user;
    return span;
  }
}

const remoteCursorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setRemoteCursor)) continue;
      const cursor = effect.value;
      if (!cursor) return Decoration.none;
      const len = tr.state.doc.length;
      const head = Math.min(Math.max(0, cursor.head), len);
      const anchor = Math.min(Math.max(0, cursor.anchor), len);
      const ranges = [Decoration.widget({ widget: new CaretWidget(cursor.user), side: 1 }).range(head)];
      if (anchor !== head) {
        ranges.push(Decoration.mark({ class: "cm-remote-selection" }).range(Math.min(anchor, head), Math.max(anchor, head)));
      }
      return Decoration.set(ranges, true);
    }
    return value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "14px", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-content": { padding: "8px 0" },
  ".cm-gutters": { backgroundColor: "#f6f7f9", borderRight: "1px solid #e3e6ea", color: "#6b7280" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
});

export function CodeEditor({
  doc,
  language,
  readOnly,
  onPaste,
  onCursor,
  remoteCursor,
  label,
}: {
  doc: Y.Doc;
  language: string;
  readOnly: boolean;
  onPaste?: (chars: number) => void;
  onCursor?: (anchor: number, head: number) => void;
  remoteCursor?: RemoteCursor | null;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const callbacks = useRef({ onPaste, onCursor });
  callbacks.current = { onPaste, onCursor };

  useEffect(() => {
    if (!host.current) return;
    const ytext = doc.getText("code");
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      indentUnit.of("    "),
      languageSlot.current.of([]),
      yCollab(ytext, null, readOnly ? { undoManager: false } : undefined),
      remoteCursorField,
      theme,
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
    ];
    if (!readOnly) {
      extensions.push(
        closeBrackets(),
        keymap.of([...yUndoManagerKeymap, ...closeBracketsKeymap, ...defaultKeymap, indentWithTab]),
        EditorView.domEventHandlers({
          paste(event) {
            const text = event.clipboardData?.getData("text/plain") ?? "";
            callbacks.current.onPaste?.(text.length);
            return false;
          },
        }),
        EditorView.updateListener.of((update) => {
          if (update.selectionSet || update.docChanged) {
            const sel = update.state.selection.main;
            callbacks.current.onCursor?.(sel.anchor, sel.head);
          }
        }),
      );
    }
    const editor = new EditorView({
      state: EditorState.create({ doc: ytext.toString(), extensions }),
      parent: host.current,
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The language is swapped through its compartment below, without a rebuild.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, readOnly, label]);

  useEffect(() => {
    let stale = false;
    void loadLanguage(language).then((extension) => {
      if (!stale) view.current?.dispatch({ effects: languageSlot.current.reconfigure(extension) });
    });
    return () => {
      stale = true;
    };
  }, [language, doc, readOnly, label]);

  useEffect(() => {
    view.current?.dispatch({ effects: setRemoteCursor.of(remoteCursor ?? null) });
  }, [remoteCursor]);

  return <div className="code-editor" ref={host} data-testid="code-editor" />;
}
