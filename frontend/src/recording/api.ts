// Recordings over REST (interviews/api/recordings.py): a round's call, recorded with the
// consent of everyone in the room, and spoken answers; chunks are posted as raw bytes.
import { ApiError, NetworkError, readCookie, request } from "../api/client";
import type { components } from "../api/schema";

export type Recording = components["schemas"]["RecordingOut"];
export type RecordingKind = Recording["kind"];

export const recordingApi = {
  list: (stageId: number) => request<Recording[]>("GET", `/api/v1/stages/${stageId}/recordings/`),
  propose: (stageId: number, body: { kind: RecordingKind; question?: number | null }) =>
    request<Recording>("POST", `/api/v1/stages/${stageId}/recordings/`, body),
  consent: (id: number, agree: boolean) => request<Recording>("POST", `/api/v1/recordings/${id}/consent/`, { agree }),
  stop: (id: number) => request<Recording>("POST", `/api/v1/recordings/${id}/stop/`),
  remove: (id: number) => request<void>("DELETE", `/api/v1/recordings/${id}/`),
  /** One MediaRecorder blob as chunk `seq`: 201 stored, 200 stored already (a retry). */
  chunk: async (id: number, seq: number, blob: Blob): Promise<void> => {
    const headers: Record<string, string> = { Accept: "application/json", "Content-Type": blob.type || "audio/webm" };
    const csrf = readCookie("csrftoken", typeof document === "undefined" ? "" : document.cookie);
    if (csrf) headers["X-CSRFToken"] = csrf;
    let response: Response;
    try {
      response = await fetch(`/api/v1/recordings/${id}/chunks/?seq=${seq}`, { method: "POST", headers, credentials: "same-origin", body: blob });
    } catch (cause) {
      throw new NetworkError(cause);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { detail?: string; errors?: Record<string, unknown> };
      throw new ApiError(response.status, body.detail ?? response.statusText, body.errors ?? {});
    }
  },
  /** The whole recording as one Blob: a Blob URL lets the <audio> seek anywhere in a
   * MediaRecorder WebM (which has no index of its own). */
  audio: async (recording: Recording): Promise<Blob> => {
    const response = await fetch(recording.audio_url, { credentials: "same-origin" });
    if (!response.ok) throw new ApiError(response.status, response.statusText);
    return response.blob();
  },
};

/** Whether this browser can record audio at all. */
export function canRecord(): boolean {
  return typeof window !== "undefined" && typeof window.MediaRecorder !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia);
}
