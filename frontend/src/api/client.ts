// The one HTTP client for /api/v1/: session cookie + CSRF header, JSON in and out,
// errors as ApiError carrying the server's `{detail, errors}` body (DESIGN.md "HTTP API").
// Types come from the OpenAPI schema (src/api/schema.d.ts, `npm run gen:api`).
import { currentLanguage, i18next } from "../i18n";
import type { LoggedEvent } from "../ws/events.gen";
import type { components } from "./schema";

type S = components["schemas"];

export type Role = "candidate" | "coach" | "admin";
export interface Me {
  id: number;
  username: string;
  email?: string;
  role: Role;
  /** IANA zone chosen in the settings; "" (or absent) means the browser's own. */
  time_zone?: string;
  language?: string;
}
export type AccountSettings = S["AccountSettingsOut"];
export type AccountLanguage = S["AccountLanguageEnum"];
export type TokenOut = S["TokenOut"];
export type LoopTemplate = S["LoopTemplateOut"];
export type Loop = S["LoopOut"];
export type StageSummary = S["StageSummary"];
export type FinishPreview = S["FinishPreview"];
export type StageKind = S["StageKindEnum"];
/** One stage kind as the server's registry describes it (interviews/stage_kinds.py). Its
 * kind and room are plain strings: a newer server may name ones this build does not know. */
export type StageKindSpec = Omit<S["StageKindOut"], "kind" | "room"> & { kind: string; room: string };
export type RoomName = S["RoomEnum"];
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
export type StageScorecard = S["StageScorecard"];
export type AutoScorecard = S["AutoScorecard"];
export type ModelAnswers = S["ModelAnswers"];
export type SelfAssessment = S["SelfAssessmentOut"];
export type SelfAssessmentInput = S["SelfAssessmentInputRequest"];
export type ScorecardInput = S["ScorecardInputRequest"];
export type Recommendation = S["RecommendationEnum"];
export type Rubric = S["RubricOut"];
export type QueueEntry = S["QueueEntry"];
export type CoachNote = S["CoachNoteOut"];
export type Timer = S["Timer"];
export type Language = S["LanguageEnum"];
export type QuestionAdmin = S["QuestionAdmin"];
export type QuestionSummary = S["QuestionSummary"];
export type VerificationQueued = S["VerificationQueued"];
export type BankImportResult = S["BankImportResult"];
export type LoopReport = S["LoopReport"];
export type ReportStage = S["ReportStage"];
export type ProgressData = S["Progress"];
export type Calibration = S["Calibration"];
export type DeepDiveFeedback = S["DeepDiveFeedback"];
export type CommentMatch = S["CommentMatch"];
export type FlawResult = S["FlawResult"];
export type StudyPlan = S["Plan"];
export type StudyPlanSummary = S["PlanSummary"];
export type StudyPlanDay = S["PlanDay"];
export type StudyPlanPractice = S["PlanPractice"];
/** STUN/TURN servers for a live room's call; TURN credentials expire after `ttl` seconds. */
export type IceServers = S["IceServersOut"];

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
  /** The stable machine-readable `code` of the error body ("" when it had none). */
  readonly code: string;
  /** The whole error body: some conflicts carry what resolves them (e.g. `flaws`). */
  readonly payload: Record<string, unknown>;

  constructor(status: number, detail: string, errors: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) {
    super(detail || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
    this.payload = payload;
    this.code = typeof payload.code === "string" ? payload.code : "";
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

/** `body` is sent as JSON, unless it is a `RawBody` (text with its own content type). */
export interface RawBody {
  raw: string;
  contentType: string;
}

function isRaw(body: unknown): body is RawBody {
  return typeof body === "object" && body !== null && "raw" in body && "contentType" in body;
}

/** Told when the server says the caller is no longer signed in: a 401 from any request but
 * the sign-in forms' own, or a room socket closed with 4401 (logout elsewhere, expiry). */
type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();

export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function reportSignedOut(): void {
  for (const listener of signedOutListeners) listener();
}

const SIGN_IN_PATHS = new Set(["/api/v1/auth/login/", "/api/v1/auth/signup/", "/api/v1/auth/logout/"]);

/** `?lang=…` for a read asked in a language other than the interface's, else nothing. */
function langQuery(lang: string | undefined): string {
  return lang ? `?lang=${encodeURIComponent(lang)}` : "";
}

/** The language a bank object's text is actually in, when the server says (`language`). */
export function textLanguage(object: object): string | undefined {
  const language = (object as { language?: unknown }).language;
  return typeof language === "string" && language ? language : undefined;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  // The server answers errors and bank text in the interface's language (DESIGN.md "Languages").
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": currentLanguage() };
  if (body !== undefined) headers["Content-Type"] = isRaw(body) ? body.contentType : "application/json";
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
      body: body === undefined ? undefined : isRaw(body) ? body.raw : JSON.stringify(body),
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
    if (response.status === 401 && !SIGN_IN_PATHS.has(path)) reportSignedOut();
    throw new ApiError(response.status, detail, errorsOf(payload), payload);
  }
  return data as T;
}

const get = <T>(path: string) => request<T>("GET", path);

/** POST a form with a file, reporting the upload's progress (`fetch` cannot): the bank
 * file goes to the server as it is, never read into the page. */
export function uploadForm<T>(path: string, form: FormData, onProgress?: (sent: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Accept-Language", currentLanguage());
    const csrf = readCookie("csrftoken", documentCookies());
    if (csrf) xhr.setRequestHeader("X-CSRFToken", csrf);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onerror = () => reject(new NetworkError(new Error("upload failed")));
    xhr.onload = () => {
      let data: unknown = undefined;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T);
        return;
      }
      const payload = (data && typeof data === "object" && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
      const detail = typeof payload.detail === "string" ? payload.detail : xhr.statusText;
      reject(new ApiError(xhr.status, detail, errorsOf(payload), payload));
    };
    xhr.send(form);
  });
}

