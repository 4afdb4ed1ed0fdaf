// What a room shows below tablet width: the editor, whiteboard and review document need
// room side by side, so instead of a broken layout it says so plainly.
import { Link, useParams } from "react-router";

/** Rooms need at least this many CSS pixels (a tablet in portrait). */
export const ROOM_MIN_WIDTH = 768;

export function NarrowScreen() {
  const { stageId } = useParams();
  return (
    <main id="main" className="page narrow-screen" data-testid="room-too-narrow">
      <h1>This room needs a wider screen</h1>
      <p>
        Interview rooms put the question beside the editor, whiteboard or design doc, which needs at least {ROOM_MIN_WIDTH} px. Open it on a tablet or a
        computer, or turn your device sideways. A stage that is live keeps its clock running meanwhile.
      </p>
      <p className="row">
        <Link className="button secondary" to="/">
          Your loops
        </Link>
        {stageId && (
          <Link className="button secondary" to={`/stages/${stageId}/scorecard`}>
            Feedback
          </Link>
        )}
      </p>
    </main>
  );
}
