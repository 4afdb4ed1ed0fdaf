// The settings page loads the account's settings, saves the changed zone and language, the
// scheduling pages' zone follows the account's once it is set, and the interface switches to
// the saved language at once.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api } from "../api/client";
import { SessionProvider, useTimeZone } from "../auth/session";
import { i18next, setLanguage } from "../i18n";
import { SettingsPage } from "./SettingsPage";

afterEach(async () => {
  await setLanguage("en");
  cleanup();
  vi.restoreAllMocks();
});

function Zone() {
  return <output data-testid="zone">{useTimeZone(() => "Browser/Zone")}</output>;
}

describe("SettingsPage", () => {
  it("saves zone and language, and the session's zone follows", async () => {
    let zone = "";
    let language: "en" | "zh-Hans" | "zh-Hant" = "en";
    vi.spyOn(api, "session").mockImplementation(async () => ({
      me: { id: 1, username: "ada", role: "candidate", time_zone: zone, language },
    }));
    vi.spyOn(api, "accountSettings").mockResolvedValue({
      email: "ada@example.com",
      time_zone: "",
      language: "en",
      email_verified: true,
      email_verification: "none",
    });
    const update = vi.spyOn(api, "accountSettingsUpdate").mockImplementation(async (changes) => {
      zone = changes.time_zone ?? "";
      language = changes.language || "en";
      return { email: "ada@example.com", time_zone: zone, language: changes.language ?? "en", email_verified: true, email_verification: "none" };
    });
    render(
      <SessionProvider>
        <MemoryRouter>
          <SettingsPage />
          <Zone />
        </MemoryRouter>
      </SessionProvider>,
    );
    const select = (await screen.findByLabelText("Time zone")) as HTMLSelectElement;
    expect((await screen.findByTestId("zone")).textContent).toBe("Browser/Zone");
    fireEvent.change(select, { target: { value: "Asia/Shanghai" } });
    fireEvent.change(screen.getByLabelText("Language"), { target: { value: "zh-Hant" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    // Saved, and already said in the chosen language.
    expect((await screen.findByText("設定已儲存。")).textContent).toBe("設定已儲存。");
    expect(i18next.language).toBe("zh-Hant");
    expect(await screen.findByRole("button", { name: "儲存設定" })).toBeTruthy();
    expect(update).toHaveBeenCalledWith({ email: "ada@example.com", time_zone: "Asia/Shanghai", language: "zh-Hant" });
    expect((await screen.findByTestId("zone")).textContent).toBe("Asia/Shanghai");
  });

  it("deletes only with the password and the tick, then signs out", async () => {
    vi.spyOn(api, "session").mockResolvedValue({ me: { id: 1, username: "ada", role: "candidate" } });
    vi.spyOn(api, "accountSettings").mockResolvedValue({ email: "", time_zone: "", language: "en", email_verified: false, email_verification: "none" });
    const remove = vi.spyOn(api, "accountDelete").mockResolvedValue(undefined);
    render(
      <SessionProvider>
        <MemoryRouter>
          <SettingsPage />
        </MemoryRouter>
      </SessionProvider>,
    );
    const button = screen.getByRole("button", { name: "Delete my account" }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText("Your password, to confirm"), { target: { value: "pw-Correct-Horse-9" } });
    expect(button.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText(/Yes, delete my account/));
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await vi.waitFor(() => expect(remove).toHaveBeenCalledWith("pw-Correct-Horse-9"));
    expect(screen.getByRole("link", { name: "Download my data (JSON)" }).getAttribute("href")).toBe("/api/v1/me/export/");
  });
});
