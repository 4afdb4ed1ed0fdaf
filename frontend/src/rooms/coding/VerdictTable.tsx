import { useTranslation } from "react-i18next";

import type { TestResult } from "../../api/client";
import { i18next } from "../../i18n";
import { formatNumber } from "../../i18n/format";
import { verdictLabel } from "../../lib/format";
import { isFinal, type SubmissionRow } from "./useSubmissions";

export function VerdictBadge({ verdict, status, position }: { verdict: string; status: string; position?: number | null }) {
  const { t } = useTranslation();
  if (!isFinal(status)) {
    const queued = position ? t("rooms:verdicts.queuedAt", { position }) : t("rooms:verdicts.queued");
    return <span className="verdict verdict-pending">{status === "running" ? t("rooms:verdicts.running") : queued}</span>;
  }
  const v = verdict || (status === "error" ? "internal_error" : "");
  return (
    <span className={`verdict verdict-${v}`} data-testid="verdict">
      {verdictLabel(v)}
    </span>
  );
}

/** Lines of `expected` and `output` side by side, differing lines marked. */
export function OutputDiff({ expected, output }: { expected: string; output: string }) {
  const { t } = useTranslation();
  const a = expected.replace(/\s+$/, "").split("\n");
  const b = output.replace(/\s+$/, "").split("\n");
  const n = Math.max(a.length, b.length);
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const left = a[i] ?? "";
    const right = b[i] ?? "";
    const differs = left.trimEnd() !== right.trimEnd();
    rows.push(
      <tr key={i} className={differs ? "diff-bad" : ""}>
        <td className="ln">{i + 1}</td>
        <td>
          <code>{left}</code>
        </td>
        <td>
          <code>{right}</code>
        </td>
      </tr>,
    );
  }
  return (
    <table className="diff">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t("rooms:verdicts.expected")}</th>
          <th scope="col">{t("rooms:verdicts.yourOutput")}</th>
        </tr>
      </thead>
      <tbody>{rows}</tbody>
    </table>
  );
}

/** Hidden tests carry no figures (one per test could encode its input): "—". */
function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : formatNumber(ms, { style: "unit", unit: "millisecond", unitDisplay: "short" });
}

function formatKb(kb: number | null | undefined): string {
  return kb === null || kb === undefined
    ? "—"
    : formatNumber(Math.round(kb / 102.4) / 10, { style: "unit", unit: "megabyte", unitDisplay: "short" });
}

/** A run on the candidate's own input has nothing to compare with: what it did is the
 * result (it ran, or it crashed or ran out of time), never "accepted". */
function RanBadge({ verdict }: { verdict: string }) {
  const { t } = useTranslation();
  if (verdict !== "accepted") return <VerdictBadge verdict={verdict} status="done" />;
  return (
    <span className="verdict verdict-ran" data-testid="verdict">
      {t("rooms:verdicts.ran")}
    </span>
  );
}

function TestRow({ test, custom }: { test: TestResult; custom: boolean }) {
  const { t } = useTranslation();
  const detailed = test.input !== undefined;
  return (
    <>
      <tr>
        <td>{test.index + 1}</td>
        <td>
          {custom ? t("rooms:verdicts.yourInput") : test.hidden ? t("rooms:verdicts.hidden") : t("rooms:verdicts.sample")}
        </td>
        <td>{custom ? <RanBadge verdict={test.verdict} /> : <VerdictBadge verdict={test.verdict} status="done" />}</td>
        <td className="num">{formatMs(test.time_ms)}</td>
        <td className="num">{formatKb(test.memory_kb)}</td>
      </tr>
      {detailed && (
        <tr className="test-detail">
          <td colSpan={5}>
            <details open={custom || test.verdict !== "accepted"}>
              <summary>{custom ? t("rooms:verdicts.inputOutput") : t("rooms:verdicts.inputExpectedOutput")}</summary>
              <div className="io-grid">
                <div>
                  <h4>{t("rooms:verdicts.input")}</h4>
                  <pre>{test.input}</pre>
                </div>
                {custom ? (
                  <div className="wide">
                    <h4>{t("rooms:verdicts.output")}</h4>
                    <pre data-testid="custom-output">{test.output ?? ""}</pre>
                  </div>
                ) : (
                  <div className="wide">
                    <OutputDiff expected={test.expected ?? ""} output={test.output ?? ""} />
                  </div>
                )}
                {test.stderr && (
                  <div className="wide">
                    <h4>stderr</h4>
                    <pre className="stderr">{test.stderr}</pre>
                  </div>
                )}
                {test.message && <p className="small muted wide">{test.message}</p>}
              </div>
            </details>
          </td>
        </tr>
      )}
    </>
  );
}

