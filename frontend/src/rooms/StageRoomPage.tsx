import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { api, describeError } from "../api/client";
import { useMe } from "../auth/session";
import { coachPresent, coachState, soloLabel } from "../lib/coachedStage";
import { startClockQuestion } from "../lib/format";
import type { StageKinds } from "../lib/stageKinds";
import { finishConfirmText } from "./finishConfirm";
import { ChatDock } from "./shared/ChatDock";
import { useIntegritySignals } from "./shared/hooks";
import { RoomLoader, RoomShell } from "./shared/RoomShell";
import { isSolo, SoloNotice } from "./shared/ScriptedInterviewer";
import { type Room, roomActive } from "./shared/useStageRoom";
import { ChatPanel, FollowUpBanners } from "./shared/widgets";

function CandidateRoom({ room, kinds }: { room: Room; kinds: StageKinds }) {
  const { t } = useTranslation();
  const me = useMe();
  const stage = room.stage;
  const isOwner = stage.candidate === me.username;
  const active = roomActive(room);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useIntegritySignals(room.socket, isOwner && active);

  const coach = coachState(stage);
  const coachHere = coachPresent(stage, room.presence);

  async function act(action: "start" | "solo" | "finish") {
    setBusy(true);
    setError(null);
    try {
      if (action === "finish") {
        await room.docs.settled(3000);
        const preview = await api.stageFinishPreview(stage.id);
        if (!window.confirm(finishConfirmText(preview))) return;
        await api.stageFinish(stage.id);
      } else {
        const question = action === "start" ? startClockQuestion(stage.minutes) : null;
        if (question && !window.confirm(question)) return;
        await api.stageStart(stage.id, { solo: action === "solo" });
      }
      await room.reloadStage();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  const liveEvents = room.events.filter((e) => (e.seq ?? 0) > room.syncedSeq);
  const actions = (
    <>
      {isOwner && active && (
        <button type="button" className="secondary small" onClick={() => void act("finish")} disabled={busy}>
          {t("rooms:page.finish")}
        </button>
      )}
      {stage.status === "done" && !room.refused && (
        <>
          <Link className="button secondary small" to={`/stages/${stage.id}/scorecard`}>
            {t("rooms:page.scorecard")}
          </Link>
          <Link className="button secondary small" to={`/stages/${stage.id}/replay`}>
            {t("rooms:page.replay")}
          </Link>
        </>
      )}
    </>
  );

  const notices = (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {room.lastError && <p className="notice small">{room.lastError}</p>}
      {isOwner && coachHere && stage.status !== "done" && (
        <p className="notice ok small" role="status" data-testid="coach-joined">
          {t("rooms:page.coachJoined", { coach: stage.coach })}
        </p>
      )}
      <FollowUpBanners events={liveEvents} />
    </>
  );

  return (
    <RoomShell room={room} kinds={kinds} testId="stage-room" actions={actions} notices={notices}>
      {(spec, view) => {
        if (stage.status === "pending" && coach === "waiting") {
          return (
            <section className="card narrow start-card" data-testid="waiting-for-coach">
              <h2>{t("rooms:page.waitingTitle")}</h2>
              <p>{t("rooms:page.waitingText", { minutes: stage.minutes })}</p>
              {isOwner && !room.refused && (
                <>
                  <p className="small muted">{t("rooms:page.orSolo")}</p>
                  <button type="button" className="secondary" onClick={() => void act("solo")} disabled={busy}>
                    {soloLabel()}
                  </button>
                </>
              )}
            </section>
          );
        }
        if (stage.status === "pending") {
          return (
            <section className="card narrow start-card">
              <h2>{coach === "claimed" ? t("rooms:page.claimedTitle", { coach: stage.coach }) : t("rooms:page.readyTitle")}</h2>
              <p>
                {t("rooms:page.takes", { minutes: stage.minutes })}{" "}
                {coach === "claimed"
                  ? coachHere
                    ? t("rooms:page.coachHere")
                    : t("rooms:page.coachAway")
                  : t("rooms:page.pressStart")}{" "}
                {t("rooms:page.keepsRunning")}
              </p>
              {isOwner && !room.refused && (
                <button type="button" className="primary" onClick={() => void act("start")} disabled={busy}>
                  {t("rooms:page.startClock")}
                </button>
              )}
            </section>
          );
        }
        // Only live rounds have a chat (the async challenge has none); discussion rooms give
        // it a column of its own, the others place it in their layout.
        const solo = spec.live && isSolo(room);
        const chat = spec.live ? (
          <ChatPanel
            stageId={stage.id}
            events={room.events}
            me={me.username}
            closed={stage.status === "done" || room.refused}
            notepad={solo}
          />
        ) : null;
        // Placed in the room's own layout, the chat is docked at the bottom of its pane.
        const docked = chat && (
          <ChatDock events={room.events} me={me.username} syncedSeq={room.syncedSeq} label={solo ? t("rooms:page.notepad") : t("rooms:page.chat")}>
            {chat}
          </ChatDock>
        );
        return (
          <>
            {solo && stage.status === "live" && <SoloNotice />}
            <div className={`room-body ${view.sideChat ? "with-side" : ""}`}>
              <view.Workspace room={room} editable={isOwner} side={view.sideChat ? undefined : docked} />
              {view.sideChat && <aside className="room-side">{chat}</aside>}
            </div>
          </>
        );
      }}
    </RoomShell>
  );
}

export function StageRoomPage() {
  const { stageId } = useParams();
  const me = useMe();
  return (
    <RoomLoader stageId={Number(stageId)} editable={me.role === "candidate"}>
      {(room, kinds) => <CandidateRoom room={room} kinds={kinds} />}
    </RoomLoader>
  );
}
