// Unsaved edits are not lost silently: in-app navigation away from the page asks first
// (a route blocker), and so does closing or reloading the tab (beforeunload).
import { useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker } from "react-router";

/** Guards the page while `dirty`. `allowNext()` lets the page's own next navigation
 * through (after a save, before the re-render that clears `dirty`). */
export function useLeaveGuard(dirty: boolean, message?: string): { allowNext: () => void } {
  const { t } = useTranslation();
  const question = message ?? t("admin:leave.confirm");
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const allowed = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (allowed.current) {
      allowed.current = false;
      return false;
    }
    return dirtyRef.current && currentLocation.pathname !== nextLocation.pathname;
  });

  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const allowNext = useCallback(() => {
    allowed.current = true;
  }, []);
  return { allowNext };
}