function rowLabel(row: SubmissionRow, custom: boolean): string {
  if (custom) return i18next.t("rooms:verdicts.runOnInput");
  if (row.mode === "run") return i18next.t("rooms:verdicts.run");
  return row.detail?.auto ? i18next.t("rooms:verdicts.autoSubmitted") : i18next.t("rooms:verdicts.submit");
}

export function SubmissionResult({ row }: { row: SubmissionRow }) {
  const { t } = useTranslation();
  const detail = row.detail;
  const custom = row.mode === "run" && detail?.stdin != null;
  return (
    <div className="submission" data-testid="submission-result">
      <div className="submission-head">
        <strong>
          {t("rooms:verdicts.head", { label: rowLabel(row, custom), id: row.id, part: row.part })}
        </strong>
        {custom && isFinal(row.status) ? <RanBadge verdict={row.verdict} /> : <VerdictBadge verdict={row.verdict} status={row.status} position={row.position} />}
        {!custom && isFinal(row.status) && row.total > 0 && (
          <span className="muted small">
            {t("rooms:verdicts.passed", { passed: row.passed, total: row.total })}
          </span>
        )}
        {detail && isFinal(detail.status ?? "") && detail.tests.some((t) => t.hidden) && (
          <span className="muted small" data-testid="submission-max">
            {t("rooms:verdicts.max", { time: formatMs(detail.max_time_ms), memory: formatKb(detail.max_memory_kb) })}
          </span>
        )}
      </div>
      {detail?.compile_output && <pre className="stderr">{detail.compile_output}</pre>}
      {detail && detail.tests.length > 0 && (
        <table className="tests">
          <thead>
            <tr>
              <th scope="col">{t("rooms:verdicts.test")}</th>
              <th scope="col">{t("rooms:verdicts.kind")}</th>
              <th scope="col">{t("rooms:verdicts.verdict")}</th>
              <th scope="col">{t("rooms:verdicts.time")}</th>
              <th scope="col">{t("rooms:verdicts.memory")}</th>
            </tr>
          </thead>
          <tbody>
            {detail.tests.map((t) => (
              <TestRow key={`${t.hidden}-${t.index}`} test={t} custom={custom} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function VerdictTable({ rows }: { rows: SubmissionRow[] }) {
  const { t } = useTranslation();
  if (!rows.length) {
    return <p className="muted small">{t("rooms:verdicts.empty")}</p>;
  }
  const [latest, ...older] = rows;
  return (
    <div className="verdicts" aria-live="polite">
      <SubmissionResult row={latest!} />
      {older.length > 0 && (
        <details className="history">
          <summary>{t("rooms:verdicts.earlier", { count: older.length })}</summary>
          <ul>
            {older.map((r) => (
              <li key={r.id}>
                {t("rooms:verdicts.earlierRow", { mode: r.mode, id: r.id, part: r.part })} ·{" "}
                <VerdictBadge verdict={r.verdict} status={r.status} />{" "}
                {isFinal(r.status) && r.total > 0 && (
                  <span className="muted small">
                    {r.passed}/{r.total}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
