import { afterEach, describe, expect, it, vi } from "vitest";

import { loadSession } from "../auth/session";
import { ApiError, api, describeError, readCookie } from "./client";

function respond(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(body === undefined ? "" : JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
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

  it("raises ApiError with the server's detail and field errors", async () => {
    respond(400, { detail: "Invalid input.", errors: { username: ["This field is required."] } });
    const error = await api.login("", "").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(describeError(error)).toBe("Invalid input. — username: This field is required.");
  });

  it("explains a missing endpoint instead of failing obscurely", async () => {
    respond(404, { detail: "Not found." });
    const session = await loadSession();
    expect(session.state).toBe("unavailable");
    if (session.state === "unavailable") {
      expect(describeError(session.error)).toMatch(/isn't available/);
    }
  });

  it("treats 401/403 from /me/ as signed out", async () => {
    respond(403, { detail: "Authentication credentials were not provided." });
    await expect(loadSession()).resolves.toEqual({ state: "signed-out" });
  });
});
