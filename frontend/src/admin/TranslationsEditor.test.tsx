import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { bodyOf, newQuestion, type QuestionDraft, type Translations } from "./model";
import { TranslationsEditor, translatableFields, translationSet, translationsTabLabel } from "./TranslationsEditor";

afterEach(cleanup);

function question(): QuestionDraft {
  const draft = newQuestion("coding");
  draft.title = "Token batching";
  draft.prompt = "Batch the requests.";
  draft.coding!.parts = [
    { title: "Fixed batches", prompt: "Cut into batches.", samples: [], hidden: [] },
    { title: "Pre-emption", prompt: "", samples: [], hidden: [] },
  ];
  draft.follow_ups = [{ prompt: "Now K at most.", trigger: "manual", coach_notes: "Look for a heap." }];
  return draft;
}

function Harness({ initial, errors = {}, seen }: { initial: QuestionDraft; errors?: Record<string, unknown>; seen: (Translations | undefined)[] }) {
  const [draft, setDraft] = useState(initial);
  return (
    <TranslationsEditor
      draft={draft}
      errors={errors}
      onChange={(i18n) => {
        seen.push(i18n);
        setDraft({ ...draft, i18n });
      }}
    />
  );
}

describe("translations editor", () => {
  it("lists each text field the English has, never code or tests", () => {
    const paths = translatableFields(question()).map((f) => f.path.join("."));
    expect(paths).toEqual(["title", "prompt", "parts.1.title", "parts.1.prompt", "parts.2.title", "follow_ups.1.prompt", "follow_ups.1.model_answer"]);
  });

  it("shows the English beside each translation and writes the bank-file block", () => {
    const seen: (Translations | undefined)[] = [];
    render(<Harness initial={question()} seen={seen} />);
    expect(screen.getByText("Cut into batches.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Part 1: title in 简体中文"), { target: { value: "固定批次" } });
    expect(seen.at(-1)).toEqual({ "zh-Hans": { parts: { "1": { title: "固定批次" } } } });
    expect(screen.getByTestId("translations-progress").textContent).toBe("1 of 7 fields translated");

    fireEvent.change(screen.getByRole("combobox"), { target: { value: "zh-Hant" } });
    fireEvent.change(screen.getByLabelText("Follow-up 1: model answer (the coach notes) in 繁體中文"), { target: { value: "看是否用堆。" } });
    expect(seen.at(-1)).toEqual({
      "zh-Hans": { parts: { "1": { title: "固定批次" } } },
      "zh-Hant": { follow_ups: { "1": { model_answer: "看是否用堆。" } } },
    });
  });

  it("clearing a field removes it and every mapping it empties, so the body stays clean", () => {
    const once = translationSet(undefined, "zh-Hans", ["parts", "2", "title"], "抢占");
    expect(translationSet(once, "zh-Hans", ["parts", "2", "title"], " ")).toEqual({});
    const draft = { ...question(), i18n: {} };
    expect("i18n" in bodyOf(draft)).toBe(false);
    expect(translationsTabLabel({ ...draft, i18n: once })).toBe("Translations (1 language)");
  });

  it("shows the server's problems at their paths", () => {
    render(<Harness initial={question()} seen={[]} errors={{ "i18n.zh-Hans.parts.1.prompt": ["must be a string"] }} />);
    const row = document.querySelector('[data-path="i18n.zh-Hans.parts.1.prompt"]')!;
    expect(row.textContent).toContain("must be a string");
  });
});

describe("translations the English no longer has", () => {
  it("are listed and can be removed in one go", () => {
    const seen: (Translations | undefined)[] = [];
    const draft = { ...question(), i18n: { "zh-Hans": { title: "批处理", parts: { "3": { title: "第三" } } }, "zh-Hant": { flaws: { "1": { explanation: "x" } } } } };
    render(<Harness initial={draft} seen={seen} />);
    expect(screen.getByTestId("orphan-translations").textContent).toContain("2 translations have no English");
    fireEvent.click(screen.getByRole("button", { name: "Remove them" }));
    expect(seen.at(-1)).toEqual({ "zh-Hans": { title: "批处理" } });
    expect(screen.queryByTestId("orphan-translations")).toBeNull();
  });
});
