// The call in every live room (RoomShell mounts it): the other side's video and our own,
// mute, camera, device choice, and a plain sentence for where the call stands. The
// connections themselves are the CallSession's (./callSession.ts).
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";

import { api, type StageDetail } from "../../../api/client";
import { useMe } from "../../../auth/session";
import { i18next } from "../../../i18n";
import { formatList } from "../../../i18n/format";
import { RecordingControls } from "../../../recording/RecordingControls";
import type { PresenceEntry, Room } from "../stageRoomSession";
import { type CallPeer, CallSession, type CallSnapshot } from "./callSession";

/** Whether a stage's room has a call: a live kind with a coach (or waiting for one), not
 * finished. A solo stage (the scripted interviewer) has nobody to call. */
export function callWanted(stage: StageDetail, live: boolean): boolean {
  return live && stage.status !== "done" && (stage.coach !== null || Boolean(stage.coach_requested));
}

const CONNECTED = new Set<RTCIceConnectionState>(["connected", "completed"]);

interface Phrases {
  connected: string;
  dropped: string;
  connecting: string;
  absent: string;
}

/** Where the call stands, in one sentence, for the viewer `me`. */
export function callStatus(stage: StageDetail, me: string, presence: PresenceEntry[], peers: CallPeer[]): string {
  const describe = (user: string, say: Phrases) => {
    const peer = peers.find((p) => p.user === user && !p.listenOnly);
    if (peer && CONNECTED.has(peer.ice)) return say.connected;
    if (peer && (peer.ice === "disconnected" || peer.ice === "failed")) return say.dropped;
    if (peer || presence.some((p) => p.user === user)) return say.connecting;
    return say.absent;
  };
  if (me === stage.candidate) {
    const coach = stage.coach;
    if (!coach) return i18next.t("rooms:call.noCoach");
    return describe(coach, {
      connected: i18next.t("rooms:call.withCoach", { coach }),
      dropped: i18next.t("rooms:call.coachDropped", { coach }),
      connecting: i18next.t("rooms:call.coachConnecting", { coach }),
      absent: i18next.t("rooms:call.coachAbsent", { coach }),
    });
  }
  if (me === stage.coach) {
    const candidate = stage.candidate ?? i18next.t("rooms:call.theCandidate");
    return describe(candidate, {
      connected: i18next.t("rooms:call.withCandidate", { candidate }),
      dropped: i18next.t("rooms:call.candidateDropped", { candidate }),
      connecting: i18next.t("rooms:call.candidateConnecting", { candidate }),
      absent: i18next.t("rooms:call.candidateAbsent", { candidate }),
    });
  }
  const talkingNow = peers.filter((p) => !p.listenOnly && CONNECTED.has(p.ice)).map((p) => p.user);
  return talkingNow.length
    ? i18next.t("rooms:call.shadowingTalk", { users: formatList(talkingNow) })
    : i18next.t("rooms:call.shadowingWait");
}

export function CallPanel({ room }: { room: Room }) {
  const { t } = useTranslation();
  const me = useMe();
  if (!CallSession.supported()) {
    return (
      <section className="call-panel" data-testid="call-panel" aria-label={t("rooms:call.label")}>
        <p className="small muted">{t("rooms:call.noWebrtc")}</p>
      </section>
    );
  }
  return <CallView room={room} me={me.username} />;
}

function CallView({ room, me }: { room: Room; me: string }) {
  const { t } = useTranslation();
  const stage = room.stage;
  const listenOnly = me !== stage.candidate && me !== stage.coach;
  const session = useMemo(
    () => new CallSession({ socket: room.socket, me, listenOnly, iceServers: api.iceServers }),
    [room.socket, me, listenOnly],
  );
  useEffect(() => {
    void session.start();
    return () => session.stop();
  }, [session]);
  useEffect(() => session.setPresent(room.presence.map((p) => p.user)), [session, room.presence]);
  const call = useSyncExternalStore(session.subscribe, session.getSnapshot);

  const talking = call.peers.filter((p) => !p.listenOnly);
  const listening = call.peers.filter((p) => p.listenOnly);
  return (
    <section className="call-panel" data-testid="call-panel" aria-label={t("rooms:call.label")}>
      <div className="call-tiles">
        {talking.map((peer) => (
          <RemoteTile key={peer.session} peer={peer} />
        ))}
        {!listenOnly && <LocalTile call={call} />}
      </div>
      <div className="call-side">
        <p className="call-status" data-testid="call-status" role="status">
          {callStatus(stage, me, room.presence, call.peers)}
        </p>
        {listening.length > 0 && (
          <p className="small muted" data-testid="call-listeners">
            {t("rooms:call.listeners", { users: formatList([...new Set(listening.map((p) => p.user))]), count: listening.length })}
          </p>
        )}
        {call.mediaProblem && (
          <p className="notice small" role="alert" data-testid="call-media-problem">
            {call.mediaProblem}
          </p>
        )}
        {!listenOnly && <CallControls session={session} call={call} />}
        <RecordingControls room={room} call={call} />
      </div>
    </section>
  );
}

