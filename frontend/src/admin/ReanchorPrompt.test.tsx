import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { ReanchorPrompt } from "./ReanchorPrompt";

describe("ReanchorPrompt", () => {
  it("shows each flaw's old and proposed lines and text, and confirms or cancels", () => {
    const onAccept = vi.fn();
    const onCancel = vi.fn();
    render(
      <ReanchorPrompt
        busy={false}
        onAccept={onAccept}
        onCancel={onCancel}
        proposals={[
          { index: 1, category: "spof", lines_before: [3, 5], lines_after: [4, 7], text_before: "one router", text_after: "one router\nnew line", deleted: false },
          { index: 2, category: "timeouts", lines_before: [9, 9], lines_after: [8, 8], text_before: "no timeout", text_after: "", deleted: true },
        ]}
      />,
    );
    expect(screen.getByRole("alertdialog").textContent).toContain("2 planted flaws");
    expect(screen.getByText(/Flaw #2 · spof/).parentElement?.textContent).toContain("lines 3–5 → lines 4–7");
    expect(screen.getByText(/Flaw #3 · timeouts/).parentElement?.textContent).toContain("which the edit deleted");
    fireEvent.click(screen.getByRole("button", { name: "Move them as proposed and save" }));
    expect(onAccept).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole("button", { name: "Keep editing" }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
