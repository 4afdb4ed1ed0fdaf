import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { QuestionAdmin } from "../api/client";
import { KeyPointEditor } from "./KeyPointEditor";
import { bodyOf, draftOf, type KeyPointDraft } from "./model";

afterEach(cleanup);

function Harness({ initial, errors = {}, seen }: { initial: KeyPointDraft[]; errors?: Record<string, unknown>; seen: KeyPointDraft[][] }) {
  const [points, setPoints] = useState(initial);
  return (
    <KeyPointEditor
      title="Key points of the question"
      keyPoints={points}
      onChange={(list) => {
        seen.push(list);
        setPoints(list);
      }}
      errors={errors}
      path="key_points"
      dimensions={["Specific motivation", "Fit"]}
    />
  );
}

describe("key-point editor", () => {
  it("adds a point and edits its text, dimension and patterns in both languages", () => {
    const seen: KeyPointDraft[][] = [];
    render(<Harness initial={[]} seen={seen} />);
    fireEvent.click(screen.getByRole("button", { name: "Add key point" }));
    fireEvent.change(screen.getByLabelText("Point (what a strong answer says)"), { target: { value: "names the mission" } });
    fireEvent.change(screen.getByLabelText("Rubric dimension"), { target: { value: "Fit" } });
    fireEvent.change(screen.getByLabelText(/Patterns, English/), { target: { value: "\\bmission\\b\ngoal" } });
    fireEvent.change(screen.getByLabelText(/Patterns, Chinese/), { target: { value: "使命" } });
    expect(seen.at(-1)).toEqual([{ point: "names the mission", dimension: "Fit", patterns: { en: ["\\bmission\\b", "goal"], zh: ["使命"] } }]);
  });

  it("shows the server's problems at their bank-file paths", () => {
    const errors = { "key_points[0].patterns.en[0]": ["not a regular expression: missing )"], "key_points[0].dimension": ["must not be blank"] };
    render(<Harness initial={[{ point: "x", dimension: "", patterns: { en: ["(a"] } }]} errors={errors} seen={[]} />);
    const alerts = screen.getAllByRole("alert").map((a) => [a.getAttribute("data-path"), a.textContent]);
    expect(alerts).toEqual([
      ["key_points[0].dimension", "must not be blank"],
      ["key_points[0].patterns.en", "not a regular expression: missing )"],
    ]);
  });

  it("round-trips through the draft: GET → edit → PUT body keeps the key points, drops blank patterns", () => {
    const question = {
      id: 3,
      version: 1,
      status: "published",
      slug: "why-here",
      kind: "discussion",
      title: "Why here?",
      difficulty: "easy",
      tags: [],
      prompt: "Why?",
      key_points: [{ point: "mission", patterns: { en: ["mission"], zh: ["使命"] }, dimension: "Fit" }],
      follow_ups: [{ prompt: "Why not elsewhere?", trigger: "after_answer", key_points: [{ point: "compares", patterns: { en: ["compar", " "], zh: [""] }, dimension: "Fit" }] }],
    } as unknown as QuestionAdmin;
    const body = bodyOf(draftOf(question));
    expect(body.key_points).toEqual([{ point: "mission", patterns: { en: ["mission"], zh: ["使命"] }, dimension: "Fit" }]);
    expect(body.follow_ups![0]!.key_points).toEqual([{ point: "compares", patterns: { en: ["compar"] }, dimension: "Fit" }]);
    const cleared = draftOf(question);
    cleared.key_points = [];
    expect("key_points" in bodyOf(cleared)).toBe(false);
  });
});
