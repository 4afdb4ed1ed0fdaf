// Whether the viewport is at least `px` wide, following resizes and rotations.
import { useSyncExternalStore } from "react";

export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== "function") return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    // Without matchMedia (jsdom in unit tests) the screen counts as wide.
    () => (typeof window.matchMedia === "function" ? window.matchMedia(query).matches : true),
  );
}
