// A review document edit moved lines that planted flaws point at: the server proposes where
// each flaw should now point (`flaw_reanchor_needed`), and the editor asks before saving.
import { useTranslation } from "react-i18next";

import { i18next } from "../i18n";

/** One flaw whose lines' text changed through the edit, as the server proposes to move it. */
export type FlawProposal = {
  index: number;
  category: string;
  lines_before: [number, number];
  lines_after: [number, number];
  text_before: string;
  text_after: string;
  deleted: boolean;
};

function lines([first, last]: [number, number]): string {
  return i18next.t("admin:reanchor.lines", { first, last, same: String(first === last) });
}

export function ReanchorPrompt({
  proposals,
  busy,
  onAccept,
  onCancel,
}: {
  proposals: FlawProposal[];
  busy: boolean;
  onAccept: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const count = proposals.length;
  return (
    <section className="card reanchor-prompt" role="alertdialog" aria-labelledby="reanchor-title" data-testid="reanchor-prompt">
      <h2 id="reanchor-title">{t("admin:reanchor.title", { count })}</h2>
      <p className="small">{t("admin:reanchor.explain", { count })}</p>
      <ol className="reanchor-list">
        {proposals.map((p) => (
          <li key={p.index}>
            <p>
              <strong>{t("admin:reanchor.flaw", { n: p.index + 1, category: p.category })}</strong>{" "}
              {p.deleted
                ? t("admin:reanchor.deleted", { before: lines(p.lines_before), after: lines(p.lines_after) })
                : `${lines(p.lines_before)} → ${lines(p.lines_after)}`}
            </p>
            <div className="reanchor-texts">
              <div>
                <span className="small muted">{t("admin:reanchor.plantedOn")}</span>
                <pre className="mono small">{p.text_before || t("admin:reanchor.empty")}</pre>
              </div>
              <div>
                <span className="small muted">{t("admin:reanchor.nowThere")}</span>
                <pre className="mono small">{p.text_after || t("admin:reanchor.nothing")}</pre>
              </div>
            </div>
          </li>
        ))}
      </ol>
      <div className="row">
        <button type="button" className="primary" onClick={onAccept} disabled={busy}>
          {busy ? t("admin:saving") : t("admin:reanchor.accept", { count })}
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {t("admin:reanchor.keepEditing")}
        </button>
      </div>
    </section>
  );
}
