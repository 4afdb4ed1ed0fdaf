// A finished stage's recordings on its feedback page: the spoken answers under their
// questions and the call's audio, playable; the candidate may delete each.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import type { StageQuestion } from "../api/client";
import { type Recording, recordingApi } from "./api";
import { RecordingAudio } from "./RecordingAudio";

export function StageRecordings({ stageId, questions, canDelete }: { stageId: number; questions: StageQuestion[]; canDelete: boolean }) {
  const { t } = useTranslation();
  const [recordings, setRecordings] = useState<Recording[] | null>(null);
  const load = useCallback(() => {
    recordingApi.list(stageId).then(
      (list) => setRecordings(list.filter((r) => (r.chunk_count ?? 0) > 0)),
      () => setRecordings([]),
    );
  }, [stageId]);
  useEffect(load, [load]);
  if (!recordings || recordings.length === 0) return null;
  const title = (id: number | null | undefined) => questions.find((q) => q.id === id)?.title ?? t("recording:aQuestion");
  const answers = recordings.filter((r) => r.kind === "answer");
  const calls = recordings.filter((r) => r.kind === "call");
  return (
    <section className="card" aria-labelledby="recordings-title" data-testid="stage-recordings">
      <h2 id="recordings-title">{t("recording:title")}</h2>
      <ul className="spoken-answers-list">
        {answers.map((r) => (
          <li key={r.id}>
            <RecordingAudio recording={r} label={t("recording:yourAnswerTo", { title: title(r.question) })} canDelete={canDelete} onDeleted={load} />
          </li>
        ))}
        {calls.map((r, i) => (
          <li key={r.id}>
            <RecordingAudio recording={r} label={calls.length > 1 ? t("recording:callAudioN", { n: i + 1 }) : t("recording:callAudio")} canDelete={canDelete} onDeleted={load} />
          </li>
        ))}
      </ul>
      <p className="small muted">{t("recording:inStep")}</p>
    </section>
  );
}
