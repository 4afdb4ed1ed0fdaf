import "./scheduling.css";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";

import { api, describeError } from "../api/client";
import { formatDateTime } from "../i18n/format";
import { useAsync } from "../lib/useAsync";
import { Problem } from "../pages/Problem";
import { useTimeZone } from "../auth/session";
import { schedulingApi, type Slot } from "./api";
import { browserZone, formatSessionTime } from "./time";

function dayOf(iso: string, zone: string): string {
  return formatDateTime(iso, { weekday: "long", month: "long", day: "numeric", timeZone: zone });
}

/** The candidate picks a coach's open slot for one stage (`?booking=` moves that session
 * instead). Slots are listed by day in the browser's zone. */
export function BookingPage() {
  const { t } = useTranslation();
  const { stageId } = useParams();
  const [params] = useSearchParams();
  const moving = params.get("booking");
  const navigate = useNavigate();
  const stage = useAsync(() => api.stage(Number(stageId)), [stageId]);
  const slots = useAsync(() => schedulingApi.openSlots(), []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const zone = useTimeZone(browserZone);

  if (stage.error !== undefined) return <Problem error={stage.error} />;
  if (!stage.data) return <main id="main" className="page"><p className="muted">{t("common:loading")}</p></main>;
  const data = stage.data;

  async function pick(slot: Slot) {
    setBusy(slot.id);
    setError(null);
    try {
      if (moving) await schedulingApi.reschedule(Number(moving), slot.id);
      else await schedulingApi.book(data.id, slot.id);
      navigate(`/loops/${data.loop}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(null);
      void slots.reload();
    }
  }

  const byDay = new Map<string, Slot[]>();
  for (const slot of slots.data ?? []) {
    const day = dayOf(slot.starts_at, zone);
    byDay.set(day, [...(byDay.get(day) ?? []), slot]);
  }

  return (
    <main id="main" className="page booking-page">
      <p className="crumbs">
        <Link to={`/loops/${data.loop}`}>{t("scheduling:booking.crumb")}</Link> / {data.title}
      </p>
      <h1>{moving ? t("scheduling:booking.move") : t("scheduling:booking.book")}</h1>
      <p className="muted">
        {t("scheduling:booking.lead", { title: data.title, minutes: data.minutes })}{" "}
        <strong>{t("scheduling:booking.zone", { zone })}</strong>
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {slots.error !== undefined && <p className="error">{describeError(slots.error)}</p>}
      {slots.data && slots.data.length === 0 && <p className="muted">{t("scheduling:booking.none")}</p>}
      {[...byDay.entries()].map(([day, daySlots]) => (
        <section key={day} className="slot-day" aria-label={day}>
          <h2>{day}</h2>
          <ul className="slot-list">
            {daySlots.map((slot) => (
              <li key={slot.id} className="card slot-row" data-testid={`open-slot-${slot.id}`}>
                <div>
                  <strong>{formatSessionTime(slot.starts_at, zone)}</strong>
                  <p className="small muted">
                    {t("scheduling:booking.slot", { minutes: slot.minutes, coach: slot.coach })}
                  </p>
                </div>
                <button type="button" className="primary" onClick={() => void pick(slot)} disabled={busy !== null}>
                  {busy === slot.id
                    ? t("scheduling:booking.booking")
                    : moving
                      ? t("scheduling:booking.moveHere")
                      : t("scheduling:booking.bookButton")}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
