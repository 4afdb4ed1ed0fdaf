// MediaRecorder with its blobs uploaded as they come: a chunk every TIMESLICE_MS, posted in
// order by one queue that retries what did not arrive (a retried chunk is idempotent on the
// server), so a crash of this browser loses at most the chunk being recorded.
import { ApiError } from "../api/client";
import { i18next } from "../i18n";
import { isTransient, retryDelayMs } from "../lib/retry";
import { recordingApi } from "./api";

export const TIMESLICE_MS = 3000;
export const MIME = "audio/webm;codecs=opus";

export type Upload = (seq: number, blob: Blob) => Promise<void>;

/** Uploads chunks strictly in order; keeps retrying a transient failure. */
export class ChunkQueue {
  private readonly pending: Blob[] = [];
  private next = 0;
  private running: Promise<void> | null = null;
  failed: unknown = null;
  uploaded = 0;

  constructor(
    private readonly upload: Upload,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  push(blob: Blob): void {
    if (blob.size === 0) return;
    this.pending.push(blob);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves once every chunk pushed so far is stored (or one failed for good). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.length && this.failed === null) {
      const blob = this.pending[0]!;
      for (let failures = 1; ; failures += 1) {
        try {
          await this.upload(this.next, blob);
          break;
        } catch (error) {
          if (!isTransient(error) || failures > 20) {
            this.failed = error;
            return;
          }
          await this.sleep(retryDelayMs(failures));
        }
      }
      this.pending.shift();
      this.next += 1;
      this.uploaded += 1;
    }
  }
}

/** Records `stream` into recording `id`, uploading as it goes. */
export class ChunkedRecorder {
  private readonly recorder: MediaRecorder;
  private readonly queue: ChunkQueue;
  private stopped: Promise<void> | null = null;

  constructor(
    readonly id: number,
    stream: MediaStream,
    upload: Upload = (seq, blob) => recordingApi.chunk(id, seq, blob),
  ) {
    const mimeType = MediaRecorder.isTypeSupported?.(MIME) ? MIME : "audio/webm";
    this.recorder = new MediaRecorder(stream, { mimeType });
    this.queue = new ChunkQueue(upload);
    this.recorder.addEventListener("dataavailable", (event) => this.queue.push(event.data));
  }

  start(): void {
    this.recorder.start(TIMESLICE_MS);
  }

  get uploaded(): number {
    return this.queue.uploaded;
  }

  get problem(): string | null {
    const failed = this.queue.failed;
    if (failed === null) return null;
    return failed instanceof ApiError ? failed.detail : i18next.t("recording:uploadFailed");
  }

  /** Stop recording; resolves when the last chunk is uploaded. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      if (this.recorder.state === "inactive") return resolve();
      this.recorder.addEventListener("stop", () => resolve(), { once: true });
      this.recorder.stop();
    }).then(() => this.queue.flush());
    return this.stopped;
  }
}

/** One audio stream of several (our microphone and the other side of the call), mixed by
 * Web Audio, so the recording holds both voices. `close()` releases the mixer. */
export function mixAudio(streams: (MediaStream | null | undefined)[]): { stream: MediaStream; close: () => void } {
  const context = new AudioContext();
  const destination = context.createMediaStreamDestination();
  for (const stream of streams) {
    if (stream && stream.getAudioTracks().length > 0) context.createMediaStreamSource(stream).connect(destination);
  }
  return { stream: destination.stream, close: () => void context.close() };
}
