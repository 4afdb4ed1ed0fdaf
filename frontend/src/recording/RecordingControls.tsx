// Recording a round's call, with consent (interviews/services/recordings.py): either side
// proposes, everyone in the room must agree, either stops; "● Recording" shows on every
// side while it runs. The candidate's browser records the call's mixed audio and uploads
// it in chunks (the recording is theirs: they may delete it from the stage's feedback).
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { describeError } from "../api/client";
import { useMe } from "../auth/session";
import { i18next } from "../i18n";
import { formatList } from "../i18n/format";
import type { CallSnapshot } from "../rooms/shared/call/callSession";
import type { Room } from "../rooms/shared/stageRoomSession";
import { canRecord, type Recording, recordingApi } from "./api";
import { ChunkedRecorder, mixAudio } from "./chunkedRecorder";
import { useRecordings } from "./useRecordings";

/** The call's recording that is proposed or running, if any. */
export function activeCallRecording(recordings: Recording[]): Recording | undefined {
  return recordings.find((r) => r.kind === "call" && (r.status === "proposed" || r.status === "recording"));
}

export function RecordingControls({ room, call }: { room: Room; call: CallSnapshot }) {
  const { t } = useTranslation();
  const me = useMe().username;
  const { recordings, reload } = useRecordings(room);
  const [problem, setProblem] = useState<string | null>(null);
  const active = activeCallRecording(recordings);
  const isCandidate = me === room.stage.candidate;
  const live = room.stage.status === "live" && !room.refused;

  const act = (action: () => Promise<unknown>) => {
    setProblem(null);
    action().then(reload, (error) => setProblem(describeError(error)));
  };

  return (
    <div className="recording-controls" data-testid="recording-controls">
      {isCandidate && active?.status === "recording" && <CandidateRecorder recording={active} call={call} onProblem={setProblem} />}
      {active?.status === "recording" ? (
        <p className="recording-on" role="status" data-testid="recording-indicator">
          <span className="recording-dot" aria-hidden="true">●</span> {t("recording:on")}
          <span className="small muted"> · {t("recording:onNote")}</span>
          <button type="button" className="secondary small" onClick={() => act(() => recordingApi.stop(active.id))}>
            {t("recording:stop")}
          </button>
        </p>
      ) : active?.status === "proposed" ? (
        <ConsentPrompt recording={active} me={me} act={act} />
      ) : (
        live && (
          <button
            type="button"
            className="secondary small"
            disabled={!canRecord()}
            title={canRecord() ? t("recording:askedFirst") : t("recording:cannotRecord")}
            onClick={() => act(() => recordingApi.propose(room.stage.id, { kind: "call" }))}
            data-testid="recording-propose"
          >
            {t("recording:propose")}
          </button>
        )
      )}
      {problem && (
        <p className="error small" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

function ConsentPrompt({ recording, me, act }: { recording: Recording; me: string; act: (action: () => Promise<unknown>) => void }) {
  const { t } = useTranslation();
  const waitingFor = recording.consent_needed.filter((u) => !recording.consented.includes(u));
  if (recording.consent_needed.includes(me) && !recording.consented.includes(me)) {
    return (
      <div className="recording-consent" role="alertdialog" aria-labelledby={`consent-${recording.id}`} data-testid="recording-consent">
        <p id={`consent-${recording.id}`}>
          {t("recording:asks", { who: recording.proposed_by ?? t("recording:someone") })}
        </p>
        <button type="button" className="primary small" onClick={() => act(() => recordingApi.consent(recording.id, true))} data-testid="recording-agree">
          {t("recording:agree")}
        </button>
        <button type="button" className="secondary small" onClick={() => act(() => recordingApi.consent(recording.id, false))}>
          {t("recording:decline")}
        </button>
      </div>
    );
  }
  return (
    <p className="small muted" role="status" data-testid="recording-waiting">
      {t("recording:waiting", { who: waitingFor.length ? formatList(waitingFor) : t("recording:theOthers") })}{" "}
      <button type="button" className="link-button" onClick={() => act(() => recordingApi.stop(recording.id))}>
        {t("recording:withdraw")}
      </button>
    </p>
  );
}

/** The candidate's side records while the recording runs: our microphone mixed with the
 * other side of the call. It stops (and uploads the last chunk) when the recording is
 * stopped, or when this page goes — then it stops the recording too: one recording is one
 * MediaRecorder's WebM, which a reloaded page cannot continue. */
function CandidateRecorder({ recording, call, onProblem }: { recording: Recording; call: CallSnapshot; onProblem: (text: string | null) => void }) {
  const streams = useRef<{ local: MediaStream | null; remote: (MediaStream | null)[] }>({ local: null, remote: [] });
  const chunksAtMount = useRef(recording.chunk_count ?? 0);
  streams.current = { local: call.localStream, remote: call.peers.filter((p) => !p.listenOnly).map((p) => p.stream) };
  useEffect(() => {
    let recorder: ChunkedRecorder | null = null;
    let mixer: { close: () => void } | null = null;
    let own: MediaStream | null = null;
    let cancelled = false;
    if (chunksAtMount.current > 0) {
      // Chunks from an earlier page of ours (reloaded, or crashed): that recording is over.
      void recordingApi.stop(recording.id).catch(() => undefined);
      return;
    }
    void (async () => {
      try {
        let local = streams.current.local;
        if (!local || local.getAudioTracks().length === 0) {
          own = await navigator.mediaDevices.getUserMedia({ audio: true });
          local = own;
        }
        if (cancelled) return;
        const mixed = mixAudio([local, ...streams.current.remote]);
        mixer = mixed;
        recorder = new ChunkedRecorder(recording.id, mixed.stream);
        recorder.start();
      } catch (error) {
        onProblem(i18next.t("recording:couldNotStart", { error: describeError(error) }));
      }
    })();
    const onLeave = () => void recorder?.stop();
    window.addEventListener("pagehide", onLeave);
    return () => {
      cancelled = true;
      window.removeEventListener("pagehide", onLeave);
      const done = recorder?.stop() ?? Promise.resolve();
      void done.finally(() => {
        mixer?.close();
        own?.getTracks().forEach((t) => t.stop());
        if (recorder?.problem) onProblem(recorder.problem);
        return recordingApi.stop(recording.id).catch(() => undefined);
      });
    };
  }, [recording.id, onProblem]);
  return null;
}
