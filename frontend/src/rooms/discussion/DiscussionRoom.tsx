import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, type StageQuestion } from "../../api/client";
import { SpokenAnswer } from "../../recording/SpokenAnswer";
import { Markdown } from "../shared/Markdown";
import { NextQuestionButton } from "../shared/ScriptedInterviewer";
import { autosaveLabel, useAutosave } from "../shared/useAutosave";
import { type Room, roomActive } from "../shared/useStageRoom";

function AnswerEditor({ room, question, editable }: { room: Room; question: StageQuestion; editable: boolean }) {
  const { t } = useTranslation();
  const saved = room.stage.answers.find((a) => a.question === question.id);
  const [text, setText] = useState(saved?.text ?? "");
  const live = roomActive(room);
  const autosave = useAutosave((value: string) => api.answerSave(room.stage.id, { question: question.id, text: value }));
  const id = `answer-${question.id}`;
  /** A spoken answer's (corrected) transcript joins the written answer: key points are
   * matched on the answer's text. */
  const addTranscript = (spoken: string) => {
    const next = text.trim() ? `${text.trimEnd()}\n\n${spoken}` : spoken;
    setText(next);
    autosave.change(next);
    void autosave.flush();
  };

  if (!editable || !live) {
    return (
      <div className="answer-readonly">
        <h3>{t("rooms:discussion.answer")}</h3>
        {saved?.text ? <pre className="prose-pre">{saved.text}</pre> : <p className="muted">{t("rooms:discussion.noAnswer")}</p>}
      </div>
    );
  }
  return (
    <div className="answer">
      <div className="toolbar">
        <label htmlFor={id}>{t("rooms:discussion.yourAnswer")}</label>
        <span className="spacer" />
        <span className={`save save-${autosave.state.kind}`} aria-live="polite" data-testid="save-status">
          {autosaveLabel(autosave.state)}
        </span>
      </div>
      <textarea
        id={id}
        value={text}
        rows={14}
        onChange={(e) => {
          setText(e.target.value);
          autosave.change(e.target.value);
        }}
        onBlur={() => void autosave.flush()}
        placeholder={t("rooms:discussion.placeholder")}
      />
      <SpokenAnswer room={room} questionId={question.id} onTranscript={addTranscript} />
    </div>
  );
}

export function DiscussionWorkspace({ room, editable }: { room: Room; editable: boolean }) {
  const { t } = useTranslation();
  const questions = room.stage.questions;
  return (
    <div className="discussion-room">
      {questions.map((q) => (
        <article key={q.id} className="card question-card">
          <h2>{q.title}</h2>
          <Markdown source={q.prompt ?? ""} />
          <AnswerEditor room={room} question={q} editable={editable} />
        </article>
      ))}
      {(room.stage.follow_ups.length > 0 || room.stage.scripted_follow_ups_left > 0) && (
        <section className="card" aria-labelledby="asked-title">
          <h2 id="asked-title">{t("rooms:discussion.followUps")}</h2>
          {room.stage.follow_ups.length > 0 ? (
            <ol className="follow-up-list" data-testid="follow-up-list">
              {room.stage.follow_ups.map((f) => (
                <li key={f.id}>
                  <Markdown source={f.text} />
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted small">{t("rooms:discussion.none")}</p>
          )}
          <NextQuestionButton room={room} editable={editable} />
        </section>
      )}
    </div>
  );
}
