import { describe, expect, it } from "vitest";

import type { QuestionAdmin } from "../api/client";
import { StageKinds } from "../lib/stageKinds";
import { STAGE_KINDS_FIXTURE } from "../lib/stageKindsFixture";
import { bodyOf, draftOf, errorsAt, errorsStillStanding, loopBank, moveItem, newQuestion, parseFailure, questionKindsFor, rubricBank, valueAt } from "./model";

describe("question drafts", () => {
  it("drops identity and state from what is PUT back, and a published status", () => {
    const question = {
      id: 4,
      version: 2,
      status: "published",
      verified_at: "2026-01-01T00:00:00Z",
      verification: { state: "passed" },
      slug: "adder",
      kind: "discussion",
      title: "T",
      difficulty: "easy",
      tags: [],
      prompt: "p",
    } as unknown as QuestionAdmin;
    const draft = draftOf(question);
    expect(Object.keys(draft).sort()).toEqual(["difficulty", "kind", "prompt", "slug", "tags", "title"]);
  });

  it("leaves out empty optional blocks and fields that do not apply", () => {
    const draft = newQuestion("coding");
    draft.coding!.reference = { python: "print(1)", javascript: "" };
    draft.coding!.entrypoint = "solve";
    draft.follow_ups = [{ prompt: "K at once", trigger: "manual", after_minutes: 5, unlocks_part: undefined, coach_notes: "" }];
    const body = bodyOf(draft);
    expect(body.coding!.reference).toEqual({ python: "print(1)" });
    expect(body.coding!.entrypoint).toBeUndefined();
    expect(body.follow_ups).toEqual([{ prompt: "K at once", trigger: "manual" }]);
    expect(body.rubric).toBeUndefined();
    expect(bodyOf({ ...newQuestion("design"), follow_ups: [] }).follow_ups).toBeUndefined();
  });
});

describe("verification failures", () => {
  it("parses the sandbox's failure lines", () => {
    expect(parseFailure("python: parts[1].hidden[3] wrong_answer (line 1: expected '5', got '4')")).toMatchObject({
      language: "python",
      part: 2,
      test: 4,
      verdict: "wrong_answer",
      detail: "line 1: expected '5', got '4'",
    });
    expect(parseFailure("python: parts[0].samples[1] wrong_answer")).toMatchObject({
      part: 1,
      tests: "sample",
      test: 2,
      verdict: "wrong_answer",
    });
    expect(parseFailure("python: compile_error: bad")).toMatchObject({ language: "python", part: null, verdict: "compile_error" });
    expect(parseFailure("no hidden tests")).toMatchObject({ language: "", part: null, detail: "no hidden tests" });
  });
});

describe("bank documents and paths", () => {
  it("finds errors by exact path or under it", () => {
    const errors = { "coding.parts[0].title": ["missing"], "coding.parts[0].hidden[1].output": ["missing"], title: ["blank"] };
    expect(errorsAt(errors, "title")).toEqual(["blank"]);
    expect(errorsAt(errors, "coding.parts[0]")).toEqual([]);
    expect(errorsAt(errors, "coding.parts[0]", true)).toEqual(["missing", "missing"]);
  });

  it("builds a bank file with just one rubric or loop", () => {
    expect(rubricBank({ slug: "r", title: "", dimensions: [{ name: "A", weight: "2" as unknown as number, levels: ["a", "b", "c", "d"] }] })).toEqual({
      rubrics: [{ slug: "r", dimensions: [{ name: "A", weight: 2, levels: ["a", "b", "c", "d"] }] }],
    });
    const bank = loopBank({
      slug: "l",
      title: "L",
      description: "",
      status: "published",
      stages: [{ kind: "coding", title: "C", minutes: "30" as unknown as number, questions: ["q"], rubric: undefined }],
    });
    expect(bank).toEqual({ loops: [{ slug: "l", title: "L", stages: [{ kind: "coding", title: "C", minutes: 30, questions: ["q"] }] }] });
    expect(loopBank({ slug: "d", title: "D", status: "draft", stages: [] }).loops![0]!.status).toBe("draft");
  });

  it("moves an item (drag to order) and knows which questions a stage takes", () => {
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveItem(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveItem(["a"], 3, 0)).toEqual(["a"]);
    const kinds = new StageKinds(STAGE_KINDS_FIXTURE);
    expect(questionKindsFor(kinds, "challenge")).toEqual(["coding"]);
    expect(questionKindsFor(kinds, "values")).toEqual(["coding", "design", "review", "discussion"]);
    expect(questionKindsFor(kinds, "from-a-newer-server")).toBeNull();
    expect(questionKindsFor(null, "coding")).toBeNull();
  });
});

describe("errors that still stand", () => {
  const before = { title: "", coding: { parts: [{ title: "", hidden: [{ input: "1", output: "" }] }] } };
  const errors = { title: ["must not be empty"], "coding.parts[0].hidden[0].output": ["missing"], non_field_errors: ["2 problems"] };

  it("reads values at bank-file paths", () => {
    expect(valueAt(before, "coding.parts[0].hidden[0].input")).toBe("1");
    expect(valueAt(before, "coding.parts[3].title")).toBeUndefined();
  });

  it("drops the error of a field once it is changed, keeps the rest", () => {
    const after = { ...before, title: "Fixed" };
    expect(errorsStillStanding(errors, before, after)).toEqual({
      "coding.parts[0].hidden[0].output": ["missing"],
      non_field_errors: ["2 problems"],
    });
    expect(errorsStillStanding(errors, before, before)).toEqual(errors);
  });
});

