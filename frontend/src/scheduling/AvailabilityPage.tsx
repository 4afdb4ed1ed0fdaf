import "./scheduling.css";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";

import { describeError } from "../api/client";
import { currentLanguage } from "../i18n";
import { formatNumber } from "../i18n/format";
import { useAsync } from "../lib/useAsync";
import { useTimeZone } from "../auth/session";
import { schedulingApi, type Slot } from "./api";
import { browserZone, formatSessionTime, zoneChoices } from "./time";

const LENGTHS = [30, 45, 60, 90, 120];

/** A session's length as the language writes minutes: "60 min", "60分钟". */
function minutes(count: number): string {
  return formatNumber(count, { style: "unit", unit: "minute", unitDisplay: "short" });
}

/** Start, zone and length as the coach types them: a wall-clock time in an IANA zone. */
function SlotFields({
  value,
  onChange,
  idPrefix,
}: {
  value: { starts_local: string; time_zone: string; minutes: number };
  onChange: (v: { starts_local: string; time_zone: string; minutes: number }) => void;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={`${idPrefix}-start`}>
        {t("coachScheduling:slot.starts")}
        <input
          id={`${idPrefix}-start`}
          type="datetime-local"
          required
          value={value.starts_local}
          onChange={(e) => onChange({ ...value, starts_local: e.target.value })}
        />
      </label>
      <label htmlFor={`${idPrefix}-zone`}>
        {t("coachScheduling:slot.zone")}
        <select id={`${idPrefix}-zone`} value={value.time_zone} onChange={(e) => onChange({ ...value, time_zone: e.target.value })}>
          {zoneChoices(value.time_zone).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${idPrefix}-minutes`}>
        {t("coachScheduling:slot.length")}
        <select
          id={`${idPrefix}-minutes`}
          value={value.minutes}
          onChange={(e) => onChange({ ...value, minutes: Number(e.target.value) })}
        >
          {LENGTHS.map((m) => (
            <option key={m} value={m}>
              {minutes(m)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function SlotRow({ slot, reschedule, onChanged }: { slot: Slot; reschedule: string | null; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ starts_local: slot.starts_local, time_zone: slot.time_zone, minutes: slot.minutes });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const zone = useTimeZone(browserZone);

  async function act(action: () => Promise<unknown>, after?: () => void) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setEditing(false);
      await onChanged();
      after?.();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card slot-row" data-testid={`my-slot-${slot.id}`}>
      <div>
        <strong>{formatSessionTime(slot.starts_at, slot.time_zone, currentLanguage())}</strong>{" "}
        <span className={`badge ${slot.is_booked ? "status-live" : ""}`}>{slot.is_booked ? t("coachScheduling:slot.booked") : t("coachScheduling:slot.open")}</span>
        <p className="small muted">
          {slot.time_zone !== zone
            ? t("coachScheduling:slot.detailsHere", {
                minutes: minutes(slot.minutes),
                zone: slot.time_zone,
                here: formatSessionTime(slot.starts_at, zone, currentLanguage()),
              })
            : t("coachScheduling:slot.details", { minutes: minutes(slot.minutes), zone: slot.time_zone })}
        </p>
        {editing && (
          <form
            className="slot-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => schedulingApi.updateSlot(slot.id, form));
            }}
          >
            <SlotFields value={form} onChange={setForm} idPrefix={`edit-${slot.id}`} />
            <button type="submit" className="primary small" disabled={busy}>
              {t("coachScheduling:slot.save")}
            </button>
          </form>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="row">
        {reschedule && !slot.is_booked && (
          <button
            type="button"
            className="primary small"
            disabled={busy}
            onClick={() => void act(() => schedulingApi.reschedule(Number(reschedule), slot.id), () => navigate("/coach"))}
          >
            {t("coachScheduling:slot.moveHere")}
          </button>
        )}
        {!slot.is_booked && !reschedule && (
          <>
            <button type="button" className="secondary small" onClick={() => setEditing((v) => !v)}>
              {editing ? t("coachScheduling:slot.close") : t("coachScheduling:slot.edit")}
            </button>
            <button type="button" className="secondary small" disabled={busy} onClick={() => void act(() => schedulingApi.deleteSlot(slot.id))}>
              {t("coachScheduling:slot.delete")}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** A coach publishes when they can take a session (optionally the same time each week)
 * and sees, edits or withdraws their open slots. */
export function AvailabilityPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const reschedule = params.get("reschedule");
  const slots = useAsync(() => schedulingApi.mySlots(), []);
  const accountZone = useTimeZone(browserZone);
  const [form, setForm] = useState({ starts_local: "", time_zone: accountZone, minutes: 60 });
  const [weeks, setWeeks] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function publish(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const made = await schedulingApi.publish({ ...form, weeks });
      setNotice(t("coachScheduling:page.published", { count: made.length }));
      await slots.reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page availability-page">
      <p className="crumbs">
        <Link to="/coach">{t("coach:home.title")}</Link> / {t("coachScheduling:page.crumb")}
      </p>
      <h1>{t("coachScheduling:page.title")}</h1>
      {reschedule ? (
        <p className="notice">{t("coachScheduling:page.pickSlot")}</p>
      ) : (
        <form className="card slot-form" onSubmit={(e) => void publish(e)} aria-label={t("coachScheduling:page.publishTitle")}>
          <h2>{t("coachScheduling:page.publishTitle")}</h2>
          <div className="row wrap">
            <SlotFields value={form} onChange={setForm} idPrefix="new" />
            <label htmlFor="new-weeks">
              {t("coachScheduling:page.repeat")}
              <select id="new-weeks" value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
                {Array.from({ length: 12 }, (_, i) => i + 1).map((n) => (
                  <option key={n} value={n}>
                    {t("coachScheduling:page.weeks", { count: n })}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t("coachScheduling:page.publishing") : t("coachScheduling:page.publish")}
          </button>
          {notice && <p className="notice ok">{notice}</p>}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
      <section aria-labelledby="my-slots">
        <h2 id="my-slots">{t("coachScheduling:page.slots")}</h2>
        {slots.error !== undefined && <p className="error">{describeError(slots.error)}</p>}
        {slots.data && slots.data.length === 0 && <p className="muted">{t("coachScheduling:page.noSlots")}</p>}
        <ul className="slot-list">
          {(slots.data ?? []).map((slot) => (
            <SlotRow key={slot.id} slot={slot} reschedule={reschedule} onChanged={slots.reload} />
          ))}
        </ul>
      </section>
    </main>
  );
}
