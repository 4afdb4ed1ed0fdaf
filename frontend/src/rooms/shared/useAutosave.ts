// Debounced autosave of a form value through a REST call, with an indicator state and
// protection against leaving the page with unsaved changes.
import { useCallback, useEffect, useRef, useState } from "react";

import { describeError } from "../../api/client";
import { i18next } from "../../i18n";
import { formatDateTime } from "../../i18n/format";

export type AutosaveState =
  | { kind: "saved"; at: Date | null }
  | { kind: "dirty" }
  | { kind: "saving" }
  | { kind: "error"; message: string };

export function autosaveLabel(state: AutosaveState): string {
  switch (state.kind) {
    case "saved":
      return state.at
        ? i18next.t("rooms:autosave.savedAt", {
            time: formatDateTime(state.at, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
          })
        : i18next.t("rooms:autosave.saved");
    case "dirty":
      return i18next.t("rooms:autosave.dirty");
    case "saving":
      return i18next.t("rooms:autosave.saving");
    case "error":
      return i18next.t("rooms:autosave.error", { message: state.message });
  }
}

export function useAutosave<T>(save: (value: T) => Promise<unknown>, delayMs = 800) {
  const [state, setState] = useState<AutosaveState>({ kind: "saved", at: null });
  const pending = useRef<{ value: T } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const saveRef = useRef(save);
  saveRef.current = save;

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inFlight.current || !pending.current) return;
    const { value } = pending.current;
    pending.current = null;
    inFlight.current = true;
    setState({ kind: "saving" });
    try {
      await saveRef.current(value);
      inFlight.current = false;
      if (pending.current) void flush();
      else setState({ kind: "saved", at: new Date() });
    } catch (error) {
      inFlight.current = false;
      if (!pending.current) pending.current = { value };
      setState({ kind: "error", message: describeError(error) });
    }
  }, []);

  const change = useCallback(
    (value: T) => {
      pending.current = { value };
      setState({ kind: "dirty" });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs],
  );

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (pending.current || inFlight.current) {
        event.preventDefault();
        event.returnValue = "";
      }
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      if (pending.current) void flush();
    };
  }, [flush]);

  return { state, change, flush };
}
