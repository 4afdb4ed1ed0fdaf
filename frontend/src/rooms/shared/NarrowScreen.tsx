// What a room shows below tablet width: the editor, whiteboard and review document need
// room side by side, so instead of a broken layout it says so plainly.
import { useTranslation } from "react-i18next";

import { Link, useParams } from "react-router";

/** Rooms need at least this many CSS pixels (a tablet in portrait). */
export const ROOM_MIN_WIDTH = 768;

export function NarrowScreen() {
  const { t } = useTranslation();
  const { stageId } = useParams();
  return (
    <main id="main" className="page narrow-screen" data-testid="room-too-narrow">
      <h1>{t("rooms:narrow.title")}</h1>
      <p>{t("rooms:narrow.text", { width: ROOM_MIN_WIDTH })}</p>
      <p className="row">
        <Link className="button secondary" to="/">
          {t("rooms:narrow.loops")}
        </Link>
        {stageId && (
          <Link className="button secondary" to={`/stages/${stageId}/scorecard`}>
            {t("rooms:narrow.feedback")}
          </Link>
        )}
      </p>
    </main>
  );
}
