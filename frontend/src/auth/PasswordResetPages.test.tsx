// The reset page sends the link's uid and token with the new password, and a refused link
// says so and offers a new one.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiError, api } from "../api/client";
import { ForgotPasswordPage, ResetPasswordPage } from "./PasswordResetPages";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function openReset() {
  render(
    <MemoryRouter initialEntries={["/reset-password?uid=MQ&token=abc-123"]}>
      <ResetPasswordPage />
    </MemoryRouter>,
  );
  fireEvent.change(screen.getByLabelText("New password"), { target: { value: "another-Battery-Staple-7" } });
  fireEvent.click(screen.getByRole("button", { name: "Set the new password" }));
}

describe("password reset pages", () => {
  it("sends the link's uid and token and then points to sign-in", async () => {
    const confirm = vi.spyOn(api, "passwordResetConfirm").mockResolvedValue(undefined);
    openReset();
    expect((await screen.findByRole("status")).textContent).toContain("Your password is changed");
    expect(confirm).toHaveBeenCalledWith("MQ", "abc-123", "another-Battery-Staple-7");
  });

  it("offers a new link when the link is refused", async () => {
    vi.spyOn(api, "passwordResetConfirm").mockRejectedValue(
      new ApiError(400, "This reset link is invalid, used already or expired; ask for a new one.", {}, { code: "reset_link_invalid" }),
    );
    openReset();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("used already or expired");
    expect(screen.getByRole("link", { name: "Ask for a new link" }).getAttribute("href")).toBe("/forgot-password");
  });

  it("shows the server's one answer after a request", async () => {
    vi.spyOn(api, "passwordResetRequest").mockResolvedValue({ detail: "If an account has this address, a mail is on its way." });
    render(
      <MemoryRouter>
        <ForgotPasswordPage />
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Mail me a link" }));
    expect((await screen.findByRole("status")).textContent).toContain("If an account has this address");
  });
});
