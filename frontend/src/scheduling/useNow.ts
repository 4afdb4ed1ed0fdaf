import { useEffect, useState } from "react";

/** Date.now(), refreshed every `everyMs` (the "Join room" link appears on its own). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
