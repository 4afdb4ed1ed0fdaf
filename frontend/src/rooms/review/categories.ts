// The review-flaw categories (DESIGN.md) with the labels people read: the review room,
// the flaw editor, replays and reports all name them the same way.
import type { ReviewCategory } from "../../api/client";

export const REVIEW_CATEGORIES: { value: ReviewCategory; label: string }[] = [
  { value: "spof", label: "Single point of failure" },
  { value: "timeouts", label: "Timeouts / synchronous calls" },
  { value: "gpu-memory", label: "GPU memory / KV cache" },
  { value: "prefill-decode", label: "Prefill vs decode" },
  { value: "concurrency", label: "Concurrency / deadlock" },
  { value: "consistency", label: "Consistency / split-brain" },
  { value: "idempotency", label: "Idempotency" },
  { value: "observability", label: "Observability / metrics" },
  { value: "security", label: "Security" },
  { value: "other", label: "Other" },
];

export const REVIEW_CATEGORY_LABEL: Record<string, string> = Object.fromEntries(REVIEW_CATEGORIES.map((c) => [c.value, c.label]));
