// The live room's frame, the same for the candidate (rooms/StageRoomPage) and the coach
// (coach/CoachRoom): the opening (the room's session and the served stage kinds, with a
// full-page problem if either fails), then the header with the stage's status, coach,
// clock and connection, the room's notices, the call (live kinds with a coach), and the body
// for the stage's room — or, for a kind this build cannot show, the "not supported" panel in
// its place.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { StageKindSpec } from "../../api/client";
import { stageKindLabel, type StageKinds, stageKindsStore, useStageKinds } from "../../lib/stageKinds";
import { Problem } from "../../pages/Problem";
import { roomFor, type RoomView } from "../registry";
import { CallPanel, callWanted } from "./call/CallPanel";
import { UnsupportedStageKind } from "./UnsupportedStageKind";
import { type Room, useStageRoom } from "./useStageRoom";
import { ConnectionBadge, Countdown, RoomNotices } from "./widgets";

export function RoomHeader({ room, kinds, children }: { room: Room; kinds: StageKinds; children?: ReactNode }) {
  const { t } = useTranslation();
  const stage = room.stage;
  const others = room.presence.filter((p) => p.user !== stage.candidate);
  return (
    <div className="room-header">
      <div className="room-title">
        <p className="crumbs">
          <Link to={`/loops/${stage.loop}`}>{t("rooms:shell.loop")}</Link> / {stageKindLabel(kinds, stage.kind)}
        </p>
        <h1>{stage.title}</h1>
      </div>
      <div className="room-status">
        <span className={`badge status-${stage.status} ${room.refused ? "stale" : ""}`} data-testid="stage-status">
          {t(`common:stageStatus.${stage.status}`)}
        </span>
        {stage.coach ? (
          <span className="small muted">
            {others.some((p) => p.user === stage.coach)
              ? t("rooms:shell.coachHere", { coach: stage.coach })
              : t("rooms:shell.coach", { coach: stage.coach })}
          </span>
        ) : stage.coach_requested ? (
          <span className="small muted">{t("rooms:shell.waitingForCoach")}</span>
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
      {shown && !room.refused && callWanted(room.stage, shown.spec.live) && <CallPanel room={room} />}
      {shown ? children(shown.spec, shown.view) : <UnsupportedStageKind kind={room.stage.kind} />}
    </main>
  );
}

/** Opens the stage's room (`editable`: the candidate's own edits count) and renders it once
 * it and the stage kinds are here; until then "Loading", or the opening's problem. */
export function RoomLoader({
  stageId,
  editable,
  children,
}: {
  stageId: number;
  editable: boolean;
  children: (room: Room, kinds: StageKinds) => ReactNode;
}) {
  const { t } = useTranslation();
  const { room, problem, retry } = useStageRoom(stageId, editable);
  const { kinds, problem: kindsProblem } = useStageKinds();
  if (room && kinds) return children(room, kinds);
  if (problem) return <Problem error={problem.error} retry={{ problem, onRetry: retry }} />;
  if (kindsProblem) return <Problem error={kindsProblem.error} retry={{ problem: kindsProblem, onRetry: stageKindsStore.retry }} />;
  return (
    <main id="main" className="room">
      <p className="muted">{t("rooms:shell.loading")}</p>
    </main>
  );
}
