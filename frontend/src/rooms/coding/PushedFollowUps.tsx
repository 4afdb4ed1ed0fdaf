// The follow-ups pushed into the stage so far, listed under the prompt for the candidate and
// the coach alike. Banners announce a follow-up as it arrives; this list is read from the
// stage itself, so it survives a reload (the banners do not).
import { useTranslation } from "react-i18next";

import type { PushedFollowUp } from "../../api/client";
import { formatTime } from "../../lib/format";
import { Markdown } from "../shared/Markdown";

export function PushedFollowUps({ followUps }: { followUps: PushedFollowUp[] | undefined }) {
  const { t } = useTranslation();
  if (!followUps?.length) return null;
  return (
    <section className="pushed-follow-ups" aria-label={t("rooms:pushed.label")} data-testid="pushed-follow-ups">
      <h3 className="small">{t("rooms:pushed.title", { count: followUps.length })}</h3>
      <ol className="plain">
        {followUps.map((f) => (
          <li key={f.id} data-testid="pushed-follow-up">
            <span className="small muted">
              {[
                formatTime(f.created_at),
                f.pushed_by ? t("rooms:pushed.from", { user: f.pushed_by }) : t("rooms:pushed.scripted"),
                f.unlocks_part ? t("rooms:pushed.unlocked", { part: f.unlocks_part }) : "",
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
            <Markdown source={f.text} className="small" />
          </li>
        ))}
      </ol>
    </section>
  );
}
