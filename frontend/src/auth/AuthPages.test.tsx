// A sign-in refused because the address is not confirmed points to the way back in.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiError, api } from "../api/client";
import { LoginPage } from "./AuthPages";
import { SessionProvider } from "./session";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("LoginPage", () => {
  it("offers a password reset when the address is not confirmed", async () => {
    vi.spyOn(api, "session").mockResolvedValue({ me: null });
    vi.spyOn(api, "login").mockRejectedValue(
      new ApiError(403, "Confirm your email address first.", {}, { code: "email_not_verified" }),
    );
    render(
      <SessionProvider>
        <MemoryRouter>
          <LoginPage />
        </MemoryRouter>
      </SessionProvider>,
    );
    fireEvent.change(await screen.findByLabelText("Username"), { target: { value: "ada" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "pw-Correct-Horse-9" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Confirm your email address first.");
    expect(screen.getByRole("link", { name: "Reset your password" }).getAttribute("href")).toBe("/forgot-password");
  });
});
