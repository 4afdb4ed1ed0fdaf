// "Practise in English, review in Chinese": on a finished stage's feedback page the
// candidate reads the scorecard and the model answers in another language — they are asked
// again with ?lang=, the page around them stays in the interface's language, and bank text
// the server could not translate says it is shown in English.
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { type AutoScorecard, api, type ModelAnswers, type StageDetail } from "../api/client";
import { SessionProvider, useSession } from "../auth/session";
import { recordingApi } from "../recording/api";
import { ScorecardView } from "./ScorecardView";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const stage = { id: 7, loop: 3, title: "Values round", kind: "values", status: "done", questions: [], rubric: null } as unknown as StageDetail;

function card(lang: string | undefined): AutoScorecard {
  const zh = lang === "zh-Hans";
  return {
    source: "auto",
    stage: 7,
    kind: "values",
    summary: zh ? "从你的回答中测得 1 个维度。" : "1 dimension measured from your answers.",
    scores: [],
    score: { dimensions: [], missing: [], complete: true, overall: 0.5, percent: 50, level: 2, explanation: "" },
    questions: [],
    key_points: [
      { point: zh ? "指出一个风险" : "Names a risk", dimension: "Judgment", source: "Q1", covered: true, sentence: "Misuse.", pattern: "", language: lang ?? "en" },
    ],
  } as unknown as AutoScorecard;
}

function answers(lang: string | undefined): ModelAnswers {
  const zh = lang === "zh-Hans";
  return {
    stage: 7,
    questions: [
      { question: 1, title: zh ? "一次艰难的决定" : "A hard call", kind: "discussion", strong_answers: [], reference: {}, complexity: null, wrong_patterns: [], flaws: [], language: lang ?? "en" },
      // No Chinese for this one yet: the server sends the English and says so.
      { question: 2, title: "Owning a mistake", kind: "discussion", strong_answers: [], reference: {}, complexity: null, wrong_patterns: [], flaws: [], language: "en" },
    ],
  } as unknown as ModelAnswers;
}

/** The page as RequireAuth shows it: once the session says who is signed in. */
function SignedIn() {
  const { session } = useSession();
  return session.state === "signed-in" ? <ScorecardView /> : null;
}

function renderPage() {
  vi.spyOn(api, "session").mockResolvedValue({ me: { id: 1, username: "ada", role: "candidate" } });
  vi.spyOn(api, "stage").mockResolvedValue(stage);
  const scorecard = vi.spyOn(api, "scorecard").mockImplementation(async (_id, lang) => card(lang) as never);
  const model = vi.spyOn(api, "modelAnswers").mockImplementation(async (_id, lang) => answers(lang));
  vi.spyOn(recordingApi, "list").mockResolvedValue([]);
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={["/stages/7/scorecard"]}>
        <Routes>
          <Route path="/stages/:stageId/scorecard" element={<SignedIn />} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  return { scorecard, model };
}

describe("reading the feedback in another language", () => {
  it("asks the scorecard and model answers again with ?lang and says what is still English", async () => {
    const { scorecard, model } = renderPage();
    expect(await screen.findByText("A hard call")).toBeTruthy();
    expect(screen.queryByTestId("untranslated-note")).toBeNull();

    const toggle = screen.getByTestId("feedback-language");
    expect(toggle.textContent).toContain("Read feedback in:");
    fireEvent.click(within(toggle).getByRole("button", { name: "简体中文" }));

    expect(await screen.findByText("一次艰难的决定")).toBeTruthy();
    expect(await screen.findByText("指出一个风险")).toBeTruthy();
    expect(model).toHaveBeenLastCalledWith(7, "zh-Hans");
    expect(scorecard).toHaveBeenLastCalledWith(7, "zh-Hans");
    // The one question without a translation says so, in the interface's language.
    const notes = screen.getAllByTestId("untranslated-note");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent).toBe("Not translated yet — shown in English");
    // The page around the feedback stays in English.
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Scorecard · Values round");
    expect(screen.getByText("Model answers")).toBeTruthy();
    expect(within(toggle).getByRole("button", { name: "简体中文" }).getAttribute("aria-pressed")).toBe("true");

    fireEvent.click(within(toggle).getByRole("button", { name: "English" }));
    expect(await screen.findByText("A hard call")).toBeTruthy();
    expect(screen.queryByTestId("untranslated-note")).toBeNull();
  });
});
