import { useState } from "react";
import { Link, useParams } from "react-router";

import { api, describeError } from "../api/client";
import { useMe } from "../auth/session";
import { startClockQuestion } from "../lib/format";
import type { StageKinds } from "../lib/stageKinds";
import { finishConfirmText } from "./finishConfirm";
import { useIntegritySignals } from "./shared/hooks";
import { RoomLoader, RoomShell } from "./shared/RoomShell";
import { isSolo, SoloNotice } from "./shared/ScriptedInterviewer";
import { type Room, roomActive } from "./shared/useStageRoom";
import { ChatPanel, FollowUpBanners } from "./shared/widgets";

function CandidateRoom({ room, kinds }: { room: Room; kinds: StageKinds }) {
  const me = useMe();
  const stage = room.stage;
  const isOwner = stage.candidate === me.username;
  const active = roomActive(room);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useIntegritySignals(room.socket, isOwner && active);

  async function act(action: "start" | "finish") {
    setBusy(true);
    setError(null);
    try {
      if (action === "start") {
        const question = startClockQuestion(stage.minutes);
        if (question && !window.confirm(question)) return;
        await api.stageStart(stage.id);
      } else {
        await room.docs.settled(3000);
        const preview = await api.stageFinishPreview(stage.id);
        if (!window.confirm(finishConfirmText(preview))) return;
        await api.stageFinish(stage.id);
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
          Finish stage
        </button>
      )}
      {stage.status === "done" && !room.refused && (
        <>
          <Link className="button secondary small" to={`/stages/${stage.id}/scorecard`}>
            Scorecard
          </Link>
          <Link className="button secondary small" to={`/stages/${stage.id}/replay`}>
            Replay
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
      <FollowUpBanners events={liveEvents} />
    </>
  );

  return (
    <RoomShell room={room} kinds={kinds} testId="stage-room" actions={actions} notices={notices}>
      {(spec, view) => {
        if (stage.status === "pending") {
          return (
            <section className="card narrow start-card">
              <h2>Ready when you are</h2>
              <p>
                This stage takes {stage.minutes} minutes. The clock starts when you press start and keeps running on the
                server — reloading or losing the connection does not stop it.
              </p>
              {isOwner && !room.refused && (
                <button type="button" className="primary" onClick={() => void act("start")} disabled={busy}>
                  Start the clock
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
        return (
          <>
            {solo && stage.status === "live" && <SoloNotice />}
            <div className={`room-body ${view.sideChat ? "with-side" : ""}`}>
              <view.Workspace room={room} editable={isOwner} side={view.sideChat ? undefined : chat} />
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
