// The docked chat counts what arrives unseen: messages from the other side after the room
// opened, while the dock is closed; opening it reads them.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { StageMessage } from "../../ws/socket";
import { chatEvent } from "../../ws/testEvents";
import { ChatDock, unreadChats } from "./ChatDock";

afterEach(cleanup);

const from = (seq: number, actor: string): StageMessage => ({ ...chatEvent(seq), actor });

describe("unreadChats", () => {
  it("counts others' messages after what was read and after the room's history", () => {
    const events = [from(1, "coach-lin"), from(2, "grace"), from(3, "coach-lin"), from(4, "coach-lin")];
    expect(unreadChats(events, "grace", 0, 0)).toBe(3);
    expect(unreadChats(events, "grace", 3, 0)).toBe(1);
    expect(unreadChats(events, "grace", 0, 3)).toBe(1);
    expect(unreadChats(events, "coach-lin", 0, 0)).toBe(1);
  });
});

describe("ChatDock", () => {
  function dock(events: StageMessage[]) {
    return (
      <ChatDock events={events} me="grace" syncedSeq={1}>
        <p>the chat</p>
      </ChatDock>
    );
  }

  it("shows Chat (n) for messages that arrive while it is closed, and clears when opened", () => {
    const history = [from(1, "coach-lin")];
    const view = render(dock(history));
    expect(screen.getByText("the chat")).toBeTruthy();
    const toggle = screen.getByRole("button", { name: /Chat/ });
    expect(toggle.textContent).toBe("ChatHide");

    fireEvent.click(toggle);
    expect(screen.queryByText("the chat")).toBeNull();
    view.rerender(dock([...history, from(2, "coach-lin"), from(3, "grace"), from(4, "coach-lin")]));
    expect(screen.getByTestId("chat-unread").textContent).toBe(" (2)");
    expect(toggle.textContent).toBe("Chat (2)Show");

    fireEvent.click(toggle);
    expect(screen.queryByTestId("chat-unread")).toBeNull();
    fireEvent.click(toggle);
    expect(screen.queryByTestId("chat-unread")).toBeNull(); // read once opened
  });

  it("counts nothing while it is open", () => {
    const view = render(dock([]));
    view.rerender(dock([from(2, "coach-lin")]));
    expect(screen.queryByTestId("chat-unread")).toBeNull();
  });
});
