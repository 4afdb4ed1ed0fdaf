// The plan page shows each day's practice with its status, today's day and what to repeat;
// "Practise" starts a loop of the item's template and opens that stage.
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api, type Loop, type StudyPlan } from "../api/client";
import { SessionProvider } from "../auth/session";
import { setLanguage } from "../i18n";
import { PlanPage } from "./PlanPage";

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await setLanguage("en");
});

function practice(overrides: Partial<StudyPlan["days"][number]["practice"][number]> = {}) {
  return {
    loop: "infra-coding-practice",
    loop_title: "Infrastructure coding practice",
    stage: 1,
    stage_title: "Concurrency — async job runner",
    kind: "coding",
    minutes: 50,
    status: "not_started" as const,
    times_done: 0,
    last_done_at: null,
    stage_id: null,
    loop_id: null,
    available: true,
    ...overrides,
  };
}

const PLAN: StudyPlan = {
  slug: "two-week-ai-infra",
  title: "Two weeks to the AI-lab infrastructure loop",
  description: "The plan.",
  language: "en",
  fallback_fields: [],
  started_at: "2026-11-30T09:00:00Z",
  today: 2,
  days_done: 1,
  days: [
    {
      number: 1,
      title: "Concurrency and caching",
      phase: "Open-ended coding",
      focus: "Code first.",
      language: "en",
      fallback_fields: [],
      practice: [practice({ status: "done", times_done: 2, stage_id: 11, loop_id: 3 })],
      done: true,
    },
    {
      number: 2,
      title: "Tokenizer and crawler",
      phase: "Open-ended coding",
      focus: "",
      language: "en",
      fallback_fields: [],
      practice: [practice({ stage: 2, stage_title: "Tokenizer — BPE encoder", minutes: 40 })],
      done: false,
    },
  ],
  recommendations: [
    {
      dimension: "Problem solving",
      level: 1.5,
      practice: [{ ...practice({ status: "done", times_done: 2, stage_id: 11, loop_id: 3 }), day: 1 }],
    },
  ],
};

function renderAt(path: string) {
  vi.spyOn(api, "session").mockResolvedValue({ me: { id: 1, username: "ada", role: "candidate", language: "" } });
  vi.spyOn(api, "stageKinds").mockResolvedValue([]);
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/plan/:slug" element={<PlanPage />} />
          <Route path="/stages/:stageId" element={<p>stage page</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
}

describe("PlanPage", () => {
  it("shows today, what was done and what to repeat", async () => {
    vi.spyOn(api, "plan").mockResolvedValue(PLAN);
    renderAt("/plan/two-week-ai-infra");
    expect((await screen.findByTestId("plan-today")).textContent).toBe("Day 2 of 2");
    expect(screen.getByText("Days 1–2 · Open-ended coding")).toBeTruthy();
    const day1 = screen.getByTestId("plan-day-1");
    expect(within(day1).getByText("done 2 times")).toBeTruthy();
    expect(within(day1).getByRole("link", { name: "Review" }).getAttribute("href")).toBe("/stages/11");
    expect(screen.getByTestId("plan-day-2").className).toContain("today");
    const repeat = screen.getByTestId("plan-recommendation");
    expect(within(repeat).getByText("Problem solving")).toBeTruthy();
    expect(within(repeat).getByText("level 1.5 of 4")).toBeTruthy();
    expect(screen.queryByTestId("untranslated-note")).toBeNull();
  });

  it("Practise starts a loop of the item's template and opens its stage", async () => {
    vi.spyOn(api, "plan").mockResolvedValue(PLAN);
    const start = vi.spyOn(api, "loopStart").mockResolvedValue({
      id: 9,
      stages: [
        { id: 90, position: 1 },
        { id: 91, position: 2 },
      ],
    } as unknown as Loop);
    renderAt("/plan/two-week-ai-infra");
    const day2 = await screen.findByTestId("plan-day-2");
    fireEvent.click(within(day2).getByRole("button", { name: "Practise" }));
    expect(await screen.findByText("stage page")).toBeTruthy();
    expect(start).toHaveBeenCalledWith("infra-coding-practice", false);
  });

  it("reads in Chinese when the interface is Chinese", async () => {
    await setLanguage("zh-Hans");
    vi.spyOn(api, "plan").mockResolvedValue(PLAN);
    renderAt("/plan/two-week-ai-infra");
    expect((await screen.findByTestId("plan-today")).textContent).toBe("第 2 天，共 2 天");
    expect(screen.getByText("接下来重练")).toBeTruthy();
    // The bank text came back in English: the page says so.
    expect(screen.getByTestId("untranslated-note").textContent).toBe("尚未翻译——以英文显示");
  });

  it("says nothing about translation when the plan's text is in the interface's language", async () => {
    await setLanguage("zh-Hans");
    const translated = { ...PLAN, language: "zh-Hans", days: PLAN.days.map((day) => ({ ...day, language: "zh-Hans" })) };
    vi.spyOn(api, "plan").mockResolvedValue(translated);
    renderAt("/plan/two-week-ai-infra");
    await screen.findByTestId("plan-today");
    expect(screen.queryByTestId("untranslated-note")).toBeNull();
  });
});
