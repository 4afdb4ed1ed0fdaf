// Saving one bank item (a loop template, a rubric) from its editor: the import of a bank
// document holding just that item, which replaces it by slug.
import { useState } from "react";

import { ApiError, api, type BankImportResult, describeError } from "../api/client";

export interface SaveMessage {
  ok: boolean;
  text: string;
}

type Section = "loops" | "rubrics";

/** What the import did with the item's slug: the `outcome` select of the saved message. */
function outcome(states: BankImportResult[Section]): "created" | "saved" | "unchanged" {
  return states.created.length ? "created" : states.updated.length ? "saved" : "unchanged";
}

/** A save in progress, the last one's message and its 400 problems keyed by bank-file path. */
export function useBankSave() {
  const [errors, setErrors] = useState<Record<string, unknown>>({});
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [busy, setBusy] = useState(false);

  const clear = () => {
    setErrors({});
    setMessage(null);
  };

  /** Import `bank` unverified; on success say `saved(outcome)`, then `after` (reload the list). */
  async function save({
    bank,
    section,
    saved,
    after,
  }: {
    bank: object;
    section: Section;
    saved: (outcome: "created" | "saved" | "unchanged") => string;
    after: () => Promise<void> | void;
  }) {
    setBusy(true);
    clear();
    try {
      const result = await api.bankImport(bank, false);
      setMessage({ ok: true, text: saved(outcome(result[section])) });
      await after();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.errors);
      setMessage({ ok: false, text: describeError(err) });
    } finally {
      setBusy(false);
    }
  }

  return { errors, message, busy, clear, save };
}
