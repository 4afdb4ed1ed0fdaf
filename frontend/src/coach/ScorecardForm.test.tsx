// The scorecard's recommendation starts unset, and submitting without one is refused with a
// message that says what to do (a draft may stay without one).
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiError, api, type Rubric } from "../api/client";
import { needsRecommendation, ScorecardForm } from "./ScorecardForm";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const rubric = {
  slug: "coding-default",
  dimensions: [{ name: "Clarifies the problem", weight: 1, levels: ["Jumps in", "Asks one question", "Pins the inputs", "Pins inputs and limits"] }],
} as unknown as Rubric;

describe("ScorecardForm", () => {
  it("starts with no recommendation and refuses to submit without one", async () => {
    vi.spyOn(api, "scorecard").mockRejectedValue(new ApiError(404, "Not found."));
    const save = vi.spyOn(api, "scorecardSave");
    render(<ScorecardForm stageId={3} rubric={rubric} />);
    const recommendation = screen.getByLabelText("Recommendation") as HTMLSelectElement;
    expect(recommendation.value).toBe("");
    expect(screen.getByText("Pins inputs and limits")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Submit scorecard" }));
    expect((await screen.findByRole("alert")).textContent).toBe(needsRecommendation());
    expect(needsRecommendation()).toMatch(/^Choose a recommendation/);
    expect(save).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(recommendation);
  });
});
