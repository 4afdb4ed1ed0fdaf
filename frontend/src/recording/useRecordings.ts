// The stage's recordings, fetched again whenever a `recording.*` event arrives in the room.
import { useCallback, useEffect, useState } from "react";

import type { Room } from "../rooms/shared/stageRoomSession";
import { type Recording, recordingApi } from "./api";

export function recordingEventCount(room: Room): number {
  return room.events.filter((e) => e.type.startsWith("recording.")).length;
}

export function useRecordings(room: Room): { recordings: Recording[]; reload: () => void } {
  const [recordings, setRecordings] = useState<Recording[]>([]);
  const [generation, setGeneration] = useState(0);
  const changes = recordingEventCount(room);
  const stageId = room.stage.id;
  useEffect(() => {
    let stale = false;
    recordingApi.list(stageId).then(
      (list) => !stale && setRecordings(list),
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [stageId, changes, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { recordings, reload };
}
