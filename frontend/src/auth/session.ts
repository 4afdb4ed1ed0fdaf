// Who is signed in, as the landing page needs to know it.
import { ApiError, api, type Me } from "../api/client";

export type Session =
  | { state: "loading" }
  | { state: "signed-in"; me: Me }
  | { state: "signed-out" }
  | { state: "unavailable"; error: unknown };

export async function loadSession(): Promise<Session> {
  try {
    return { state: "signed-in", me: await api.me() };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return { state: "signed-out" };
    }
    return { state: "unavailable", error };
  }
}
