import { useState } from "react";
import { Link, useParams } from "react-router";

import { api, describeError } from "../api/client";
import { useMe } from "../auth/session";
import { STAGE_KIND_LABEL } from "../lib/format";
import { Problem } from "../pages/Problem";
import { CodingWorkspace } from "./coding/CodingWorkspace";
import { DesignWorkspace } from "./design/DesignRoom";
import { DiscussionWorkspace } from "./discussion/DiscussionRoom";
import { ReviewWorkspace } from "./review/ReviewRoom";
import { useIntegritySignals } from "./shared/hooks";
import { type Room, roomActive, useStageRoom } from "./shared/useStageRoom";
import { ChatPanel, ConnectionBadge, Countdown, FollowUpBanners, RoomNotices } from "./shared/widgets";

/** Kinds whose chat sits in a column of its own; the others fold it into their layout. */
const SIDE_CHAT = new Set(["screen", "hm_call", "deep_dive", "values"]);

export function Workspace({ room, editable, side }: { room: Room; editable: boolean; side?: React.ReactNode }) {
  switch (room.stage.kind) {
    case "challenge":
    case "coding":
      return <CodingWorkspace room={room} editable={editable} side={side} />;
    case "design":
      return <DesignWorkspace room={room} editable={editable} side={side} />;
    case "review":
      return <ReviewWorkspace room={room} editable={editable} side={side} />;
    default:
      return <DiscussionWorkspace room={room} editable={editable} />;
  }
}

export function RoomHeader({ room, children }: { room: Room; children?: React.ReactNode }) {
  const stage = room.stage;
  const others = room.presence.filter((p) => p.user !== stage.candidate);
  return (
    <div className="room-header">
      <div className="room-title">
        <p className="crumbs">
          <Link to={`/loops/${stage.loop}`}>Loop</Link> / {STAGE_KIND_LABEL[stage.kind]}
        </p>
        <h1>{stage.title}</h1>
      </div>
      <div className="room-status">
        <span className={`badge status-${stage.status} ${room.refused ? "stale" : ""}`} data-testid="stage-status">
          {stage.status}
        </span>
        {stage.coach ? (
          <span className="small muted">coach {stage.coach}{others.some((p) => p.user === stage.coach) ? " · here" : ""}</span>
        ) : stage.coach_requested ? (
          <span className="small muted">waiting for a coach</span>
        ) : null}
        <Countdown timer={room.timer} stale={room.refused} />
        <ConnectionBadge state={room.connection} />
        {children}
      </div>
    </div>
  );
}

function CandidateRoom({ room }: { room: Room }) {
  const me = useMe();
  const stage = room.stage;
  const isOwner = stage.candidate === me.username;
  const active = roomActive(room);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useIntegritySignals(room.socket, isOwner && active);

  async function act(action: "start" | "finish") {
    if (action === "finish" && !window.confirm("Finish this stage? You cannot edit it afterwards.")) return;
    setBusy(true);
    setError(null);
    try {
      if (action === "start") await api.stageStart(stage.id);
      else await api.stageFinish(stage.id);
      await room.reloadStage();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  const liveEvents = room.events.filter((e) => (e.seq ?? 0) > room.syncedSeq);
  const showChat = stage.kind !== "challenge";
  const chat = showChat ? <ChatPanel stageId={stage.id} events={room.events} me={me.username} closed={stage.status === "done" || room.refused} /> : null;

  return (
    <main id="main" className={`room ${room.refused ? "room-inert" : ""}`} data-testid="stage-room">
      <RoomHeader room={room}>
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
      </RoomHeader>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <RoomNotices room={room} />
      {room.lastError && <p className="notice small">{room.lastError}</p>}
      <FollowUpBanners events={liveEvents} />
      {stage.status === "pending" ? (
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
      ) : (
        <div className={`room-body ${SIDE_CHAT.has(stage.kind) ? "with-side" : ""}`}>
          <Workspace room={room} editable={isOwner} side={SIDE_CHAT.has(stage.kind) ? undefined : chat} />
          {SIDE_CHAT.has(stage.kind) && <aside className="room-side">{chat}</aside>}
        </div>
      )}
    </main>
  );
}

export function StageRoomPage() {
  const { stageId } = useParams();
  const me = useMe();
  const id = Number(stageId);
  const { room, problem, retry } = useStageRoom(id, me.role === "candidate");
  if (room) return <CandidateRoom room={room} />;
  if (problem) return <Problem error={problem.error} retry={{ problem, onRetry: retry }} />;
  return <main id="main" className="room"><p className="muted">Loading the room…</p></main>;
}
