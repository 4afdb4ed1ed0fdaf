// Who is signed in: loaded once from /api/v1/auth/session/, refreshed after sign-in and sign-out.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";

import { ApiError, api, type Me, onSignedOut } from "../api/client";
import { i18next, matchLanguage, setLanguage } from "../i18n";

export type Session =
  | { state: "loading" }
  | { state: "signed-in"; me: Me }
  /** `ended`: the server ended a sign-in this page had (logout elsewhere, expiry). */
  | { state: "signed-out"; ended?: boolean }
  | { state: "unavailable"; error: unknown };

export async function loadSession(): Promise<Session> {
  try {
    // auth/session answers 200 signed out too: asking `me` would log a 401 in the console.
    const { me } = await api.session();
    return me ? { state: "signed-in", me } : { state: "signed-out" };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return { state: "signed-out" };
    }
    return { state: "unavailable", error };
  }
}

interface SessionValue {
  session: Session;
  refresh: () => Promise<Session>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ state: "loading" });

  const refresh = useCallback(async () => {
    const asked = i18next.language;
    const next = await loadSession();
    // The account's language wins on every device once it was chosen ("" until then) —
    // unless the person switched while the session was on its way (that choice is newer).
    const saved = next.state === "signed-in" ? matchLanguage(next.me.language) : null;
    if (saved && i18next.language === asked) await setLanguage(saved);
    setSession(next);
    return next;
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // A 401 or a socket closed with 4401 while signed in: the sign-in ended on the server.
  useEffect(
    () =>
      onSignedOut(() =>
        setSession((current) => (current.state === "signed-in" ? { state: "signed-out", ended: true } : current)),
      ),
    [],
  );

  const signOut = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      await refresh();
    }
  }, [refresh]);

  const value = useMemo(() => ({ session, refresh, signOut }), [session, refresh, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return value;
}

/** The signed-in user; only for pages rendered inside <RequireAuth>. */
export function useMe(): Me {
  const { session } = useSession();
  if (session.state !== "signed-in") throw new Error("useMe needs a signed-in session");
  return session.me;
}

/** The zone to show times in: the account's, when set in the settings, else the browser's.
 * Outside a signed-in session (tests, signed-out pages) the browser's. */
export function useTimeZone(fallback: () => string): string {
  const value = useContext(SessionContext);
  const zone = value?.session.state === "signed-in" ? value.session.me.time_zone : undefined;
  return zone || fallback();
}
