// Answering a question by voice (screen, hiring-manager and values rounds are spoken in
// real interviews): the candidate records their answer with the recording pipeline (a
// recording of kind `answer`, for this question, uploaded in chunks as it records), and a
// transcript they can correct — the browser's speech recognition where it offers one,
// otherwise typed — is added to their written answer, so the key points are matched on it.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { describeError } from "../api/client";
import type { Room } from "../rooms/shared/stageRoomSession";
import { canRecord, type Recording, recordingApi } from "./api";
import { ChunkedRecorder } from "./chunkedRecorder";
import { RecordingAudio } from "./RecordingAudio";
import { speechRecognition, transcribe } from "./speech";
import { useRecordings } from "./useRecordings";

type Phase = { kind: "idle" } | { kind: "starting" } | { kind: "recording"; recording: Recording } | { kind: "saving" } | { kind: "transcript" };

export function SpokenAnswer({ room, questionId, onTranscript }: { room: Room; questionId: number; onTranscript: (text: string) => void }) {
  const { t } = useTranslation();
  const { recordings, reload } = useRecordings(room);
  const mine = recordings.filter((r) => r.kind === "answer" && r.question === questionId && (r.chunk_count ?? 0) > 0);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [transcript, setTranscript] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  /** The browser's recognition gave words (it may exist and hear nothing: headless). */
  const [transcribed, setTranscribed] = useState(false);
  const session = useRef<{ recorder: ChunkedRecorder; stream: MediaStream; stopTranscript: (() => void) | null } | null>(null);
  const hasSpeech = speechRecognition() !== null;

  useEffect(
    () => () => {
      const current = session.current;
      if (!current) return;
      void current.recorder.stop().finally(() => recordingApi.stop(current.recorder.id).catch(() => undefined));
      current.stream.getTracks().forEach((t) => t.stop());
      current.stopTranscript?.();
    },
    [],
  );

  const start = async () => {
    setProblem(null);
    setPhase({ kind: "starting" });
    let stream: MediaStream | null = null;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recording = await recordingApi.propose(room.stage.id, { kind: "answer", question: questionId });
      const recorder = new ChunkedRecorder(recording.id, stream);
      recorder.start();
      setTranscript("");
      const stopTranscript = transcribe((text) => setTranscript(text));
      session.current = { recorder, stream, stopTranscript };
      setPhase({ kind: "recording", recording });
    } catch (error) {
      stream?.getTracks().forEach((t) => t.stop());
      setProblem(t("recording:couldNotStart", { error: describeError(error) }));
      setPhase({ kind: "idle" });
    }
  };

  const stop = async () => {
    const current = session.current;
    if (!current) return;
    session.current = null;
    setPhase({ kind: "saving" });
    current.stopTranscript?.();
    await current.recorder.stop();
    current.stream.getTracks().forEach((t) => t.stop());
    await recordingApi.stop(current.recorder.id).catch(() => undefined);
    if (current.recorder.problem) setProblem(current.recorder.problem);
    reload();
    setTranscript((text) => {
      setTranscribed(text.trim() !== "");
      return text;
    });
    setPhase({ kind: "transcript" });
  };

  const transcriptId = `transcript-${questionId}`;
  return (
    <div className="spoken-answer" data-testid="spoken-answer">
      {(phase.kind === "idle" || phase.kind === "transcript") && (
        <p className="toolbar small">
          <button type="button" className="secondary small" disabled={!canRecord()} onClick={() => void start()} data-testid="spoken-answer-record">
            {t("recording:answerVoice")}
          </button>
          <span className="muted">{canRecord() ? t("recording:voiceNote") : t("recording:typeInstead")}</span>
        </p>
      )}
      {phase.kind === "starting" && <p className="small muted">{t("recording:askingMic")}</p>}
      {phase.kind === "recording" && (
        <p className="recording-on" role="status" data-testid="spoken-answer-recording">
          <span className="recording-dot" aria-hidden="true">●</span> {t("recording:recordingAnswer")}
          <button type="button" className="primary small" onClick={() => void stop()}>
            {t("recording:stopAnswer")}
          </button>
          {hasSpeech && transcript && <span className="small muted">{transcript}</span>}
        </p>
      )}
      {phase.kind === "saving" && <p className="small muted">{t("recording:saving")}</p>}
      {phase.kind === "transcript" && (
        <div className="spoken-transcript">
          <label htmlFor={transcriptId}>{t("recording:transcript")}</label>
          <p className="small muted">
            {transcribed
              ? t("recording:transcribed")
              : hasSpeech
                ? t("recording:notTranscribed")
                : t("recording:noSpeech")}
          </p>
          <textarea id={transcriptId} rows={4} value={transcript} onChange={(e) => setTranscript(e.target.value)} data-testid="spoken-transcript" />
          <p className="toolbar">
            <button
              type="button"
              className="primary small"
              disabled={!transcript.trim()}
              onClick={() => {
                onTranscript(transcript.trim());
                setTranscript("");
                setPhase({ kind: "idle" });
              }}
            >
              {t("recording:addToAnswer")}
            </button>
            <button type="button" className="secondary small" onClick={() => setPhase({ kind: "idle" })}>
              {t("recording:skip")}
            </button>
          </p>
        </div>
      )}
      {problem && (
        <p className="error small" role="alert">
          {problem}
        </p>
      )}
      {mine.length > 0 && (
        <ul className="spoken-answers-list" aria-label={t("recording:yourSpoken")}>
          {mine.map((r, i) => (
            <li key={r.id}>
              <RecordingAudio recording={r} label={t("recording:spokenAnswerN", { n: i + 1 })} canDelete onDeleted={reload} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
