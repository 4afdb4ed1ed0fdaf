// What the candidate confirms before finishing a stage early: that it closes, and which
// code of theirs will be submitted for judging (as at the deadline) rather than lost.
import type { FinishPreview } from "../api/client";
import { i18next } from "../i18n";

export function finishConfirmText(preview: FinishPreview): string {
  const questions = preview.unsubmitted;
  if (questions.length === 0) return i18next.t("rooms:finish.confirm");
  return i18next.t("rooms:finish.confirmSubmit", { count: questions.length, title: questions[0]!.title });
}
