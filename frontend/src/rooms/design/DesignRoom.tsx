import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type * as Y from "yjs";

import type { StageQuestion } from "../../api/client";
import { useMe } from "../../auth/session";
import { i18next } from "../../i18n";
import { Markdown } from "../shared/Markdown";
import { NextQuestionButton } from "../shared/ScriptedInterviewer";
import { type Room, roomActive } from "../shared/useStageRoom";
import { ReadOnlyLabel, SaveIndicator } from "../shared/widgets";

// Excalidraw is big: it loads only when a design room opens.
const Whiteboard = lazy(() => import("./Whiteboard"));

/** The sections of the structured notes; label and hint are read from the catalogue
 * (`rooms:design.<key>`, `…Hint`) in the language shown when they are used. */
export const NOTE_SECTIONS: readonly { readonly key: string; readonly label: string; readonly hint: string }[] = [
  "requirements",
  "estimates",
  "api",
  "data_model",
  "architecture",
  "deep_dives",
  "tradeoffs",
].map((key) => ({
  key,
  get label() {
    return i18next.t(`rooms:design.${key}`);
  },
  get hint() {
    return i18next.t(`rooms:design.${key}Hint`);
  },
}));
const NOTE_THROTTLE_MS = 300;

function NoteField({ map, section, editable }: { map: Y.Map<unknown>; section: (typeof NOTE_SECTIONS)[number]; editable: boolean }) {
  const [value, setValue] = useState(() => String(map.get(section.key) ?? ""));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(value);
  const editing = useRef(false);

  useEffect(() => {
    const onChange = (event: Y.YMapEvent<unknown>) => {
      if (!event.keysChanged.has(section.key) || editing.current) return;
      const next = String(map.get(section.key) ?? "");
      latest.current = next;
      setValue(next);
    };
    map.observe(onChange);
    return () => map.unobserve(onChange);
  }, [map, section.key]);

  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        map.set(section.key, latest.current);
      }
    },
    [map, section.key],
  );

  const id = `note-${section.key}`;
  return (
    <div className="note-field">
      <label htmlFor={id}>
        {section.label} <span className="muted small">{section.hint}</span>
      </label>
      <textarea
        id={id}
        value={value}
        readOnly={!editable}
        rows={section.key === "architecture" || section.key === "deep_dives" ? 6 : 4}
        onFocus={() => (editing.current = true)}
        onBlur={() => {
          editing.current = false;
          if (timer.current) {
            clearTimeout(timer.current);
            timer.current = null;
            map.set(section.key, latest.current);
          }
        }}
        onChange={(e) => {
          setValue(e.target.value);
          latest.current = e.target.value;
          if (!timer.current) {
            timer.current = setTimeout(() => {
              timer.current = null;
              map.set(section.key, latest.current);
            }, NOTE_THROTTLE_MS);
          }
        }}
      />
    </div>
  );
}

function DesignQuestion({
  room,
  question,
  editable,
  side,
}: {
  room: Room;
  question: StageQuestion;
  editable: boolean;
  side?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const me = useMe();
  const canEdit = editable && roomActive(room);
  // The whiteboard is shared: the stage's coach (or an admin) draws on it too.
  const canDraw = roomActive(room) && (editable || me.username === room.stage.coach || me.role === "admin");
  const notes = useMemo(() => room.docs.get(`notes:${question.id}`).getMap("notes") as Y.Map<unknown>, [room.docs, question.id]);
  const scene = useMemo(() => room.docs.get(`scene:${question.id}`).getMap("scene") as Y.Map<unknown>, [room.docs, question.id]);
  const [tab, setTab] = useState<"notes" | "board">("notes");

  return (
    <div className="design-room">
      <section className="prompt-pane" aria-label={t("rooms:design.prompt")}>
        <h2>{question.title}</h2>
        <Markdown source={question.prompt ?? ""} />
        {room.stage.follow_ups.length > 0 && (
          <>
            <h3>{t("rooms:design.followUps")}</h3>
            <ol className="follow-up-list">
              {room.stage.follow_ups.map((f) => (
                <li key={f.id}>
                  <Markdown source={f.text} />
                </li>
              ))}
            </ol>
          </>
        )}
        <NextQuestionButton room={room} editable={editable} question={question.id} />
        {side}
      </section>
      <section className="work-pane" aria-label={t("rooms:design.yourDesign")}>
        <div className="toolbar">
          <div className="tabs" role="tablist" aria-label={t("rooms:design.views")}>
            <button type="button" role="tab" aria-selected={tab === "notes"} className={`tab ${tab === "notes" ? "active" : ""}`} onClick={() => setTab("notes")}>
              {t("rooms:design.notes")}
            </button>
            <button type="button" role="tab" aria-selected={tab === "board"} className={`tab ${tab === "board" ? "active" : ""}`} onClick={() => setTab("board")}>
              {t("rooms:design.whiteboard")}
            </button>
          </div>
          <span className="spacer" />
          {editable && !room.refused ? <SaveIndicator status={room.saveStatus} /> : <ReadOnlyLabel room={room} />}
        </div>
        {tab === "notes" ? (
          <div className="notes" role="tabpanel">
            {NOTE_SECTIONS.map((s) => (
              <NoteField key={s.key} map={notes} section={s} editable={canEdit} />
            ))}
          </div>
        ) : (
          <div className="board" role="tabpanel">
            <Suspense fallback={<p className="muted">{t("rooms:design.loadingBoard")}</p>}>
              <Whiteboard scene={scene} editable={canDraw} />
            </Suspense>
          </div>
        )}
      </section>
    </div>
  );
}

export function DesignWorkspace({ room, editable, side }: { room: Room; editable: boolean; side?: React.ReactNode }) {
  const questions = room.stage.questions.filter((q) => q.kind === "design");
  const list = questions.length ? questions : room.stage.questions;
  return (
    <>
      {list.map((q) => (
        <DesignQuestion key={q.id} room={room} question={q} editable={editable} side={side} />
      ))}
    </>
  );
}
