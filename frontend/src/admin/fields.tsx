// Small form pieces shared by the bank editors.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { errorsAt } from "./model";
import type { SaveMessage } from "./useBankSave";

/** The server's messages for `path` (400 `errors` are keyed by bank-file path). */
export function FieldError({ errors, path, nested = false }: { errors: Record<string, unknown>; path: string; nested?: boolean }) {
  const messages = errorsAt(errors, path, nested);
  if (!messages.length) return null;
  return (
    <span className="field-error" role="alert" data-path={path}>
      {messages.join(" ")}
    </span>
  );
}

/** Every problem of a 400, each with its path, as the bank import lists them. */
export function ErrorList({ errors, title }: { errors: Record<string, unknown>; title?: string }) {
  const { t } = useTranslation();
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  const count = entries.reduce((n, [, m]) => n + ([] as unknown[]).concat(m).length, 0);
  return (
    <section className="error-list" role="alert" aria-labelledby="error-list-title" data-testid="error-list">
      <h2 id="error-list-title">{title ?? t("admin:errors.nothingSaved", { count })}</h2>
      <ul>
        {entries.map(([path, messages]) =>
          ([] as unknown[]).concat(messages).map((message, i) => (
            <li key={`${path}-${i}`}>
              {path !== "non_field_errors" && <code className="path">{path}</code>} {String(message)}
            </li>
          )),
        )}
      </ul>
    </section>
  );
}

/** The outcome of the last save: its message, then every problem of a 400. */
export function SaveFeedback({ message, errors }: { message: SaveMessage | null; errors: Record<string, unknown> }) {
  return (
    <>
      {message && (
        <p className={message.ok ? "success" : "error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
      <ErrorList errors={errors} />
    </>
  );
}

export function Section({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <section className="card editor-section" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Up / down / remove buttons of an item in an ordered list. */
export function ItemControls({
  index,
  count,
  onMove,
  onRemove,
  label,
}: {
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <span className="item-controls">
      <button type="button" className="secondary small" aria-label={t("admin:item.moveUp", { label })} disabled={index === 0} onClick={() => onMove(index - 1)}>
        ↑
      </button>
      <button type="button" className="secondary small" aria-label={t("admin:item.moveDown", { label })} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
        ↓
      </button>
      <button type="button" className="danger small" aria-label={t("admin:item.remove", { label })} onClick={onRemove}>
        {t("admin:item.removeButton")}
      </button>
    </span>
  );
}
