// The coach's review match panel follows the candidate's comments live: every comment event
// (added, edited, deleted) fetches the score again, without a reload.
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api, type ReviewScore } from "../../api/client";
import type { StageMessage } from "../../ws/socket";
import type { Room } from "../shared/useStageRoom";
import { ReviewWorkspace } from "./ReviewRoom";

vi.mock("../../auth/session", () => ({ useMe: () => ({ username: "coach-lin", role: "coach" }) }));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function room(events: StageMessage[]): Room {
  return {
    stage: {
      id: 7,
      status: "live",
      candidate: "grace",
      questions: [{ id: 3, kind: "review", title: "Gateway design", prompt: "", document: "line one\nline two" }],
    },
    events,
    refused: false,
  } as unknown as Room;
}

function score(matched: number): ReviewScore {
  const flaw = { category: "spof", lines: [1, 1], severity: "high", explanation: `flaw ${matched}` };
  return { recall: matched / 2, precision: 1, comments: matched, matched: Array(matched).fill(flaw), missed: [], comment_matches: [] } as unknown as ReviewScore;
}

function commentEvent(seq: number, type: "review_comment" | "review_comment.updated" | "review_comment.deleted"): StageMessage {
  const base = { seq, at: "2026-01-01T00:00:00Z", actor: "grace", private: false, id: 1 };
  return (type === "review_comment.deleted" ? { ...base, type } : { ...base, type, question: 3, lines: [1, 1], category: "spof", text: "x" }) as unknown as StageMessage;
}

describe("the coach's review match panel", () => {
  it("refreshes on every comment event the candidate's edits send", async () => {
    vi.spyOn(api, "reviewComments").mockResolvedValue([]);
    const scores = vi.spyOn(api, "reviewScore").mockResolvedValueOnce(score(0)).mockResolvedValueOnce(score(1)).mockResolvedValue(score(2));
    const view = render(<ReviewWorkspace room={room([])} editable={false} />);
    await screen.findByText("Found (0)");
    view.rerender(<ReviewWorkspace room={room([commentEvent(4, "review_comment")])} editable={false} />);
    await screen.findByText("Found (1)");
    view.rerender(<ReviewWorkspace room={room([commentEvent(4, "review_comment"), commentEvent(5, "review_comment.deleted")])} editable={false} />);
    await screen.findByText("Found (2)");
    expect(scores).toHaveBeenCalledTimes(3);
  });

  it("does not fetch the score for the candidate while the stage is live", async () => {
    vi.spyOn(api, "reviewComments").mockResolvedValue([]);
    const scores = vi.spyOn(api, "reviewScore").mockResolvedValue(score(0));
    const view = render(<ReviewWorkspace room={room([])} editable />);
    view.rerender(<ReviewWorkspace room={room([commentEvent(4, "review_comment")])} editable />);
    await waitFor(() => expect(api.reviewComments).toHaveBeenCalled());
    expect(scores).not.toHaveBeenCalled();
  });
});
