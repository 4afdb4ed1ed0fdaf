// The live room's frame, the same for the candidate (rooms/StageRoomPage) and the coach
// (coach/CoachRoom): header with the stage's status, coach, clock and connection, the
// room's notices, and the body for the stage's room — or, for a kind this build cannot
// show, the "not supported" panel in its place.
import type { ReactNode } from "react";
import { Link } from "react-router";

import type { StageKindSpec } from "../../api/client";
import { stageKindLabel, type StageKinds } from "../../lib/stageKinds";
import { roomFor, type RoomView } from "../registry";
import { UnsupportedStageKind } from "./UnsupportedStageKind";
import type { Room } from "./useStageRoom";
import { ConnectionBadge, Countdown, RoomNotices } from "./widgets";

export function RoomHeader({ room, kinds, children }: { room: Room; kinds: StageKinds; children?: ReactNode }) {
  const stage = room.stage;
  const others = room.presence.filter((p) => p.user !== stage.candidate);
  return (
    <div className="room-header">
      <div className="room-title">
        <p className="crumbs">
          <Link to={`/loops/${stage.loop}`}>Loop</Link> / {stageKindLabel(kinds, stage.kind)}
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

export function RoomShell({
  room,
  kinds,
  className = "",
  testId,
  actions,
  notices,
  children,
}: {
  room: Room;
  kinds: StageKinds;
  className?: string;
  testId: string;
  /** Buttons and state beside the clock: the candidate's finish, the coach's clock controls. */
  actions?: ReactNode;
  /** Shown under the room's own notices, whatever the stage kind. */
  notices?: ReactNode;
  /** The body, given the stage kind's spec and room. */
  children: (spec: StageKindSpec, view: RoomView) => ReactNode;
}) {
  const shown = roomFor(kinds, room.stage.kind);
  return (
    <main id="main" className={`room ${className} ${room.refused ? "room-inert" : ""}`} data-testid={testId}>
      <RoomHeader room={room} kinds={kinds}>
        {actions}
      </RoomHeader>
      <RoomNotices room={room} />
      {notices}
      {shown ? children(shown.spec, shown.view) : <UnsupportedStageKind kind={room.stage.kind} />}
    </main>
  );
}
