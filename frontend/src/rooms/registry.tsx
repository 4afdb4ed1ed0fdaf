// The frontend half of the stage-kind registry: the server's spec of a kind names a room
// (interviews/stage_kinds.py, `GET /api/v1/stage-kinds/`), and this maps each room name to
// the component that renders it. A new stage kind that fits an existing room needs nothing
// here; a new room is one entry (docs/adding-a-stage-kind.md).
import type { ComponentType, ReactNode } from "react";

import type { RoomName, StageKindSpec } from "../api/client";
import type { StageKinds } from "../lib/stageKinds";
import { CodingWorkspace } from "./coding/CodingWorkspace";
import { DesignWorkspace } from "./design/DesignRoom";
import { DiscussionWorkspace } from "./discussion/DiscussionRoom";
import { ReviewWorkspace } from "./review/ReviewRoom";
import type { Room } from "./shared/useStageRoom";

export interface WorkspaceProps {
  room: Room;
  editable: boolean;
  /** The chat, for rooms that place it inside their own layout. */
  side?: ReactNode;
}

export interface RoomView {
  Workspace: ComponentType<WorkspaceProps>;
  /** The candidate's chat sits in a column of its own beside the workspace; otherwise the
   * workspace places it (`side`). */
  sideChat: boolean;
}

export const ROOMS: Record<RoomName, RoomView> = {
  coding: { Workspace: CodingWorkspace, sideChat: false },
  design: { Workspace: DesignWorkspace, sideChat: false },
  review: { Workspace: ReviewWorkspace, sideChat: false },
  discussion: { Workspace: DiscussionWorkspace, sideChat: true },
};

/** The room a stage of `kind` is shown in: undefined when the server does not list the kind,
 * or names a room this build does not have. */
export function roomFor(kinds: StageKinds, kind: string): { spec: StageKindSpec; name: RoomName; view: RoomView } | undefined {
  const spec = kinds.get(kind);
  if (!spec || !Object.hasOwn(ROOMS, spec.room)) return undefined;
  const name = spec.room as RoomName;
  return { spec, name, view: ROOMS[name] };
}
