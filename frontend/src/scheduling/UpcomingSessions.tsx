import "./scheduling.css";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { describeError } from "../api/client";
import { useMe } from "../auth/session";
import { useAsync } from "../lib/useAsync";
import { schedulingApi, type Booking } from "./api";
import { browserZone, formatSessionTime, isNear, untilLabel } from "./time";
import { useNow } from "./useNow";

/** The caller's booked sessions (as candidate or coach) in the browser's zone, with the
 * room link once it is near, and cancel / reschedule. Its own component: the home pages
 * only place it. */
export function UpcomingSessions({ side }: { side: "candidate" | "coach" }) {
  const { t } = useTranslation();
  const me = useMe();
  const bookings = useAsync(() => schedulingApi.bookings(), []);
  const now = useNow();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const zone = browserZone();
  const mine = (bookings.data ?? []).filter((b) => (side === "coach" ? b.coach : b.candidate) === me.username);

  async function cancel(booking: Booking) {
    if (!window.confirm(t("scheduling:upcoming.confirmCancel", { time: formatSessionTime(booking.starts_at, zone) }))) return;
    setBusy(booking.id);
    setError(null);
    try {
      await schedulingApi.cancel(booking.id);
      await bookings.reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(null);
    }
  }

  const rescheduleTo = (b: Booking) =>
    side === "coach" ? `/coach/availability?reschedule=${b.id}` : `/stages/${b.stage}/book?booking=${b.id}`;

  return (
    <section className="upcoming-sessions" aria-labelledby={`upcoming-${side}`} data-testid="upcoming-sessions">
      <div className="page-head">
        <h2 id={`upcoming-${side}`}>{t("scheduling:upcoming.title")}</h2>
        {side === "coach" && me.role === "coach" && (
          <Link className="button secondary small" to="/coach/availability">
            {t("scheduling:upcoming.availability")}
          </Link>
        )}
      </div>
      <p className="small muted">{t("scheduling:upcoming.zone", { zone })}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {bookings.error !== undefined && <p className="error">{describeError(bookings.error)}</p>}
      {bookings.data && mine.length === 0 && (
        <p className="muted">
          {side === "coach"
            ? me.role === "coach"
              ? t("scheduling:upcoming.noneCoach")
              : t("scheduling:upcoming.noneAdmin")
            : t("scheduling:upcoming.noneCandidate")}
        </p>
      )}
      <ul className="session-list">
        {mine.map((b) => (
          <li key={b.id} className="card session-row" data-testid={`session-${b.id}`}>
            <div>
              <p className="session-when">
                <strong data-testid="session-time">{formatSessionTime(b.starts_at, zone)}</strong>{" "}
                <span className="small muted">
                  {t("scheduling:upcoming.length", { minutes: b.minutes, until: untilLabel(b.starts_at, now) })}
                </span>
              </p>
              <p className="small muted">
                {b.stage_title} · {b.loop_title} · {side === "coach"
                  ? t("scheduling:upcoming.withCandidate", { candidate: b.candidate })
                  : t("scheduling:upcoming.coach", { coach: b.coach })}
              </p>
            </div>
            <div className="row">
              {isNear(b.starts_at, b.ends_at, now) && (
                <Link className="button primary small" to={b.room_path} data-testid="join-room">
                  {t("scheduling:upcoming.join")}
                </Link>
              )}
              <Link className="button secondary small" to={rescheduleTo(b)}>
                {t("scheduling:upcoming.reschedule")}
              </Link>
              <button type="button" className="secondary small" onClick={() => void cancel(b)} disabled={busy === b.id}>
                {busy === b.id ? t("scheduling:upcoming.cancelling") : t("scheduling:upcoming.cancel")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
