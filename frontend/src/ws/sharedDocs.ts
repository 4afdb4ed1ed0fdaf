// The stage's shared Yjs documents (docs/events.md): `code:<q>`, `notes:<q>`, `scene:<q>`.
// Loaded from REST state, kept in step with `doc.update` events, and — for the candidate —
// local edits are batched, sent over the socket and counted as saved once the server
// acknowledges them (`doc.saved`) or echoes them back with a sequence number. Other
// viewers' edits arrive twice: relayed at once (`doc.relay`), then logged (`doc.update`).
import * as Y from "yjs";

import type { DocumentState } from "../api/client";
import { i18next } from "../i18n";
import type { ClientMessage } from "./events.gen";
import type { StageMessage } from "./socket";

export const REMOTE = "remote";
const BATCH_MS = 60;

export interface DocSender {
  readonly isLive: boolean;
  send(message: ClientMessage): boolean;
}

export interface SaveStatus {
  /** Edits not yet acknowledged by the server (sent or waiting to be sent). */
  pending: number;
  /** The sequence number of the last acknowledged edit (or of the loaded state). */
  savedSeq: number;
  /** Whether unacknowledged edits are waiting for a connection. */
  offline: boolean;
  error: string | null;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

interface Outgoing {
  doc: string;
  update: string;
  ref: string;
}

export class SharedDocs {
  readonly docs = new Map<string, Y.Doc>();
  private unsent = new Map<string, Uint8Array[]>();
  private inflight = new Map<string, Outgoing>(); // ref → message
  private byUpdate = new Map<string, string>(); // base64 update → ref
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<(status: SaveStatus) => void>();
  private savedSeq = 0;
  private loadedSeq = 0;
  private error: string | null = null;
  private nextRef = 1;

  /** `editable`: whether local edits of a document are sent — for every document, or by
   * name (the coach draws on the whiteboard but never types in the candidate's code). */
  constructor(
    private readonly sender: DocSender,
    private readonly editable: boolean | ((name: string) => boolean),
  ) {}

  private writable(name: string): boolean {
    return typeof this.editable === "function" ? this.editable(name) : this.editable;
  }

  /** The document named `name`, created empty when the stage has none yet. */
  get(name: string): Y.Doc {
    let doc = this.docs.get(name);
    if (!doc) {
      doc = new Y.Doc();
      this.docs.set(name, doc);
      doc.on("update", (update: Uint8Array, origin: unknown) => {
        if (origin === REMOTE || !this.writable(name)) return;
        this.queue(name, update);
      });
    }
    return doc;
  }

  /** Apply the merged states of `GET /stages/{id}/documents/`. */
  load(documents: DocumentState[], lastSeq: number): void {
    for (const state of documents) {
      if (state.state) Y.applyUpdate(this.get(state.name), fromBase64(state.state), REMOTE);
    }
    this.loadedSeq = lastSeq;
    this.savedSeq = Math.max(this.savedSeq, ...documents.map((d) => d.seq), 0);
    this.notify();
  }

