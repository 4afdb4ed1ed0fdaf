import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { QuestionSummary } from "../api/client";
import { contentsOf, QuestionList } from "./QuestionList";

function summary(overrides: Partial<QuestionSummary>): QuestionSummary {
  return {
    id: 1,
    slug: "token-batcher",
    version: 1,
    kind: "coding",
    title: "Token batcher",
    difficulty: "medium",
    tags: ["batching"],
    status: "published",
    verified_at: null,
    verification_state: null,
    part_count: 0,
    sample_count: 0,
    hidden_count: 0,
    follow_up_count: 0,
    flaw_count: 0,
    created_at: "2025-03-04T10:00:00Z",
    ...overrides,
  };
}

const BANK: QuestionSummary[] = [
  summary({ id: 1, part_count: 3, sample_count: 4, hidden_count: 120, follow_up_count: 2, verified_at: "2025-03-04T11:00:00Z" }),
  summary({ id: 2, slug: "lru-cache", title: "LRU cache", status: "draft", verification_state: "failed", part_count: 1, sample_count: 1, hidden_count: 1 }),
  summary({ id: 3, slug: "serving-doc-review", title: "Serving doc", kind: "review", tags: ["review"], flaw_count: 5 }),
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("question list", () => {
  it("shows each question's state and contents from the summaries", async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(BANK), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    render(
      <MemoryRouter initialEntries={["/bank"]}>
        <QuestionList />
      </MemoryRouter>,
    );

    const batcher = await screen.findByTestId("question-row-token-batcher");
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/v1/questions/");
    expect(within(batcher).getByText("verified")).toBeTruthy();
    expect(batcher.textContent).toContain("3 parts · 4 samples · 120 hidden tests · 2 follow-ups");
    const lru = screen.getByTestId("question-row-lru-cache");
    expect(within(lru).getByText("verification failed")).toBeTruthy();
    expect(within(lru).getByText("draft")).toBeTruthy();
    const review = screen.getByTestId("question-row-serving-doc-review");
    expect(review.textContent).toContain("5 planted flaws");
    expect(within(review).queryByText("unverified")).toBeNull(); // only coding is verified

    fireEvent.change(screen.getByLabelText("Search questions"), { target: { value: "review" } });
    expect(screen.queryByTestId("question-row-token-batcher")).toBeNull();
    expect(screen.getByText("1 of 3")).toBeTruthy();
  });

  it("words the counts in the singular when there is one", () => {
    expect(contentsOf(summary({ part_count: 1, sample_count: 1, hidden_count: 1, follow_up_count: 1 }))).toBe(
      "1 part · 1 sample · 1 hidden test · 1 follow-up",
    );
    expect(contentsOf(summary({ kind: "discussion" }))).toBe("");
  });
});
