// The chat where a room places it inside its own layout (the coding room's prompt pane, the
// design and review rooms): docked at the bottom of that pane so it is on screen without
// scrolling past the prompt, collapsible, and saying "Chat (3)" when messages from the other
// side arrive while it is closed or out of sight.
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import type { StageMessage } from "../../ws/socket";

/** Chat messages from others after `readSeq` — and after `syncedSeq`, the history the room
 * opened with, which was there before this viewer looked. */
export function unreadChats(events: StageMessage[], me: string, readSeq: number, syncedSeq: number): number {
  const after = Math.max(readSeq, syncedSeq);
  return events.filter((e) => e.type === "chat" && (e.seq ?? 0) > after && e.actor !== me).length;
}

/** How many chat messages arrived unseen; everything up to now counts as read while `seeing`. */
export function useUnreadChats(events: StageMessage[], me: string, seeing: boolean, syncedSeq: number): number {
  let lastSeq = 0;
  for (const e of events) if (e.type === "chat") lastSeq = Math.max(lastSeq, e.seq ?? 0);
  const [readSeq, setReadSeq] = useState(lastSeq);
  useEffect(() => {
    if (seeing && lastSeq > readSeq) setReadSeq(lastSeq);
  }, [seeing, lastSeq, readSeq]);
  return seeing ? 0 : unreadChats(events, me, readSeq, syncedSeq);
}

/** Whether the element is in the viewport (true where the browser cannot tell). */
function useOnScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(Boolean(entry?.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

export function ChatDock({
  events,
  me,
  syncedSeq,
  label,
  children,
}: {
  events: StageMessage[];
  me: string;
  syncedSeq: number;
  label?: string;
  /** The chat panel itself. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const dock = useRef<HTMLDivElement>(null);
  const onScreen = useOnScreen(dock);
  const unread = useUnreadChats(events, me, open && onScreen, syncedSeq);
  return (
    <div className={`chat-dock ${open ? "open" : "closed"}`} ref={dock} data-testid="chat-dock">
      <button type="button" className="chat-dock-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span>
          {label ?? t("rooms:page.chat")}
          {unread > 0 && (
            <span className="unread" data-testid="chat-unread" aria-label={t("rooms:chatDock.unread", { count: unread })}>
              {` (${unread})`}
            </span>
          )}
        </span>
        <span className="muted small">{open ? t("rooms:chatDock.hide") : t("rooms:chatDock.show")}</span>
      </button>
      {open && children}
    </div>
  );
}