  /** Handle one socket message; returns true when it was about the documents. */
  handle(message: StageMessage): boolean {
    if (message.type === "doc.update") {
      const { doc: name, update } = message;
      const ref = this.byUpdate.get(update);
      if (ref) {
        this.byUpdate.delete(update);
        this.inflight.delete(ref);
      }
      // The loaded state already holds everything up to loadedSeq (Yjs would ignore it
      // anyway; skipping saves work when the room replays its log).
      if (message.seq > this.loadedSeq && name) {
        Y.applyUpdate(this.get(name), fromBase64(update), REMOTE);
      }
      if (ref || this.pending === 0) {
        this.savedSeq = Math.max(this.savedSeq, message.seq);
      }
      this.notify();
      return true;
    }
    if (message.type === "doc.relay") {
      // Another viewer's edit, relayed before the server logged it; the logged
      // `doc.update` repeats it later (Yjs ignores the repeat).
      if (message.doc) Y.applyUpdate(this.get(message.doc), fromBase64(message.update), REMOTE);
      this.notify();
      return true;
    }
    if (message.type === "doc.saved") {
      // The server logged these edits (several refs when it merged a backlog of them).
      for (const ref of message.refs) {
        if (typeof ref !== "string") continue;
        const sent = this.inflight.get(ref);
        if (!sent) continue;
        this.inflight.delete(ref);
        this.byUpdate.delete(sent.update);
      }
      this.savedSeq = Math.max(this.savedSeq, message.saved_seq);
      this.notify();
      return true;
    }
    if (message.type === "error" && typeof message.ref === "string" && this.inflight.has(message.ref)) {
      const sent = this.inflight.get(message.ref)!;
      this.inflight.delete(message.ref);
      this.byUpdate.delete(sent.update);
      this.error = message.detail || i18next.t("rooms:refusedEdit");
      this.notify();
      return true;
    }
    if (message.type === "resync.done") {
      // Edits sent before a disconnect and not echoed in the replay never reached the
      // log: send them again (Yjs updates are idempotent, so a duplicate is harmless).
      for (const sent of this.inflight.values()) {
        this.byUpdate.delete(sent.update);
        const list = this.unsent.get(sent.doc) ?? [];
        list.unshift(fromBase64(sent.update));
        this.unsent.set(sent.doc, list);
      }
      this.inflight.clear();
      this.flush();
      return false;
    }
    return false;
  }

  get pending(): number {
    let n = this.inflight.size;
    for (const list of this.unsent.values()) n += list.length ? 1 : 0;
    return n;
  }

  status(): SaveStatus {
    return {
      pending: this.pending,
      savedSeq: this.savedSeq,
      offline: !this.sender.isLive,
      error: this.error,
    };
  }

  onStatus(listener: (status: SaveStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Send what is waiting and resolve once the server has every edit (true), or after
   * `timeoutMs` with some still unsaved (false): Finish waits on it, so the code it
   * submits is the code on screen. */
  settled(timeoutMs: number): Promise<boolean> {
    this.flush();
    if (this.pending === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, timeoutMs);
      const stop = this.onStatus((status) => {
        if (status.pending > 0) return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
    });
  }

  /** Connection changed: refresh the indicator (and send if we are back). */
  connectionChanged(): void {
    if (this.sender.isLive) this.flush();
    this.notify();
  }

  destroy(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const doc of this.docs.values()) doc.destroy();
    this.listeners.clear();
  }

  private queue(name: string, update: Uint8Array): void {
    const list = this.unsent.get(name) ?? [];
    list.push(update);
    this.unsent.set(name, list);
    this.error = null;
    if (!this.timer) this.timer = setTimeout(() => this.flush(), BATCH_MS);
    this.notify();
  }

  /** Send every waiting edit, one merged update per document. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.sender.isLive) {
      this.notify();
      return;
    }
    for (const [name, updates] of this.unsent) {
      if (!updates.length) continue;
      const merged = updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
      const message: Outgoing = { doc: name, update: toBase64(merged), ref: `d${this.nextRef++}` };
      if (!this.sender.send({ type: "doc.update", ...message })) break;
      this.unsent.set(name, []);
      this.inflight.set(message.ref, message);
      this.byUpdate.set(message.update, message.ref);
    }
    this.notify();
  }

  private notify(): void {
    const status = this.status();
    for (const listener of [...this.listeners]) listener(status);
  }
}

/** The label of the autosave indicator. */
export function saveLabel(status: SaveStatus): string {
  if (status.error) return i18next.t("rooms:autosave.error", { message: status.error });
  if (status.pending === 0) return i18next.t("rooms:autosave.allSaved");
  return status.offline ? i18next.t("rooms:autosave.offline") : i18next.t("rooms:autosave.saving");
}
