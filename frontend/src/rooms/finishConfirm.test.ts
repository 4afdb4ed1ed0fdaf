import { describe, expect, it } from "vitest";

import { finishConfirmText } from "./finishConfirm";

describe("finishConfirmText", () => {
  it("says nothing is submitted when there is no unsubmitted code", () => {
    expect(finishConfirmText({ unsubmitted: [] })).toBe("Finish this stage? You cannot edit it afterwards.");
  });

  it("names the one question whose code will be judged", () => {
    expect(finishConfirmText({ unsubmitted: [{ question: 3, title: "Token batching" }] })).toBe(
      "Finish this stage? Your latest code for 1 question (Token batching) will be submitted for judging. You cannot edit it afterwards.",
    );
  });

  it("counts several questions", () => {
    const preview = { unsubmitted: [{ question: 1, title: "A" }, { question: 2, title: "B" }] };
    expect(finishConfirmText(preview)).toContain("Your latest code for 2 questions will be submitted for judging.");
  });
});
