import "./scheduling.css";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";

import { describeError } from "../api/client";
import { useAsync } from "../lib/useAsync";
import { useTimeZone } from "../auth/session";
import { schedulingApi, type Slot } from "./api";
import { browserZone, formatSessionTime, zoneChoices } from "./time";

const LENGTHS = [30, 45, 60, 90, 120];

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
  return (
    <>
      <label htmlFor={`${idPrefix}-start`}>
        Starts
        <input
          id={`${idPrefix}-start`}
          type="datetime-local"
          required
          value={value.starts_local}
          onChange={(e) => onChange({ ...value, starts_local: e.target.value })}
        />
      </label>
      <label htmlFor={`${idPrefix}-zone`}>
        Time zone
        <select id={`${idPrefix}-zone`} value={value.time_zone} onChange={(e) => onChange({ ...value, time_zone: e.target.value })}>
          {zoneChoices(value.time_zone).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${idPrefix}-minutes`}>
        Length
        <select
          id={`${idPrefix}-minutes`}
          value={value.minutes}
          onChange={(e) => onChange({ ...value, minutes: Number(e.target.value) })}
        >
          {LENGTHS.map((m) => (
            <option key={m} value={m}>
              {m} min
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function SlotRow({ slot, reschedule, onChanged }: { slot: Slot; reschedule: string | null; onChanged: () => Promise<void> }) {
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
        <strong>{formatSessionTime(slot.starts_at, slot.time_zone)}</strong>{" "}
        <span className={`badge ${slot.is_booked ? "status-live" : ""}`}>{slot.is_booked ? "booked" : "open"}</span>
        <p className="small muted">
          {slot.minutes} min · entered in {slot.time_zone}
          {slot.time_zone !== zone && ` · ${formatSessionTime(slot.starts_at, zone)} here`}
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
              Save
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
            Move session here
          </button>
        )}
        {!slot.is_booked && !reschedule && (
          <>
            <button type="button" className="secondary small" onClick={() => setEditing((v) => !v)}>
              {editing ? "Close" : "Edit"}
            </button>
            <button type="button" className="secondary small" disabled={busy} onClick={() => void act(() => schedulingApi.deleteSlot(slot.id))}>
              Delete
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
      setNotice(made.length === 1 ? "Slot published." : `${made.length} weekly slots published.`);
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
        <Link to="/coach">Coach console</Link> / Availability
      </p>
      <h1>Your availability</h1>
      {reschedule ? (
        <p className="notice">Pick one of your open slots to move the session to.</p>
      ) : (
        <form className="card slot-form" onSubmit={(e) => void publish(e)} aria-label="Publish a slot">
          <h2>Publish a slot</h2>
          <div className="row wrap">
            <SlotFields value={form} onChange={setForm} idPrefix="new" />
            <label htmlFor="new-weeks">
              Repeat weekly
              <select id="new-weeks" value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
                {Array.from({ length: 12 }, (_, i) => i + 1).map((n) => (
                  <option key={n} value={n}>
                    {n === 1 ? "once" : `${n} weeks`}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Publishing…" : "Publish"}
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
        <h2 id="my-slots">Your slots</h2>
        {slots.error !== undefined && <p className="error">{describeError(slots.error)}</p>}
        {slots.data && slots.data.length === 0 && <p className="muted">No slots yet.</p>}
        <ul className="slot-list">
          {(slots.data ?? []).map((slot) => (
            <SlotRow key={slot.id} slot={slot} reschedule={reschedule} onChanged={slots.reload} />
          ))}
        </ul>
      </section>
    </main>
  );
}
