/** Said in place of a room (or a replay) whose stage kind, or the room its kind names, this
 * build of the frontend does not know: a newer server, an older page. */
export function UnsupportedStageKind({ kind }: { kind: string }) {
  return (
    <section className="card narrow" data-testid="stage-kind-unsupported" role="status">
      <h2>This stage kind isn't supported by this version</h2>
      <p>
        The stage is a “{kind}” stage, which this version of Mockloop cannot show. Reload the page to get the newest
        version; if it still says this, tell whoever runs your Mockloop.
      </p>
    </section>
  );
}
