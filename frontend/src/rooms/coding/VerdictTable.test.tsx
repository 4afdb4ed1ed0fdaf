import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { Submission } from "../../api/client";
import type { SubmissionRow } from "./useSubmissions";
import { SubmissionResult } from "./VerdictTable";

function row(detail: Partial<Submission>, mode = "run"): SubmissionRow {
  const test = { index: 0, hidden: false, verdict: "accepted", time_ms: 3, memory_kb: 9000, input: "3 4\n", output: "7\n", expected: "", stderr: "", message: "" };
  return {
    id: 5,
    question: 1,
    part: 1,
    mode,
    status: "done",
    verdict: "accepted",
    passed: 1,
    total: 1,
    seenAt: 0,
    detail: { id: 5, mode, stdin: null, auto: false, tests: [test], ...detail } as unknown as Submission,
  };
}

afterEach(cleanup);

describe("SubmissionResult", () => {
  it("shows a run on the candidate's own input as its output, with no verdict", () => {
    render(<SubmissionResult row={row({ stdin: "3 4\n" })} />);
    expect(screen.getByText(/Run on your input #5/)).toBeTruthy();
    expect(screen.queryByText("accepted")).toBeNull();
    expect(screen.queryByText(/passed/)).toBeNull();
    expect(screen.queryByText("Expected")).toBeNull();
    expect(screen.getByTestId("custom-output").textContent).toBe("7\n");
    expect(screen.getAllByText("ran").length).toBeGreaterThan(0);
  });

  it("still says when the program on custom input crashed", () => {
    const crashed = row({ stdin: "x\n" });
    crashed.verdict = "runtime_error";
    crashed.detail!.tests[0]!.verdict = "runtime_error";
    render(<SubmissionResult row={crashed} />);
    expect(screen.getAllByText("runtime error").length).toBe(2);
  });

  it("compares a sample run with the expected output", () => {
    render(<SubmissionResult row={row({})} />);
    expect(screen.getAllByText("accepted").length).toBe(2);
    expect(screen.getByText("1/1 passed")).toBeTruthy();
    expect(screen.getByText("Expected")).toBeTruthy();
  });

  it("names a submit the end of the stage made", () => {
    render(<SubmissionResult row={row({ auto: true }, "submit")} />);
    expect(screen.getByText(/Submitted when the stage ended #5/)).toBeTruthy();
  });
});
