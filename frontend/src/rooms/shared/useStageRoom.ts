// A live room for React: one StageRoomSession per stage (and editability), opened while the
// component is mounted and read with useSyncExternalStore. Everything the room does —
// loading, the socket, resync, reloads and their backoff — is the session's
// (./stageRoomSession.ts).
import { useEffect, useMemo, useSyncExternalStore } from "react";

import { StageRoomSession, type StageRoomState } from "./stageRoomSession";

export { loadHistory, type Room, roomActive, type StageRoomState, type TimerState } from "./stageRoomSession";

export function useStageRoom(stageId: number, editable: boolean): StageRoomState {
  const session = useMemo(() => new StageRoomSession({ stageId, editable }), [stageId, editable]);
  useEffect(() => {
    session.open();
    return () => session.close();
  }, [session]);
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
