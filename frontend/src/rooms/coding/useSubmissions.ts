// The verdict table's data: submission rows from `submission.status` events (and from the
// POST that created them), with the full result fetched once judging is over. A slow or
// missed event is covered by polling the submission while it is still running.
import { useCallback, useEffect, useRef, useState } from "react";

import { api, type Submission } from "../../api/client";
import type { StageMessage } from "../../ws/socket";

export interface SubmissionRow {
  id: number;
  question: number;
  part: number;
  mode: string;
  status: string;
  verdict: string;
  passed: number;
  total: number;
  /** While queued: its place in the judge's queue (1: next), from the API. */
  position?: number | null;
  detail?: Submission;
  /** performance.now() of the last news about it. */
  seenAt: number;
}

const FINAL = new Set(["done", "error"]);
const POLL_AFTER_MS = 3000;

export function isFinal(status: string): boolean {
  return FINAL.has(status);
}

export function rowsFromEvents(events: StageMessage[], rows: Map<number, SubmissionRow>): Map<number, SubmissionRow> {
  let changed = false;
  const next = new Map(rows);
  for (const e of events) {
    if (e.type !== "submission.status") continue;
    const { id } = e;
    const current = next.get(id);
    if (current && isFinal(current.status) && !isFinal(e.status)) continue;
    next.set(id, {
      id,
      question: e.question,
      part: e.part,
      mode: e.mode,
      status: e.status,
      verdict: e.verdict,
      passed: e.passed,
      total: e.total,
      position: e.status === "queued" ? current?.position : null,
      detail: current?.detail,
      seenAt: performance.now(),
    });
    changed = true;
  }
  return changed ? next : rows;
}

/** Rows of the submissions a room loaded when it opened (results included). */
export function rowsFromSubmissions(submissions: Submission[]): Map<number, SubmissionRow> {
  const rows = new Map<number, SubmissionRow>();
  for (const s of submissions) {
    const status = s.status ?? "queued";
    rows.set(s.id, {
      id: s.id,
      question: s.question,
      part: s.part,
      mode: s.mode,
      status,
      verdict: s.verdict ?? "",
      passed: s.passed ?? 0,
      total: s.total ?? 0,
      position: s.queue_position,
      detail: isFinal(status) ? s : undefined,
      seenAt: performance.now(),
    });
  }
  return rows;
}

export function useSubmissions(events: StageMessage[], initial: Submission[] = []) {
  const [rows, setRows] = useState<Map<number, SubmissionRow>>(() => rowsFromSubmissions(initial));
  const consumed = useRef(0);
  const fetching = useRef(new Set<number>());

  useEffect(() => {
    const fresh = events.slice(consumed.current);
    consumed.current = events.length;
    if (fresh.length) setRows((current) => rowsFromEvents(fresh, current));
  }, [events]);

  const track = useCallback((row: Omit<SubmissionRow, "seenAt">) => {
    setRows((current) => {
      if (current.has(row.id)) return current;
      const next = new Map(current);
      next.set(row.id, { ...row, seenAt: performance.now() });
      return next;
    });
  }, []);

  const fetchDetail = useCallback(async (id: number) => {
    if (fetching.current.has(id)) return;
    fetching.current.add(id);
    try {
      const detail = await api.submission(id);
      setRows((current) => {
        const row = current.get(id);
        const next = new Map(current);
        next.set(id, {
          id,
          question: detail.question,
          part: detail.part,
          mode: detail.mode,
          status: detail.status ?? row?.status ?? "queued",
          verdict: detail.verdict ?? "",
          passed: detail.passed ?? 0,
          total: detail.total ?? 0,
          position: detail.queue_position,
          detail: isFinal(detail.status ?? "") ? detail : row?.detail,
          seenAt: performance.now(),
        });
        return next;
      });
    } catch {
      /* the next event or poll tries again */
    } finally {
      fetching.current.delete(id);
    }
  }, []);

  // Fetch results of finished rows; poll rows that have been quiet for a while.
  useEffect(() => {
    for (const row of rows.values()) {
      if (isFinal(row.status) && !row.detail) void fetchDetail(row.id);
    }
    const open = [...rows.values()].filter((r) => !isFinal(r.status));
    if (!open.length) return;
    const timer = setInterval(() => {
      const now = performance.now();
      for (const row of open) if (now - row.seenAt > POLL_AFTER_MS) void fetchDetail(row.id);
    }, 1000);
    return () => clearInterval(timer);
  }, [rows, fetchDetail]);

  return { rows, track };
}
