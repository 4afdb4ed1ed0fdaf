import { act, cleanup, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { Submission } from "../api/client";
import { rowsFromEvents, type SubmissionRow } from "./coding/useSubmissions";
import { OutputDiff, VerdictTable } from "./coding/VerdictTable";
import { nextRange } from "./review/ReviewRoom";
import { renderMarkdown } from "./shared/renderMarkdown";
import { autosaveLabel, useAutosave } from "./shared/useAutosave";
import { FollowUpBanners, remainingNow } from "./shared/widgets";
import { chatEvent, followUpEvent, submissionEvent } from "../ws/testEvents";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function row(extra: Partial<SubmissionRow>): SubmissionRow {
  return { id: 1, question: 5, part: 1, mode: "run", status: "done", verdict: "accepted", passed: 1, total: 1, seenAt: 0, ...extra };
}

describe("verdict table", () => {
  it("shows input, expected and output for samples of a run, and only the summary for hidden tests", () => {
    const detail = {
      id: 2,
      compile_output: "",
      tests: [
        { index: 0, hidden: false, verdict: "wrong_answer", time_ms: 12, memory_kb: 9000, input: "3 1\n", expected: "@0 r1\nwaste 0\n", output: "@0 r1\nwaste 2\n", stderr: "" },
        { index: 0, hidden: true, verdict: "accepted", time_ms: 8, memory_kb: 9100 },
      ],
    } as unknown as Submission;
    render(<VerdictTable rows={[row({ id: 2, verdict: "wrong_answer", passed: 1, total: 2, detail })]} />);
    expect(screen.getByText("Run #2 · part 1")).toBeTruthy();
    expect(screen.getAllByTestId("verdict").map((v) => v.textContent)).toEqual(["wrong answer", "wrong answer", "accepted"]);
    expect(screen.getByText("1/2 passed")).toBeTruthy();
    expect(screen.getByText("sample")).toBeTruthy();
    expect(screen.getByText("hidden")).toBeTruthy();
    expect(screen.getAllByText("Input, expected and output")).toHaveLength(1);
    expect(screen.getByText("waste 2")).toBeTruthy();
  });

  it("shows a queued submission's place in the judge's queue", () => {
    render(<VerdictTable rows={[row({ id: 4, status: "queued", verdict: "", position: 3 })]} />);
    expect(screen.getByText("queued (position 3)…")).toBeTruthy();
    cleanup();
    render(<VerdictTable rows={[row({ id: 4, status: "running", verdict: "", position: null })]} />);
    expect(screen.getByText("running…")).toBeTruthy();
  });

  it("shows no figure per hidden test, only the submit's maximum", () => {
    const detail = {
      id: 3,
      part: 1,
      mode: "submit",
      status: "done",
      verdict: "accepted",
      compile_output: "",
      max_time_ms: 41,
      max_memory_kb: 20480,
      tests: [
        { index: 0, hidden: true, verdict: "accepted", time_ms: null, memory_kb: null },
        { index: 1, hidden: true, verdict: "skipped", time_ms: null, memory_kb: null },
      ],
    } as unknown as Submission;
    render(<VerdictTable rows={[row({ id: 3, mode: "submit", passed: 1, total: 2, detail })]} />);
    expect(screen.getAllByText("—")).toHaveLength(4);
    expect(screen.getAllByTestId("verdict").map((v) => v.textContent)).toEqual(["accepted", "accepted", "skipped"]);
    expect(screen.getByTestId("submission-max").textContent).toBe("max 41 ms · 20 MB");
  });

  it("shows a pending submission as queued, then running", () => {
    const { rerender } = render(<VerdictTable rows={[row({ status: "queued", verdict: "" })]} />);
    expect(screen.getByText("queued…")).toBeTruthy();
    rerender(<VerdictTable rows={[row({ status: "running", verdict: "" })]} />);
    expect(screen.getByText("running…")).toBeTruthy();
  });

  it("marks the lines that differ", () => {
    const { container } = render(<OutputDiff expected={"a\nb\nc"} output={"a\nx\nc\n"} />);
    expect(container.querySelectorAll("tr.diff-bad")).toHaveLength(1);
  });

  it("folds submission.status events into rows, never going back from a final status", () => {
    const events = [
      submissionEvent(1, { id: 9, status: "queued", question: 5 }),
      submissionEvent(2, { id: 9, status: "done", verdict: "accepted", passed: 7, total: 7, question: 5 }),
      chatEvent(3, "hi"),
      submissionEvent(4, { id: 9, status: "running", question: 5 }),
    ];
    const rows = rowsFromEvents(events, new Map());
    expect([...rows.values()]).toHaveLength(1);
    expect(rows.get(9)).toMatchObject({ status: "done", verdict: "accepted", passed: 7, total: 7, mode: "submit" });
  });
});

describe("prompts", () => {
  it("renders markdown and strips scripts and event handlers", () => {
    const html = renderMarkdown("# Title\n\n**bold** <img src=x onerror=alert(1)><script>alert(2)</script>\n\n```mermaid\ngraph TD; A-->B\n```");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("<script");
    expect(html).toContain('class="language-mermaid"');
  });

  it("shows each live follow-up as a banner that can be dismissed", () => {
    render(<FollowUpBanners events={[followUpEvent(4, "Now K at most.", 2)]} />);
    expect(screen.getByRole("alert").textContent).toContain("part 2 unlocked");
    fireEvent.click(screen.getByRole("button", { name: "Dismiss follow-up" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("review line selection", () => {
  it("starts a range on click and extends it on shift-click in either direction", () => {
    expect(nextRange(null, 5, false)).toEqual([5, 5]);
    expect(nextRange([5, 5], 9, true)).toEqual([5, 9]);
    expect(nextRange([5, 5], 2, true)).toEqual([2, 5]);
    expect(nextRange([5, 9], 7, false)).toEqual([7, 7]);
  });
});

describe("countdown", () => {
  it("counts down only while live and not paused", () => {
    const timer = { remainingMs: 60_000, paused: false, at: 1000, status: "live" };
    expect(remainingNow(timer, 11_000)).toBe(50_000);
    expect(remainingNow({ ...timer, paused: true }, 11_000)).toBe(60_000);
    expect(remainingNow(timer, 100_000)).toBe(0);
  });
});

describe("autosave", () => {
  it("debounces, reports saving and saved, and keeps the text after a failure", async () => {
    vi.useFakeTimers();
    const save = vi.fn().mockRejectedValueOnce(new Error("boom")).mockResolvedValue({});
    const { result } = renderHook(() => useAutosave(save, 500));
    act(() => result.current.change("a"));
    act(() => result.current.change("ab"));
    expect(autosaveLabel(result.current.state)).toBe("Unsaved changes");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenLastCalledWith("ab");
    expect(autosaveLabel(result.current.state)).toBe("Not saved: boom");
    await act(async () => {
      await result.current.flush();
    });
    expect(save).toHaveBeenLastCalledWith("ab");
    expect(result.current.state.kind).toBe("saved");
  });
});
