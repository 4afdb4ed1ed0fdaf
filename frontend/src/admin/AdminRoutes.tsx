// The bank curation pages (admins), lazy-loaded as one chunk: /bank/…
import { Route, Routes } from "react-router";

import { NotFoundPage } from "../pages/Problem";
import { BankTransfer } from "./BankTransfer";
import { LoopBuilder } from "./LoopBuilder";
import { QuestionEditorPage } from "./QuestionEditor";
import { QuestionList } from "./QuestionList";
import { RubricEditor } from "./RubricEditor";

export default function AdminRoutes() {
  return (
    <Routes>
      <Route index element={<QuestionList />} />
      <Route path="questions/new" element={<QuestionEditorPage />} />
      <Route path="questions/:questionId" element={<QuestionEditorPage />} />
      <Route path="rubrics" element={<RubricEditor />} />
      <Route path="loops" element={<LoopBuilder />} />
      <Route path="transfer" element={<BankTransfer />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
