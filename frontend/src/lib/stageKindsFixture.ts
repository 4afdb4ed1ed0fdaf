// For tests: the stage kinds as the server serves them. The JSON is checked against
// `GET /api/v1/stage-kinds/` by tests/interviews/api/test_stage_kinds.py, so it cannot drift.
import type { StageKindSpec } from "../api/client";
import list from "./stageKinds.fixture.json";

export const STAGE_KINDS_FIXTURE = list as StageKindSpec[];
