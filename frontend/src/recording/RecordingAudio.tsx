// One recording, playable: its audio fetched as a Blob (a MediaRecorder WebM seeks only
// from memory), and for the candidate a delete that removes it from storage.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { describeError } from "../api/client";
import { type Recording, recordingApi } from "./api";

/** A MediaRecorder WebM says nothing of its length (duration Infinity): seek far once so
 * the browser reads to the end and knows it, then go back to the start; `onKnown` gets it. */
export function settleDuration(audio: HTMLAudioElement, onKnown: (seconds: number) => void): void {
  if (Number.isFinite(audio.duration)) {
    onKnown(audio.duration);
    return;
  }
  const settle = () => {
    if (!Number.isFinite(audio.duration)) return;
    audio.removeEventListener("durationchange", settle);
    onKnown(audio.duration);
  };
  audio.addEventListener("durationchange", settle);
  audio.currentTime = 1e101;
}

/** The recording's audio as an object URL (revoked when the recording changes or the
 * component goes), and what went wrong fetching it, in `describe`'s words. `describe`
 * must be stable (a module-level function). */
export function useRecordingAudioUrl(recording: Recording, describe: (error: unknown) => string) {
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let stale = false;
    recordingApi.audio(recording).then(
      (blob) => {
        if (stale) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      (error) => !stale && setProblem(describe(error)),
    );
    return () => {
      stale = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [recording, describe]);
  return { url, problem, setProblem };
}

export function RecordingAudio({ recording, label, canDelete = false, onDeleted }: { recording: Recording; label: string; canDelete?: boolean; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const { url, problem, setProblem } = useRecordingAudioUrl(recording, describeError);

  const remove = () => {
    if (!window.confirm(t("recording:confirmDelete"))) return;
    recordingApi.remove(recording.id).then(
      () => onDeleted?.(),
      (error) => setProblem(describeError(error)),
    );
  };
  return (
    <span className="recording-audio" data-testid="recording-audio" data-recording={recording.id}>
      <span className="small">{label}</span>
      {url ? <audio
          src={url}
          controls
          preload="metadata"
          onLoadedMetadata={(e) => {
            const audio = e.currentTarget;
            settleDuration(audio, () => (audio.currentTime = 0));
          }}
          data-testid="recording-audio-element"
        /> : !problem && <span className="small muted">{t("recording:loadingAudio")}</span>}
      {canDelete && (
        <button type="button" className="secondary small" onClick={remove}>
          {t("recording:delete")}
        </button>
      )}
      {problem && <span className="error small">{problem}</span>}
    </span>
  );
}