function CallControls({ session, call }: { session: CallSession; call: CallSnapshot }) {
  const { t } = useTranslation();
  const on = call.media === "on";
  return (
    <div className="call-controls">
      {on && (
        <>
          <button type="button" className="secondary small" aria-pressed={!call.audioOn} onClick={() => session.setAudio(!call.audioOn)}>
            {call.audioOn ? t("rooms:call.mute") : t("rooms:call.unmute")}
          </button>
          <button type="button" className="secondary small" aria-pressed={!call.videoOn} onClick={() => void session.setVideo(!call.videoOn)}>
            {call.videoOn ? t("rooms:call.cameraOff") : t("rooms:call.cameraOn")}
          </button>
          <details className="call-devices">
            <summary className="small">{t("rooms:call.devices")}</summary>
            <DeviceSelect label={t("rooms:call.microphone")} devices={call.devices.audio} value={call.audioDevice} onChange={(id) => void session.chooseDevice("audio", id)} />
            <DeviceSelect label={t("rooms:call.camera")} devices={call.devices.video} value={call.videoDevice} onChange={(id) => void session.chooseDevice("video", id)} />
          </details>
        </>
      )}
      {call.media === "asking" && <span className="small muted">{t("rooms:call.asking")}</span>}
      {(call.media === "refused" || call.media === "unavailable") && (
        <button type="button" className="secondary small" onClick={() => void session.retryMedia()}>
          {t("rooms:call.tryAgain")}
        </button>
      )}
    </div>
  );
}

function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string | null;
  onChange: (deviceId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="small">
      {label}
      <select value={value ?? ""} onChange={(e) => onChange(e.target.value)} disabled={devices.length === 0}>
        {devices.length === 0 && <option value="">{t("rooms:call.noneFound")}</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>
            {device.label || t("rooms:call.deviceN", { label, n: index + 1 })}
          </option>
        ))}
      </select>
    </label>
  );
}

function useVideo(stream: MediaStream | null, onBlocked?: () => void) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) video.play?.()?.catch(() => onBlocked?.());
  }, [stream, onBlocked]);
  return ref;
}

function RemoteTile({ peer }: { peer: CallPeer }) {
  const { t } = useTranslation();
  const [blocked, setBlocked] = useState(false);
  const onBlocked = useMemo(() => () => setBlocked(true), []);
  const ref = useVideo(peer.stream, onBlocked);
  return (
    <figure className="call-tile remote" data-testid="call-remote" data-user={peer.user}>
      <video ref={ref} autoPlay playsInline data-testid="call-remote-video" />
      {!peer.video && <span className="call-tile-off">{t("rooms:call.tileCameraOff")}</span>}
      <figcaption>
        {peer.user}
        {!peer.audio && <span className="badge">{t("rooms:call.muted")}</span>}
      </figcaption>
      {blocked && (
        <button
          type="button"
          className="primary small call-play"
          onClick={() => {
            setBlocked(false);
            void ref.current?.play().catch(() => setBlocked(true));
          }}
        >
          {t("rooms:call.playSound")}
        </button>
      )}
    </figure>
  );
}

function LocalTile({ call }: { call: CallSnapshot }) {
  const { t } = useTranslation();
  const ref = useVideo(call.localStream);
  return (
    <figure className="call-tile local" data-testid="call-local">
      {/* Our own sound is never played back to us. */}
      <video ref={ref} autoPlay playsInline muted data-testid="call-local-video" />
      {(!call.videoOn || !call.localStream) && <span className="call-tile-off">{call.localStream ? t("rooms:call.tileCameraOff") : t("rooms:call.tileNoCamera")}</span>}
      <figcaption>
        {t("rooms:call.you")}
        {!call.audioOn && <span className="badge">{t("rooms:call.muted")}</span>}
      </figcaption>
    </figure>
  );
}
