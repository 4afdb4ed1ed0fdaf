// The review-flaw categories (DESIGN.md) with the labels people read: the review room,
// the flaw editor, replays and reports all name them the same way, in the language shown
// (each label is read from the catalogue when it is used).
import type { ReviewCategory } from "../../api/client";
import { i18next } from "../../i18n";

const CATEGORIES: ReviewCategory[] = [
  "spof",
  "timeouts",
  "gpu-memory",
  "prefill-decode",
  "concurrency",
  "consistency",
  "idempotency",
  "observability",
  "security",
  "other",
];

const label = (category: ReviewCategory) => i18next.t(`rooms:category.${category}`);

export const REVIEW_CATEGORIES: readonly { readonly value: ReviewCategory; readonly label: string }[] = CATEGORIES.map(
  (value) => ({
    value,
    get label() {
      return label(value);
    },
  }),
);

export const REVIEW_CATEGORY_LABEL: Record<string, string> = Object.defineProperties(
  {},
  Object.fromEntries(CATEGORIES.map((value) => [value, { enumerable: true, get: () => label(value) }])),
);
