// Saving one bank item (a loop template, a rubric) from its editor: the import of a bank
// document holding just that item, which replaces it by slug.
import { useState } from "react";

import { ApiError, api, type BankImportResult, describeError } from "../api/client";

export interface SaveMessage {
  ok: boolean;
  text: string;
}

type Section = "loops" | "rubrics";

/** The verb of the message: what the import did with the item's slug. */
function outcome(states: BankImportResult[Section]): string {
  return states.created.length ? "Created" : states.updated.length ? "Saved" : "No changes to";
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

  /** Import `bank` unverified; on success say `saved(verb)`, then `after` (reload the list). */
  async function save({
    bank,
    section,
    saved,
    after,
  }: {
    bank: object;
    section: Section;
    saved: (verb: string) => string;
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
