// The one HTTP client for /api/v1/: session cookie + CSRF header, JSON in and out,
// errors as ApiError carrying the server's `{detail, errors}` body (DESIGN.md "HTTP API").
// Types come from the OpenAPI schema (src/api/schema.d.ts, `npm run gen:api`).
import type { components } from "./schema";

type S = components["schemas"];

export type Role = "candidate" | "coach" | "admin";
export interface Me {
  id: number;
  username: string;
  email?: string;
  role: Role;
}
export type TokenOut = S["TokenOut"];
export type LoopTemplate = S["LoopTemplateOut"];
export type Loop = S["LoopOut"];
export type StageSummary = S["StageSummary"];
export type StageKind = S["StageKindEnum"];
export type StageStatus = S["StageStatusEnum"];
export type StageCandidate = S["StageCandidate"];
export type StageCoach = S["StageCoach"];
export type StageDetail = StageCandidate | StageCoach;
export type StageQuestion = S["StageQuestionCandidate"] | S["StageQuestionCoach"];
export type StageQuestionCoach = S["StageQuestionCoach"];
export type FollowUpCoach = S["FollowUpCoach"];
export type PushedFollowUp = S["PushedFollowUp"];
export type Part = S["PartOut"] & { locked?: boolean };
export type Answer = S["AnswerOut"];
export type Submission = S["SubmissionOut"];
export type SubmissionQueued = S["SubmissionQueued"];
export type SubmissionInput = S["SubmissionInputRequest"];
export type TestResult = S["TestResultOut"];
export type ReviewComment = S["ReviewCommentOut"];
export type ReviewCommentInput = S["ReviewCommentInputRequest"];
export type ReviewCategory = S["CategoryEnum"];
export type ReviewScore = S["ReviewScore"];
export type Scorecard = S["ScorecardCoach"];
export type ScorecardInput = S["ScorecardInputRequest"];
export type Recommendation = S["RecommendationEnum"];
export type Rubric = S["RubricOut"];
export type QueueEntry = S["QueueEntry"];
export type CoachNote = S["CoachNoteOut"];
export type Timer = S["Timer"];
export type Language = S["LanguageEnum"];

/** One shared document's merged state, as `GET /stages/{id}/documents/` returns it. */
export interface DocumentState {
  name: string;
  state: string;
  seq: number;
  text: string;
  language: string;
}
export interface StageDocuments {
  last_seq: number;
  documents: DocumentState[];
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

/** DRF puts field errors at the top level of a 400 body; our handler nests them under
 * `errors`. Accept both so a field error is never lost. */
function errorsOf(payload: Record<string, unknown>): Record<string, unknown> {
  if (payload.errors && typeof payload.errors === "object" && !Array.isArray(payload.errors)) {
    return payload.errors as Record<string, unknown>;
  }
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key !== "detail" && key !== "errors") rest[key] = value;
  }
  return rest;
}

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
    const payload = (data && typeof data === "object" && !Array.isArray(data) ? data : {}) as Record<
      string,
      unknown
    >;
    const detail = typeof payload.detail === "string" ? payload.detail : response.statusText;
    throw new ApiError(response.status, detail, errorsOf(payload));
  }
  return data as T;
}

const get = <T>(path: string) => request<T>("GET", path);
const post = <T>(path: string, body?: unknown) => request<T>("POST", path, body);

export const api = {
  me: () => get<Me>("/api/v1/me/"),
  login: (username: string, password: string) =>
    post<TokenOut>("/api/v1/auth/login/", { username, password }),
  signup: (username: string, password: string, email = "") =>
    post<TokenOut>("/api/v1/auth/signup/", { username, password, email }),
  logout: () => post<void>("/api/v1/auth/logout/"),

  loopTemplates: () => get<LoopTemplate[]>("/api/v1/loop-templates/"),
  loops: () => get<Loop[]>("/api/v1/loops/"),
  loop: (id: number) => get<Loop>(`/api/v1/loops/${id}/`),
  loopStart: (template: string, coached: boolean) =>
    post<Loop>("/api/v1/loops/", { template, coached }),

  stage: (id: number) => get<StageDetail>(`/api/v1/stages/${id}/`),
  stageStart: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/start/`),
  stageFinish: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/finish/`),
  stageDocuments: (id: number) => get<StageDocuments>(`/api/v1/stages/${id}/documents/`),
  answerSave: (id: number, body: { question: number | null; text?: string; notes?: object; scene?: object }) =>
    post<Answer>(`/api/v1/stages/${id}/answers/`, body),
  reviewComments: (id: number) => get<ReviewComment[]>(`/api/v1/stages/${id}/review-comments/`),
  reviewCommentCreate: (id: number, body: ReviewCommentInput) =>
    post<ReviewComment>(`/api/v1/stages/${id}/review-comments/`, body),
  reviewScore: (id: number) => get<ReviewScore>(`/api/v1/stages/${id}/review-score/`),
  scorecard: (id: number) => get<Scorecard>(`/api/v1/stages/${id}/scorecard/`),
  scorecardSave: (id: number, body: ScorecardInput) =>
    request<Scorecard>("PUT", `/api/v1/stages/${id}/scorecard/`, body),
  chat: (id: number, text: string) => post<{ seq: number }>(`/api/v1/stages/${id}/chat/`, { text }),
  timer: (id: number, action: "pause" | "resume" | "extend", minutes = 0) =>
    post<Timer>(`/api/v1/stages/${id}/timer/`, { action, minutes }),

  submissionCreate: (body: SubmissionInput) => post<SubmissionQueued>("/api/v1/submissions/", body),
  submission: (id: number) => get<Submission>(`/api/v1/submissions/${id}/`),

  coachQueue: () => get<QueueEntry[]>("/api/v1/coach/queue/"),
  claim: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/claim/`),
  pushFollowUp: (id: number, body: { follow_up: number } | { text: string }) =>
    post<PushedFollowUp>(`/api/v1/stages/${id}/follow-ups/`, body),
  notes: (id: number) => get<CoachNote[]>(`/api/v1/stages/${id}/notes/`),
  noteCreate: (id: number, text: string) => post<CoachNote>(`/api/v1/stages/${id}/notes/`, { text }),
};

function fieldMessages(errors: Record<string, unknown>): string {
  return Object.entries(errors)
    .map(([field, messages]) => {
      const text =
        messages && typeof messages === "object" && !Array.isArray(messages)
          ? fieldMessages(messages as Record<string, unknown>)
          : ([] as unknown[]).concat(messages).join(" ");
      return field === "non_field_errors" ? text : `${field}: ${text}`;
    })
    .join("; ");
}

/** A sentence a person can act on, for any error the client raises. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return "Mockloop's server can't be reached. Check your connection and try again.";
  if (!(error instanceof ApiError)) {
    return error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
  }
  switch (error.status) {
    case 401:
      return error.detail || "You are not signed in.";
    case 403:
      return error.detail || "You may not do this.";
    case 404:
      return error.detail || "Not found.";
    case 413:
      return error.detail || "That is too large.";
    case 429:
      return "Too many attempts. Wait a minute and try again.";
    default: {
      if (error.status >= 500) return "The server had a problem. Please try again.";
      // 400: the field errors say it all (`detail` repeats the first of them); other
      // statuses (409 …) carry a sentence in `detail` and machine context in `errors`.
      const fields = error.status === 400 ? fieldMessages(error.errors) : "";
      return fields || error.detail || `Request failed (${error.status}).`;
    }
  }
}

/** Field → messages of a 400, for showing errors beside their inputs. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    out[field] = ([] as unknown[]).concat(messages).map(String).join(" ");
  }
  return out;
}
