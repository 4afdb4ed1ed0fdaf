// The one HTTP client for /api/v1/: session cookie + CSRF header, JSON in and out,
// errors as ApiError carrying the server's `{detail, errors}` body (DESIGN.md "HTTP API").

export type Role = "candidate" | "coach" | "admin";

export interface Me {
  id: number;
  username: string;
  role: Role;
}

export interface LoginResult {
  token: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors: Record<string, unknown>;

  constructor(status: number, detail: string, errors: Record<string, unknown> = {}) {
    super(detail || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
  }
}

/** Thrown when the request never got an HTTP answer (server down, network gone). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super("The server could not be reached.");
    this.name = "NetworkError";
    this.cause = cause;
  }
}

export function readCookie(name: string, cookies: string): string | undefined {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

function documentCookies(): string {
  return typeof document === "undefined" ? "" : document.cookie;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (!SAFE_METHODS.has(method)) {
    const csrf = readCookie("csrftoken", documentCookies());
    if (csrf) headers["X-CSRFToken"] = csrf;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new NetworkError(cause);
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const payload = (data ?? {}) as { detail?: unknown; errors?: Record<string, unknown> };
    const detail = typeof payload.detail === "string" ? payload.detail : response.statusText;
    throw new ApiError(response.status, detail, payload.errors ?? {});
  }
  return data as T;
}

export const api = {
  me: () => request<Me>("GET", "/api/v1/me/"),
  login: (username: string, password: string) =>
    request<LoginResult>("POST", "/api/v1/auth/login/", { username, password }),
  logout: () => request<void>("POST", "/api/v1/auth/logout/"),
};

/** A sentence a person can act on, for any error the client raises. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return "Mockloop's server can't be reached. Is `make run` still running?";
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  switch (error.status) {
    case 404:
      return "This part of the API isn't available on this server yet.";
    case 401:
    case 403:
      return error.detail || "You are not signed in.";
    case 429:
      return "Too many attempts. Wait a minute and try again.";
    default: {
      const fields = Object.entries(error.errors)
        .map(([field, messages]) => `${field}: ${([] as unknown[]).concat(messages).join(" ")}`)
        .join("; ");
      if (error.status >= 500) return "The server had a problem. Please try again.";
      return [error.detail, fields].filter(Boolean).join(" — ") || `Request failed (${error.status}).`;
    }
  }
}