/** `?a=1&b=x` from the defined entries of `params` ("" when none). */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
const post = <T>(path: string, body?: unknown) => request<T>("POST", path, body);

export const api = {
  me: () => get<Me>("/api/v1/me/"),
  session: () => get<{ me: Me | null }>("/api/v1/auth/session/"),
  login: (username: string, password: string) =>
    post<TokenOut>("/api/v1/auth/login/", { username, password }),
  signup: (username: string, password: string, email = "") =>
    post<TokenOut | { detail: string }>("/api/v1/auth/signup/", { username, password, email }),
  verifyEmail: (token: string) => post<void>("/api/v1/auth/verify-email/", { token }),
  logout: () => post<void>("/api/v1/auth/logout/"),
  accountSettings: () => get<AccountSettings>("/api/v1/me/settings/"),
  accountSettingsUpdate: (changes: Partial<Pick<AccountSettings, "email" | "time_zone" | "language">>) =>
    request<AccountSettings>("PATCH", "/api/v1/me/settings/", changes),
  accountDelete: (password: string) => post<void>("/api/v1/me/delete/", { password }),
  passwordChange: (currentPassword: string, newPassword: string) =>
    post<void>("/api/v1/me/password/", { current_password: currentPassword, new_password: newPassword }),
  passwordResetRequest: (email: string) => post<{ detail: string }>("/api/v1/auth/password-reset/", { email }),
  passwordResetConfirm: (uid: string, token: string, newPassword: string) =>
    post<void>("/api/v1/auth/password-reset/confirm/", { uid, token, new_password: newPassword }),

  iceServers: () => get<IceServers>("/api/v1/rtc/ice-servers/"),
  stageKinds: () => get<StageKindSpec[]>("/api/v1/stage-kinds/"),
  loopTemplates: () => get<LoopTemplate[]>("/api/v1/loop-templates/"),
  loops: () => get<Loop[]>("/api/v1/loops/"),
  plans: () => get<StudyPlanSummary[]>("/api/v1/plans/"),
  plan: (slug: string) => get<StudyPlan>(`/api/v1/plans/${encodeURIComponent(slug)}/`),
  planStart: (slug: string, restart = false) =>
    post<StudyPlan>(`/api/v1/plans/${encodeURIComponent(slug)}/start/`, { restart }),
  loop: (id: number) => get<Loop>(`/api/v1/loops/${id}/`),
  loopStart: (template: string, coached: boolean) =>
    post<Loop>("/api/v1/loops/", { template, coached }),

  /** `lang`: the bank text in that language where it is translated (DESIGN.md "Languages"). */
  stage: (id: number, lang?: string) => get<StageDetail>(`/api/v1/stages/${id}/${langQuery(lang)}`),
  /** `solo`: the candidate runs a coached stage without waiting for a coach. */
  stageStart: (id: number, options: { solo?: boolean } = {}) =>
    post<StageSummary>(`/api/v1/stages/${id}/start/`, options),
  stageFinish: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/finish/`),
  stageFinishPreview: (id: number) => get<FinishPreview>(`/api/v1/stages/${id}/finish/`),
  stageDocuments: (id: number) => get<StageDocuments>(`/api/v1/stages/${id}/documents/`),
  answerSave: (id: number, body: { question: number | null; text?: string; notes?: object; scene?: object }) =>
    post<Answer>(`/api/v1/stages/${id}/answers/`, body),
  reviewComments: (id: number) => get<ReviewComment[]>(`/api/v1/stages/${id}/review-comments/`),
  reviewCommentCreate: (id: number, body: ReviewCommentInput) =>
    post<ReviewComment>(`/api/v1/stages/${id}/review-comments/`, body),
  reviewCommentUpdate: (id: number, commentId: number, body: Partial<Omit<ReviewCommentInput, "question">>) =>
    request<ReviewComment>("PATCH", `/api/v1/stages/${id}/review-comments/${commentId}/`, body),
  reviewCommentDelete: (id: number, commentId: number) =>
    request<void>("DELETE", `/api/v1/stages/${id}/review-comments/${commentId}/`),
  reviewScore: (id: number) => get<ReviewScore>(`/api/v1/stages/${id}/review-score/`),
  scorecard: (id: number, lang?: string) => get<StageScorecard>(`/api/v1/stages/${id}/scorecard/${langQuery(lang)}`),
  selfAssessment: (id: number) => get<SelfAssessment>(`/api/v1/stages/${id}/self-assessment/`),
  selfAssessmentSave: (id: number, body: SelfAssessmentInput) =>
    request<SelfAssessment>("PUT", `/api/v1/stages/${id}/self-assessment/`, body),
  modelAnswers: (id: number, lang?: string) => get<ModelAnswers>(`/api/v1/stages/${id}/model-answers/${langQuery(lang)}`),
  scorecardSave: (id: number, body: ScorecardInput) =>
    request<Scorecard>("PUT", `/api/v1/stages/${id}/scorecard/`, body),
  nextFollowUp: (id: number, question: number | null = null) =>
    post<PushedFollowUp>(`/api/v1/stages/${id}/next-follow-up/`, { question }),
  chat: (id: number, text: string) => post<{ seq: number }>(`/api/v1/stages/${id}/chat/`, { text }),
  timer: (id: number, action: "pause" | "resume" | "extend", minutes = 0) =>
    post<Timer>(`/api/v1/stages/${id}/timer/`, { action, minutes }),

  submissionCreate: (body: SubmissionInput) => post<SubmissionQueued>("/api/v1/submissions/", body),
  submission: (id: number) => get<Submission>(`/api/v1/submissions/${id}/`),

  stageEvents: (id: number, params: { after?: number; limit?: number; types?: string; exclude?: string } = {}) =>
    get<LoggedEvent[]>(`/api/v1/stages/${id}/events/${query(params)}`),
  stageSubmissions: (id: number, limit?: number) =>
    get<Submission[]>(`/api/v1/stages/${id}/submissions/${query({ limit })}`),

  coachQueue: () => get<QueueEntry[]>("/api/v1/coach/queue/"),
  claim: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/claim/`),
  release: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/release/`),
  shadow: (id: number) => post<StageSummary>(`/api/v1/stages/${id}/shadow/`),
  handOver: (id: number, coach: string) => post<StageSummary>(`/api/v1/stages/${id}/hand-over/`, { coach }),
  pushFollowUp: (id: number, body: { follow_up: number } | { text: string }) =>
    post<PushedFollowUp>(`/api/v1/stages/${id}/follow-ups/`, body),
  notes: (id: number) => get<CoachNote[]>(`/api/v1/stages/${id}/notes/`),
  noteCreate: (id: number, text: string) => post<CoachNote>(`/api/v1/stages/${id}/notes/`, { text }),

  // scoring and reports
  loopReport: (id: number) => get<LoopReport>(`/api/v1/loops/${id}/report/`),
  myProgress: () => get<ProgressData>("/api/v1/me/progress/"),
  calibration: (coach?: number) => get<Calibration>(`/api/v1/coach/calibration/${query({ coach })}`),
  deepDiveFeedback: (id: number) => get<DeepDiveFeedback>(`/api/v1/stages/${id}/deep-dive-feedback/`),
  reviewMatchSet: (id: number, comment: number, flaw: number | null, valid = false) =>
    request<ReviewScore>("PUT", `/api/v1/stages/${id}/review-matches/`, valid ? { comment, flaw, valid } : { comment, flaw }),
  reviewMatchClear: (id: number, comment: number) =>
    request<void>("DELETE", `/api/v1/stages/${id}/review-matches/${comment}/`),

  // the question bank (admins)
  /** Admins' bank listing: summaries (no prompt or tests); `question(id)` has the full dict. */
  questions: (params: { kind?: string; status?: string; slug?: string; all_versions?: boolean } = {}) =>
    get<QuestionSummary[]>(`/api/v1/questions/${query({ ...params, all_versions: params.all_versions ? 1 : undefined })}`),
  question: (id: number) => get<QuestionAdmin>(`/api/v1/questions/${id}/`),
  questionCreate: (body: object) => post<QuestionAdmin>("/api/v1/questions/", body),
  questionSave: (id: number, body: object) => request<QuestionAdmin>("PUT", `/api/v1/questions/${id}/`, body),
  questionPatch: (id: number, patch: object) => request<QuestionAdmin>("PATCH", `/api/v1/questions/${id}/`, patch),
  questionArchive: (id: number) => request<void>("DELETE", `/api/v1/questions/${id}/`),
  questionVerify: (id: number) => post<VerificationQueued>(`/api/v1/questions/${id}/verify/`),
  questionPublish: (id: number) => post<QuestionAdmin>(`/api/v1/questions/${id}/publish/`),
  bankImportYaml: (text: string, verify: boolean) =>
    post<BankImportResult>(`/api/v1/bank/import/${query({ verify: verify ? 1 : 0 })}`, {
      raw: text,
      contentType: "application/yaml",
    }),
  bankImportFile: (file: File, verify: boolean, onProgress?: (sent: number, total: number) => void) => {
    const form = new FormData();
    form.append("file", file);
    form.append("verify", verify ? "1" : "0");
    return uploadForm<BankImportResult>("/api/v1/bank/import/", form, onProgress);
  },
  bankImport: (bank: object, verify: boolean) => post<BankImportResult>("/api/v1/bank/import/", { bank, verify }),
  bankExport: (only?: string) => get<BankFile>(`/api/v1/bank/export/${query({ as: "json", only })}`),
};

/** The bank file as a dict (DESIGN.md "Question bank file format"); only the parts the
 * admin pages edit are typed. */
export interface BankRubric {
  slug: string;
  title?: string;
  dimensions: { name: string; weight: number; levels: string[] }[];
  /** Translations (the bank file's `i18n` block), kept as they are by the editors. */
  i18n?: Record<string, unknown>;
}
export interface BankStage {
  kind: StageKind;
  title: string;
  minutes: number;
  questions: string[];
  rubric?: string;
}
export interface BankLoop {
  slug: string;
  title: string;
  description?: string;
  status?: string;
  stages: BankStage[];
  i18n?: Record<string, unknown>;
}
export interface BankFile {
  questions?: Record<string, unknown>[];
  rubrics?: BankRubric[];
  loops?: BankLoop[];
}

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
  if (error instanceof NetworkError) return i18next.t("common:errors.unreachable");
  if (!(error instanceof ApiError)) {
    return error instanceof Error && error.message ? error.message : i18next.t("common:errors.generic");
  }
  switch (error.status) {
    case 401:
      return error.detail || i18next.t("common:errors.notSignedIn");
    case 403:
      return error.detail || i18next.t("common:errors.forbidden");
    case 404:
      return error.detail || i18next.t("common:errors.notFound");
    case 413:
      return error.detail || i18next.t("common:errors.tooLarge");
    case 429: // the server says which limit, and for how long (e.g. judge jobs in flight)
      return error.detail || i18next.t("common:errors.tooMany");
    default: {
      if (error.status >= 500) return i18next.t("common:errors.server");
      // 400: the field errors say it all (`detail` repeats the first of them); other
      // statuses (409 …) carry a sentence in `detail` and machine context in `errors`.
      const fields = error.status === 400 ? fieldMessages(error.errors) : "";
      return fields || error.detail || i18next.t("common:errors.status", { status: error.status });
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
