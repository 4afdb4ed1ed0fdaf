// The follow-up chain: what the interviewer adds as the round goes on, when it fires
// (pushed by the coach, when a part passes, after N minutes), which part it unlocks, and
// the coach's notes on what a strong answer looks like.
import { Trans, useTranslation } from "react-i18next";

import { FieldError, ItemControls, Section } from "./fields";
import { KeyPointEditor } from "./KeyPointEditor";
import { type FollowUpDraft, moveItem, TRIGGERS } from "./model";

export function FollowUpEditor({
  followUps,
  parts,
  onChange,
  errors,
  keyPointDimensions,
}: {
  followUps: FollowUpDraft[];
  parts: number;
  onChange: (list: FollowUpDraft[]) => void;
  errors: Record<string, unknown>;
  /** The rubric's dimensions when the question takes key points (discussion, design); null: it does not. */
  keyPointDimensions: string[] | null;
}) {
  const { t } = useTranslation();
  const update = (i: number, patch: Partial<FollowUpDraft>) => onChange(followUps.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <Section
      title={t("admin:followUps.chain")}
      id="follow-ups-title"
      actions={
        <button type="button" className="secondary small" onClick={() => onChange([...followUps, { prompt: "", trigger: "manual" }])}>
          {t("admin:followUps.add")}
        </button>
      }
    >
      <p className="small muted">
        <Trans i18nKey="admin:followUps.help" components={{ em: <em /> }} />
      </p>
      {followUps.length === 0 && <p className="muted">{t("admin:followUps.none")}</p>}
      <ol className="chain" data-testid="follow-up-chain">
        {followUps.map((f, i) => {
          const path = `follow_ups[${i}]`;
          return (
            <li key={i} className="chain-item card">
              <div className="section-head">
                <h3>{t("admin:followUps.item", { n: i + 1 })}</h3>
                <ItemControls index={i} count={followUps.length} label={t("admin:followUps.itemLabel", { n: i + 1 })} onMove={(to) => onChange(moveItem(followUps, i, to))} onRemove={() => onChange(followUps.filter((_, j) => j !== i))} />
              </div>
              <label>
                {t("admin:followUps.prompt")}
                <textarea rows={3} value={f.prompt} onChange={(e) => update(i, { prompt: e.target.value })} />
                <FieldError errors={errors} path={`${path}.prompt`} />
              </label>
              <div className="form-grid three">
                <label>
                  {t("admin:followUps.trigger")}
                  <select value={f.trigger} onChange={(e) => update(i, { trigger: e.target.value })}>
                    {TRIGGERS.map((trigger) => (
                      <option key={trigger} value={trigger}>
                        {t("admin:followUps.triggerOption", { trigger })}
                      </option>
                    ))}
                  </select>
                  <FieldError errors={errors} path={`${path}.trigger`} />
                </label>
                {f.trigger === "after_minutes" && (
                  <label>
                    {t("admin:followUps.afterMinutes")}
                    <input type="number" min={1} max={600} value={f.after_minutes ?? ""} onChange={(e) => update(i, { after_minutes: e.target.value ? Number(e.target.value) : undefined })} />
                    <FieldError errors={errors} path={`${path}.after_minutes`} />
                  </label>
                )}
                <label>
                  {t("admin:followUps.unlocksPart")}
                  <select value={f.unlocks_part ?? ""} onChange={(e) => update(i, { unlocks_part: e.target.value ? Number(e.target.value) : undefined })}>
                    <option value="">{t("admin:followUps.noPart")}</option>
                    {Array.from({ length: parts }, (_, n) => n + 1).map((n) => (
                      <option key={n} value={n}>
                        {t("admin:parts.itemLabel", { n })}
                      </option>
                    ))}
                  </select>
                  <FieldError errors={errors} path={`${path}.unlocks_part`} />
                </label>
              </div>
              <label>
                {t("admin:followUps.coachNotes")}
                <textarea className="coach-notes-input" rows={2} value={f.coach_notes ?? ""} onChange={(e) => update(i, { coach_notes: e.target.value })} />
              </label>
              {keyPointDimensions && (
                <KeyPointEditor
                  title={t("admin:followUps.keyPoints", { n: i + 1 })}
                  keyPoints={f.key_points ?? []}
                  onChange={(list) => update(i, { key_points: list })}
                  errors={errors}
                  path={`${path}.key_points`}
                  dimensions={keyPointDimensions}
                />
              )}
            </li>
          );
        })}
      </ol>
      <FieldError errors={errors} path="follow_ups" />
    </Section>
  );
}
