import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { AutoScorecard } from "../api/client";
import { AutoScorecardView } from "./AutoScorecard";

afterEach(cleanup);

const card = {
  source: "auto",
  stage: 1,
  kind: "values",
  summary: "1 of 2 dimensions measured from your answers; 1 of 2 key points covered.",
  scores: [
    {
      dimension: "Judgment",
      level: 2,
      comment: "key points covered: 1/2 = 50% → level 2",
      evidence: [{ rule: "key-point.covered", text: 'covered (Q1): Names a risk — "Misuse."' }],
    },
    { dimension: "Clarity", level: null, comment: "Not measured automatically.", evidence: [] },
  ],
  score: { dimensions: [], missing: ["Clarity"], complete: false, overall: 1 / 3, percent: 33.3, level: 2, explanation: "(1×0.33) / 1 = 0.33" },
  questions: [],
  key_points: [
    { point: "Names a risk", dimension: "Judgment", source: "Q1", covered: true, sentence: "Misuse.", pattern: "misuse", language: "en" },
    { point: "Says who owns it", dimension: "Judgment", source: "Q1 follow-up 1", covered: false, sentence: "", pattern: "", language: "en" },
  ],
} as AutoScorecard;

describe("AutoScorecardView", () => {
  it("labels the card automatic and shows each score's evidence, the key points and the candidate's own level", () => {
    render(<AutoScorecardView card={card} selfLevels={{ Judgment: 3 }} />);
    expect(screen.getByText("Automatic scorecard")).toBeTruthy();
    expect(screen.getByText('covered (Q1): Names a risk — "Misuse."')).toBeTruthy();
    expect(screen.getByText("not measured")).toBeTruthy();
    expect(screen.getByText("you: 3/4")).toBeTruthy();
    expect(screen.getByText(/Key points: 1 of 2 covered/)).toBeTruthy();
    expect(screen.getByText("“Misuse.”")).toBeTruthy();
  });
});
