// The stage kinds the server knows — `GET /api/v1/stage-kinds/`, its registry in
// interviews/stage_kinds.py — fetched once per page load and shared by every page that
// needs a kind's label, its room or the question kinds it takes. The frontend keeps no
// list of its own: a kind added on the server shows up here without a frontend change
// (and, if its room is one this build lacks, as an explicit "not supported" panel).
import { useSyncExternalStore } from "react";

import { api, type StageKindSpec } from "../api/client";
import { i18next } from "../i18n";
import { type LoadProblem, nextProblem } from "./retry";

export class StageKinds {
  readonly list: readonly StageKindSpec[];
  private readonly byKind: ReadonlyMap<string, StageKindSpec>;

  constructor(list: readonly StageKindSpec[]) {
    this.list = list;
    this.byKind = new Map(list.map((spec) => [spec.kind, spec]));
  }

  /** The spec of `kind`; undefined for a kind this server does not list. */
  get(kind: string): StageKindSpec | undefined {
    return this.byKind.get(kind);
  }

  /** "Live coding" for `coding`. */
  label(kind: string): string {
    return stageKindLabel(this, kind);
  }
}

/** The kind's label, or (not loaded yet, or unknown) its slug as words: "hm call". */
export function stageKindLabel(kinds: StageKinds | null, kind: string): string {
  return kinds?.get(kind)?.label ?? kind.replace(/_/g, " ");
}

export interface StageKindsSnapshot {
  kinds: StageKinds | null;
  /** The failed fetch (retried by itself when it may work); null while loading and once loaded. */
  problem: LoadProblem | null;
}

/** Fetches the list on first subscription, keeps it for the life of the page. */
export class StageKindsStore {
  private snapshot: StageKindsSnapshot = { kinds: null, problem: null };
  private readonly listeners = new Set<() => void>();
  private loading = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly fetchKinds: () => Promise<StageKindSpec[]> = () => api.stageKinds()) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    void this.load();
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): StageKindsSnapshot => this.snapshot;

  /** Fetch the list unless it is here or on its way; `again` fetches it even when it is
   * here (the interface's language changed), keeping the labels shown until the new ones
   * arrive, and keeping them if that fetch fails. */
  async load(again = false): Promise<void> {
    const kept = this.snapshot.kinds;
    if ((kept && !again) || this.loading) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.loading = true;
    try {
      const list = await this.fetchKinds();
      this.set({ kinds: new StageKinds(list), problem: null });
    } catch (err) {
      if (kept) return; // the labels we have stay
      const { problem, delayMs } = nextProblem(this.snapshot.problem, err);
      this.set({ kinds: null, problem });
      if (delayMs !== null) this.retryTimer = setTimeout(() => void this.load(), delayMs);
    } finally {
      this.loading = false;
    }
  }

  /** The interface's language changed: fetch the labels again in it. */
  readonly refresh = (): void => {
    void this.load(true);
  };

  /** Try again now (after a failure; otherwise nothing). */
  readonly retry = (): void => {
    void this.load();
  };

  private set(next: StageKindsSnapshot): void {
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
  }
}

export const stageKindsStore = new StageKindsStore();
// The labels are the server's, in the request's language.
i18next.on("languageChanged", () => {
  if (stageKindsStore.getSnapshot().kinds) stageKindsStore.refresh();
});

/** The served stage kinds (null until they arrive) and the failed fetch, if any. */
export function useStageKinds(): StageKindsSnapshot {
  return useSyncExternalStore(stageKindsStore.subscribe, stageKindsStore.getSnapshot);
}

/** `kind → label` for lists and headings; falls back to the slug until the list is here. */
export function useStageKindLabel(): (kind: string) => string {
  const { kinds } = useStageKinds();
  return (kind) => stageKindLabel(kinds, kind);
}
