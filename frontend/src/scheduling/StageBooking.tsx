import "./scheduling.css";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { api, describeError, type StageSummary } from "../api/client";
import { useTimeZone } from "../auth/session";
import type { Booking } from "./api";
import { browserZone, formatSessionTime } from "./time";
import { useNow } from "./useNow";

/** A coached stage's row on the loop page: its booked session (local time, reschedule),
 * "Book a session" while none is, and "Continue solo" once a booked coach has not come. */
export function StageBooking({
  stage,
  booking,
  canBook,
  onError,
}: {
  stage: StageSummary;
  booking: Booking | undefined;
  canBook: boolean;
  onError: (e: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const now = useNow();
  const zone = useTimeZone(browserZone);
  const [busy, setBusy] = useState(false);
  if (stage.status !== "pending" || !canBook) return null;

  async function solo() {
    setBusy(true);
    try {
      await api.stageStart(stage.id, { solo: true });
      navigate(`/stages/${stage.id}`);
    } catch (err) {
      onError(describeError(err));
      setBusy(false);
    }
  }

  if (!booking) {
    if (!stage.coach_requested) return null;
    return (
      <p className="stage-booking small">
        <Link className="button secondary small" to={`/stages/${stage.id}/book`} data-testid={`book-${stage.id}`}>
          {t("scheduling:stage.book")}
        </Link>
      </p>
    );
  }
  return (
    <p className="stage-booking small" data-testid={`booked-${stage.id}`}>
      <span>
        {t("scheduling:stage.booked", { time: formatSessionTime(booking.starts_at, zone), coach: booking.coach })}
      </span>
      <Link className="button secondary small" to={`/stages/${stage.id}/book?booking=${booking.id}`}>
        {t("scheduling:stage.reschedule")}
      </Link>
      {now >= Date.parse(booking.solo_from) && (
        <button type="button" className="secondary small" onClick={() => void solo()} disabled={busy}>
          {t("scheduling:stage.noShow")}
        </button>
      )}
    </p>
  );
}
