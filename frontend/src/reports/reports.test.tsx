import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api, type ReviewScore, type Submission } from "../api/client";
import { loadHistory } from "../rooms/shared/useStageRoom";
import { rowsFromSubmissions } from "../rooms/coding/useSubmissions";
import { LineChart, scale } from "./charts";
import { ReviewMatchOverrides } from "./ReviewMatchOverrides";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function stubFetch(handler: (url: string, init?: RequestInit) => unknown) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => new Response(JSON.stringify(handler(url, init)), { status: 200 }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("api client: bank and history calls", () => {
  it("posts YAML text as application/yaml with the verify flag in the query", async () => {
    const fetchMock = stubFetch(() => ({}));
    await api.bankImportYaml("rubrics: []\n", false);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/v1/bank/import/?verify=0");
    expect((init!.headers as Record<string, string>)["Content-Type"]).toBe("application/yaml");
    expect(init!.body).toBe("rubrics: []\n");
    await api.stageEvents(4, { after: 10, exclude: "doc.update" });
    expect(fetchMock.mock.calls[1]![0]).toBe("/api/v1/stages/4/events/?after=10&exclude=doc.update");
  });

  it("loads a room's history in pages, up to the documents' last_seq", async () => {
    const calls: string[] = [];
    stubFetch((url) => {
      calls.push(url);
      const after = Number(new URL(url, "http://x").searchParams.get("after"));
      // pages of 5000 would be too many for a test: pretend the first page is full
      if (after === 0) return Array.from({ length: 5000 }, (_, i) => ({ type: "chat", seq: i + 1 }));
      return [{ type: "chat", seq: 5001 }, { type: "chat", seq: 5002 }, { type: "chat", seq: 5003 }];
    });
    const events = await loadHistory(9, 5002);
    expect(events).toHaveLength(5002);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain("exclude=doc.update%2Cpresence%2Csubmission.status");
    expect(await loadHistory(9, 0)).toEqual([]);
  });

  it("seeds the verdict table from the submissions list, results included", () => {
    const rows = rowsFromSubmissions([
      { id: 3, question: 5, part: 1, mode: "submit", status: "done", verdict: "accepted", passed: 2, total: 2, tests: [] } as unknown as Submission,
      { id: 4, question: 5, part: 1, mode: "run", status: "running", verdict: "", passed: 0, total: 0, tests: [] } as unknown as Submission,
    ]);
    expect(rows.get(3)).toMatchObject({ status: "done", verdict: "accepted", passed: 2 });
    expect(rows.get(3)!.detail).toBeDefined();
    expect(rows.get(4)!.detail).toBeUndefined();
  });
});

describe("charts", () => {
  it("scales values and draws one path per series", () => {
    expect(scale(5, 0, 10, 0, 100)).toBe(50);
    expect(scale(3, 3, 3, 0, 100)).toBe(50);
    const { container } = render(
      <LineChart
        label="scores"
        series={[
          { name: "Coding", points: [{ x: 1, y: 40 }, { x: 2, y: 70 }] },
          { name: "Design", points: [{ x: 1, y: 55 }] },
        ]}
      />,
    );
    expect(container.querySelectorAll("path")).toHaveLength(1); // a single point draws no line
    expect(container.querySelectorAll("circle")).toHaveLength(3);
    expect(screen.getByText("Design")).toBeTruthy();
  });
});

describe("review match overrides", () => {
  const score = {
    recall: 0.5,
    precision: 1,
    comments: 1,
    flaws: 2,
    hits: 1,
    duplicates: 0,
    misses: 0,
    matched: [{ id: 11, question: 1, position: 1, category: "spof", lines: [3, 5], severity: "high", explanation: "x", comments: [7] }],
    missed: [{ id: 12, question: 1, position: 2, category: "timeouts", lines: [9, 9], severity: "low", explanation: "y", comments: [] }],
    comment_matches: [{ comment: 7, question: 1, lines: [3, 4], category: "spof", flaw: 11, status: "hit", source: "auto", overlap: 2 }],
    explanation: [],
  } as unknown as ReviewScore;

  it("lets the coach rule a comment onto another flaw, or back to automatic", async () => {
    const fetchMock = stubFetch((url, init) => {
      if (url.endsWith("/review-comments/")) return [{ id: 7, question: 1, lines: [3, 4], category: "spof", text: "one router" }];
      if (init?.method === "PUT") return { ...score, comment_matches: [{ ...score.comment_matches[0], flaw: 12, source: "coach" }] };
      return score;
    });
    const onScore = vi.fn();
    render(<ReviewMatchOverrides stageId={5} score={score} onScore={onScore} />);
    await screen.findByText("one router");
    const select = screen.getByLabelText("Match of the comment on lines 3–4") as HTMLSelectElement;
    expect(select.value).toBe("auto");
    expect(select.options[0]!.text).toBe("Automatic (flaw 1)");
    fireEvent.change(select, { target: { value: "12" } });
    await waitFor(() => expect(onScore).toHaveBeenCalled());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT")!;
    expect(put[0]).toBe("/api/v1/stages/5/review-matches/");
    expect(JSON.parse(String(put[1]!.body))).toEqual({ comment: 7, flaw: 12 });
    fireEvent.change(select, { target: { value: "auto" } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(true));
  });

  it("lets the coach accept a comment as a valid finding that is not a planted flaw", async () => {
    const fetchMock = stubFetch((url, init) => {
      if (url.endsWith("/review-comments/")) return [{ id: 7, question: 1, lines: [3, 4], category: "spof", text: "one router" }];
      if (init?.method === "PUT") return { ...score, comment_matches: [{ ...score.comment_matches[0], flaw: null, status: "valid", source: "coach", note: "accepted as valid by the coach" }] };
      return score;
    });
    render(<ReviewMatchOverrides stageId={5} score={score} onScore={vi.fn()} />);
    await screen.findByText("one router");
    const select = screen.getByLabelText("Match of the comment on lines 3–4") as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "valid" } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT")!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({ comment: 7, flaw: null, valid: true });
  });
});
