import { useEffect, useState, useSyncExternalStore } from "react";
import type * as Y from "yjs";

import type { StageSocket } from "../../ws/socket";
import type { IntegrityEvent } from "../../ws/events.gen";

export const LARGE_PASTE_CHARS = 200;

/** A key of a Y.Map as React state. */
export function useYMapValue<T>(map: Y.Map<unknown> | null, key: string): T | undefined {
  return useSyncExternalStore(
    (notify) => {
      if (!map) return () => {};
      map.observe(notify);
      return () => map.unobserve(notify);
    },
    () => (map ? (map.get(key) as T | undefined) : undefined),
  );
}

/** The text of a Y.Text as React state. */
export function useYText(text: Y.Text | null): string {
  const [value, setValue] = useState(() => text?.toString() ?? "");
  useEffect(() => {
    if (!text) return;
    const update = () => setValue(text.toString());
    update();
    text.observe(update);
    return () => text.unobserve(update);
  }, [text]);
  return value;
}

/**
 * Integrity signals (docs/events.md `integrity`): a paste of more than 200 characters and
 * how long the tab was out of focus. Recorded for the coach to weigh; the candidate's
 * page never shows them.
 */
export function useIntegritySignals(socket: StageSocket | null, enabled: boolean): void {
  useEffect(() => {
    if (!socket || !enabled) return;
    let blurredAt: number | null = null;
    const onPaste = (event: ClipboardEvent) => {
      const chars = event.clipboardData?.getData("text/plain").length ?? 0;
      if (chars > LARGE_PASTE_CHARS) socket.send({ type: "integrity", kind: "paste", amount: chars });
    };
    const onBlur = () => {
      blurredAt = Date.now();
    };
    const onFocus = () => {
      if (blurredAt === null) return;
      const ms = Date.now() - blurredAt;
      blurredAt = null;
      if (ms >= 1000) socket.send({ type: "integrity", kind: "blur", amount: ms });
    };
    document.addEventListener("paste", onPaste, true);
    window.addEventListener("blur", onBlur);
    window.addEventListener("focus", onFocus);
    return () => {
      document.removeEventListener("paste", onPaste, true);
      window.removeEventListener("blur", onBlur);
      window.removeEventListener("focus", onFocus);
    };
  }, [socket, enabled]);
}

/** An integrity signal as the coach's log and the replay word it. */
export function describeSignal(e: IntegrityEvent): string {
  return e.kind === "paste" ? `Pasted ${e.chars} characters` : `Left the tab for ${Math.round(e.ms / 1000)} s`;
}

/** Ctrl/Cmd+Enter and Ctrl/Cmd+Shift+Enter, anywhere in the room (the editor too). */
export function useRunShortcuts(onRun: () => void, onSubmit: () => void, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.shiftKey) onSubmit();
      else onRun();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onRun, onSubmit, enabled]);
}
