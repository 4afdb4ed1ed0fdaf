// The replay's audio: each recording of the stage (the round's call, spoken answers) in an
// <audio> that follows the replay's scrubber and, while it plays, drives it — so code,
// whiteboard, chat and follow-ups line up with what was said. A recording starts at its
// `recording.started` time on the log's clock; `sync.ts` maps replay time to wall time.
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { i18next } from "../i18n";
import { formatOffset, type Timeline } from "../replay/engine";
import { type Recording, recordingApi } from "./api";
import { settleDuration, useRecordingAudioUrl } from "./RecordingAudio";
import { replayTimeAt, wallAt } from "./sync";

export interface ReplayClock {
  t: number;
  playing: boolean;
  speed: number;
  seek: (t: number) => void;
  setPlaying: (playing: boolean) => void;
  /** True while an audio element drives the replay's clock (the page's own stops). */
  setDriven: (driven: boolean) => void;
}

/** Seconds into the recording at replay time `t`, or null when `t` is outside it. */
export function audioOffsetAt(timeline: Timeline, recording: Recording, t: number, durationS: number): number | null {
  if (!recording.started_at) return null;
  const offset = (wallAt(timeline, t) - Date.parse(recording.started_at)) / 1000;
  const end = Number.isFinite(durationS) && durationS > 0 ? durationS : spanS(recording);
  return offset >= 0 && offset <= end ? offset : null;
}

function spanS(recording: Recording): number {
  if (!recording.started_at || !recording.stopped_at) return Infinity;
  return (Date.parse(recording.stopped_at) - Date.parse(recording.started_at)) / 1000;
}

export function ReplayAudio({ stageId, timeline, clock }: { stageId: number; timeline: Timeline; clock: ReplayClock }) {
  const { t } = useTranslation();
  const [recordings, setRecordings] = useState<Recording[]>([]);
  useEffect(() => {
    let stale = false;
    recordingApi.list(stageId).then(
      (list) => !stale && setRecordings(list.filter((r) => r.started_at && (r.chunk_count ?? 0) > 0)),
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [stageId]);
  if (recordings.length === 0) return null;
  return (
    <section className="replay-audio" aria-label={t("recording:audioLabel")} data-testid="replay-audio">
      {recordings.map((r) => (
        <RecordingTrack key={r.id} recording={r} timeline={timeline} clock={clock} />
      ))}
    </section>
  );
}

const audioNotLoaded = () => i18next.t("recording:notLoaded");

function RecordingTrack({ recording, timeline, clock }: { recording: Recording; timeline: Timeline; clock: ReplayClock }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLAudioElement>(null);
  const { url, problem } = useRecordingAudioUrl(recording, audioNotLoaded);
  const [duration, setDuration] = useState(NaN);
  const startWall = useMemo(() => Date.parse(recording.started_at ?? ""), [recording.started_at]);
  /** The replay time this track last set: a different one is a seek from elsewhere. */
  const lastSet = useRef<number | null>(null);
  const driving = useRef(false);
  const clockRef = useRef(clock);
  clockRef.current = clock;

  const onLoadedMetadata = () => {
    const audio = ref.current;
    if (!audio) return;
    settleDuration(audio, (seconds) => {
      setDuration(seconds);
      audio.currentTime = audioOffsetAt(timeline, recording, clockRef.current.t, seconds) ?? 0;
    });
  };

  // The scrubber moved (a seek, a click in the feed, the page's own clock): follow it.
  useEffect(() => {
    const audio = ref.current;
    if (!audio || !Number.isFinite(duration)) return;
    if (lastSet.current !== null && Math.abs(lastSet.current - clock.t) < 1) return;
    lastSet.current = null;
    const offset = audioOffsetAt(timeline, recording, clock.t, duration);
    if (offset === null) {
      if (!audio.paused) audio.pause();
      return;
    }
    if (Math.abs(audio.currentTime - offset) > 0.25) audio.currentTime = offset;
    if (clock.playing && audio.paused) void audio.play().catch(() => clock.setPlaying(false));
  }, [clock.t, clock.playing, duration, timeline, recording, clock]);

  useEffect(() => {
    const audio = ref.current;
    if (!audio) return;
    audio.playbackRate = clock.speed;
    if (!clock.playing && !audio.paused) audio.pause();
  }, [clock.playing, clock.speed]);

  // While the audio plays, it is the clock: the replay follows what is being said.
  useEffect(() => {
    const audio = ref.current;
    if (!audio || !url) return;
    let frame = 0;
    const tick = () => {
      const t = replayTimeAt(timeline, startWall + audio.currentTime * 1000);
      lastSet.current = t;
      clockRef.current.seek(t);
      frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      driving.current = true;
      clockRef.current.setDriven(true);
      if (!clockRef.current.playing) clockRef.current.setPlaying(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onStop = () => {
      cancelAnimationFrame(frame);
      if (driving.current) {
        driving.current = false;
        clockRef.current.setDriven(false);
      }
    };
    const onPause = () => {
      onStop();
      // Paused from its own controls (not because the replay paused or left its span).
      if (!audio.ended && clockRef.current.playing && audioOffsetAt(timeline, recording, clockRef.current.t, audio.duration) !== null && document.activeElement === audio) {
        clockRef.current.setPlaying(false);
      }
    };
    const onSeeked = () => {
      if (document.activeElement !== audio) return;
      const t = replayTimeAt(timeline, startWall + audio.currentTime * 1000);
      lastSet.current = t;
      clockRef.current.seek(t);
    };
    audio.addEventListener("play", onPlay);
    audio.addEventListener("pause", onPause);
    audio.addEventListener("ended", onStop);
    audio.addEventListener("seeked", onSeeked);
    return () => {
      cancelAnimationFrame(frame);
      audio.removeEventListener("play", onPlay);
      audio.removeEventListener("pause", onPause);
      audio.removeEventListener("ended", onStop);
      audio.removeEventListener("seeked", onSeeked);
      if (driving.current) clockRef.current.setDriven(false);
    };
  }, [url, timeline, startWall, recording]);

  const label = recording.kind === "call" ? t("recording:callAudio") : t("recording:spokenAnswer");
  return (
    <div className="replay-audio-track">
      <span className="small">
        {label}
        {Number.isFinite(duration) && <span className="muted"> · {formatOffset(duration * 1000)}</span>}
      </span>
      {url && <audio ref={ref} src={url} controls preload="auto" onLoadedMetadata={onLoadedMetadata} data-testid="replay-audio-element" data-recording={recording.id} />}
      {problem && <span className="error small">{problem}</span>}
    </div>
  );
}
