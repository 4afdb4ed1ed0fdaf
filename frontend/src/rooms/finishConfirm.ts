// What the candidate confirms before finishing a stage early: that it closes, and which
// code of theirs will be submitted for judging (as at the deadline) rather than lost.
import type { FinishPreview } from "../api/client";

export function finishConfirmText(preview: FinishPreview): string {
  const questions = preview.unsubmitted;
  const closing = "You cannot edit it afterwards.";
  if (questions.length === 0) return `Finish this stage? ${closing}`;
  const what = questions.length === 1 ? `1 question (${questions[0]!.title})` : `${questions.length} questions`;
  return `Finish this stage? Your latest code for ${what} will be submitted for judging. ${closing}`;
}
