import { useTranslation } from "react-i18next";

/** Said in place of a room (or a replay) whose stage kind, or the room its kind names, this
 * build of the frontend does not know: a newer server, an older page. */
export function UnsupportedStageKind({ kind }: { kind: string }) {
  const { t } = useTranslation();
  return (
    <section className="card narrow" data-testid="stage-kind-unsupported" role="status">
      <h2>{t("rooms:unsupported.title")}</h2>
      <p>{t("rooms:unsupported.text", { kind })}</p>
    </section>
  );
}
