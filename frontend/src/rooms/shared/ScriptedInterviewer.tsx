// The scripted interviewer of a solo stage, as the candidate meets it: "Next question"
// asks for its next follow-up at once (it also asks by itself once an answer has grown
// enough), and the notice that says nobody else is in the room.
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describeError } from "../../api/client";
import { type Room, roomActive } from "./useStageRoom";

/** A stage the scripted interviewer runs: nobody coaches it and nobody was asked to. */
export function isSolo(room: Room): boolean {
  return !room.stage.coach && !room.stage.coach_requested;
}

export function NextQuestionButton({ room, editable, question }: { room: Room; editable: boolean; question?: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const left = room.stage.scripted_follow_ups_left ?? 0;
  if (!editable || !roomActive(room) || left <= 0) return null;

  async function ask() {
    setBusy(true);
    setError(null);
    try {
      await api.nextFollowUp(room.stage.id, question ?? null);
      await room.reloadStage();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="next-question">
      <button type="button" className="secondary small" onClick={() => void ask()} disabled={busy} data-testid="next-question">
        {t("rooms:scripted.next")}
      </button>
      <span className="muted small">{t("rooms:scripted.left", { count: left })}</span>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function SoloNotice() {
  const { t } = useTranslation();
  return (
    <p className="notice small solo-notice" data-testid="solo-notice">
      {t("rooms:scripted.solo")}
    </p>
  );
}
