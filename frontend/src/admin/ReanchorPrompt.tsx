// A review document edit moved lines that planted flaws point at: the server proposes where
// each flaw should now point (`flaw_reanchor_needed`), and the editor asks before saving.

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
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
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
  const many = proposals.length !== 1;
  return (
    <section className="card reanchor-prompt" role="alertdialog" aria-labelledby="reanchor-title" data-testid="reanchor-prompt">
      <h2 id="reanchor-title">
        Your edit changed the text {many ? `${proposals.length} planted flaws point` : "a planted flaw points"} at
      </h2>
      <p className="small">
        Flaws whose lines only moved have followed them. Check {many ? "these" : "this one"}: move {many ? "them" : "it"} as
        proposed, or keep editing and set the lines yourself on the flaw.
      </p>
      <ol className="reanchor-list">
        {proposals.map((p) => (
          <li key={p.index}>
            <p>
              <strong>
                Flaw #{p.index + 1} · {p.category}
              </strong>{" "}
              {p.deleted ? (
                <>
                  was on {lines(p.lines_before)}, which the edit deleted; proposed: {lines(p.lines_after)}.
                </>
              ) : (
                <>
                  {lines(p.lines_before)} → {lines(p.lines_after)}
                </>
              )}
            </p>
            <div className="reanchor-texts">
              <div>
                <span className="small muted">Planted on</span>
                <pre className="mono small">{p.text_before || "(empty)"}</pre>
              </div>
              <div>
                <span className="small muted">Now there</span>
                <pre className="mono small">{p.text_after || "(nothing: deleted)"}</pre>
              </div>
            </div>
          </li>
        ))}
      </ol>
      <div className="row">
        <button type="button" className="primary" onClick={onAccept} disabled={busy}>
          {busy ? "Saving…" : `Move ${many ? "them" : "it"} as proposed and save`}
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          Keep editing
        </button>
      </div>
    </section>
  );
}
