import { afterEach, describe, expect, it, vi } from "vitest";

import { loadSession } from "../auth/session";
import { ApiError, api, describeError, fieldErrors, NetworkError, onSignedOut, readCookie } from "./client";

function respond(status: number, body: unknown) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
    new Response(body === undefined ? "" : JSON.stringify(body), { status }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = "csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT";
});

describe("readCookie", () => {
  it("finds a cookie among several and decodes it", () => {
    expect(readCookie("csrftoken", "sessionid=abc; csrftoken=t%3Dk; x=1")).toBe("t=k");
    expect(readCookie("missing", "a=1")).toBeUndefined();
  });
});

describe("api client", () => {
  it("returns the JSON body of a successful call", async () => {
    const fetchMock = respond(200, { id: 1, username: "candidate", role: "candidate" });
    await expect(api.me()).resolves.toEqual({ id: 1, username: "candidate", role: "candidate" });
    expect(fetchMock).toHaveBeenCalledWith("/api/v1/me/", expect.objectContaining({ method: "GET" }));
  });

  it("sends the CSRF cookie back as X-CSRFToken on unsafe methods only", async () => {
    document.cookie = "csrftoken=abc123";
    const fetchMock = respond(201, { id: 7 });
    await api.loopStart("ai-lab-infra-sde", true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/v1/loops/");
    expect((init!.headers as Record<string, string>)["X-CSRFToken"]).toBe("abc123");
    expect(JSON.parse(String(init!.body))).toEqual({ template: "ai-lab-infra-sde", coached: true });

    respond(200, []);
    await api.loops();
    const getInit = (vi.mocked(fetch).mock.calls[0]![1] ?? {}) as RequestInit;
    expect((getInit.headers as Record<string, string>)["X-CSRFToken"]).toBeUndefined();
  });

  it("raises ApiError with the server's field errors, shown once", async () => {
    respond(400, { detail: "username: taken", errors: { username: ["A user with that username already exists."] } });
    const error = await api.signup("x", "y").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(describeError(error)).toBe("username: A user with that username already exists.");
    expect(fieldErrors(error)).toEqual({ username: "A user with that username already exists." });
  });

  it("shows non-field errors without a field prefix", async () => {
    respond(400, { detail: "Wrong username or password.", errors: { non_field_errors: ["Wrong username or password."] } });
    const error = await api.login("a", "b").catch((e: unknown) => e);
    expect(describeError(error)).toBe("Wrong username or password.");
  });

  it("accepts DRF's plain field-error bodies too", async () => {
    respond(400, { code: ["Too long."] });
    const error = await api.stageStart(3).catch((e: unknown) => e);
    expect(describeError(error)).toBe("code: Too long.");
  });

  it("uses the detail of a conflict, not its machine context", async () => {
    respond(409, { detail: "Another stage of this loop is live (Screen); finish it first.", errors: { live_stage: 4 } });
    const error = (await api.stageStart(3).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(409);
    expect(error.errors).toEqual({ live_stage: 4 });
    expect(describeError(error)).toBe("Another stage of this loop is live (Screen); finish it first.");
  });

  it("says which limit a 429 hit, or a general sentence without one", () => {
    const busy = "You already have 2 submissions waiting for the judge (at most 2 at a time). Send this one when one of them has its verdict.";
    expect(describeError(new ApiError(429, busy))).toBe(busy);
    expect(describeError(new ApiError(429, ""))).toBe("Too many attempts. Wait a minute and try again.");
  });

  it("says not found plainly", async () => {
    respond(404, { detail: "Loop not found.", errors: {} });
    const error = await api.loop(99).catch((e: unknown) => e);
    expect(describeError(error)).toBe("Loop not found.");
  });

  it("hides server internals behind a retry message", async () => {
    respond(500, { detail: "Traceback…" });
    const error = await api.loops().catch((e: unknown) => e);
    expect(describeError(error)).toBe("The server had a problem. Please try again.");
  });

  it("reports a 401 as a sign-in that ended, except from the sign-in forms themselves", async () => {
    const ended = vi.fn();
    const off = onSignedOut(ended);
    respond(401, { detail: "The token has expired; sign in again.", code: "token_expired" });
    await expect(api.me()).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    respond(401, { detail: "Wrong username or password." });
    await expect(api.login("a", "b")).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    off();
  });

  it("turns a failed fetch into a NetworkError", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const error = await api.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(describeError(error)).toMatch(/can't be reached/);
  });

  it("asks auth/session, which says who is signed in or nobody with a 200", async () => {
    const fetchMock = respond(200, { me: null });
    await expect(loadSession()).resolves.toEqual({ state: "signed-out" });
    expect(fetchMock).toHaveBeenCalledWith("/api/v1/auth/session/", expect.objectContaining({ method: "GET" }));
    respond(200, { me: { id: 1, username: "ada", role: "candidate" } });
    await expect(loadSession()).resolves.toEqual({ state: "signed-in", me: { id: 1, username: "ada", role: "candidate" } });
  });

  it("treats 401/403 from the session as signed out", async () => {
    respond(403, { detail: "Authentication credentials were not provided." });
    await expect(loadSession()).resolves.toEqual({ state: "signed-out" });
  });

  it("reports other session failures as unavailable", async () => {
    respond(502, undefined);
    const session = await loadSession();
    expect(session.state).toBe("unavailable");
  });
});
