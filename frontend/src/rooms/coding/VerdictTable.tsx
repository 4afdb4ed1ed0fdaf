import type { TestResult } from "../../api/client";
import { verdictLabel } from "../../lib/format";
import { isFinal, type SubmissionRow } from "./useSubmissions";

export function VerdictBadge({ verdict, status, position }: { verdict: string; status: string; position?: number | null }) {
  if (!isFinal(status)) {
    const queued = position ? `queued (position ${position})…` : "queued…";
    return <span className="verdict verdict-pending">{status === "running" ? "running…" : queued}</span>;
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
          <th scope="col">Expected</th>
          <th scope="col">Your output</th>
        </tr>
      </thead>
      <tbody>{rows}</tbody>
    </table>
  );
}

/** Hidden tests carry no figures (one per test could encode its input): "—". */
function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : `${ms} ms`;
}

function formatKb(kb: number | null | undefined): string {
  return kb === null || kb === undefined ? "—" : `${Math.round(kb / 102.4) / 10} MB`;
}

/** A run on the candidate's own input has nothing to compare with: what it did is the
 * result (it ran, or it crashed or ran out of time), never "accepted". */
function RanBadge({ verdict }: { verdict: string }) {
  if (verdict !== "accepted") return <VerdictBadge verdict={verdict} status="done" />;
  return (
    <span className="verdict verdict-ran" data-testid="verdict">
      ran
    </span>
  );
}

function TestRow({ test, custom }: { test: TestResult; custom: boolean }) {
  const detailed = test.input !== undefined;
  return (
    <>
      <tr>
        <td>{test.index + 1}</td>
        <td>{custom ? "your input" : test.hidden ? "hidden" : "sample"}</td>
        <td>{custom ? <RanBadge verdict={test.verdict} /> : <VerdictBadge verdict={test.verdict} status="done" />}</td>
        <td className="num">{formatMs(test.time_ms)}</td>
        <td className="num">{formatKb(test.memory_kb)}</td>
      </tr>
      {detailed && (
        <tr className="test-detail">
          <td colSpan={5}>
            <details open={custom || test.verdict !== "accepted"}>
              <summary>{custom ? "Input and output" : "Input, expected and output"}</summary>
              <div className="io-grid">
                <div>
                  <h4>Input</h4>
                  <pre>{test.input}</pre>
                </div>
                {custom ? (
                  <div className="wide">
                    <h4>Output</h4>
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
  if (custom) return "Run on your input";
  if (row.mode === "run") return "Run";
  return row.detail?.auto ? "Submitted when the stage ended" : "Submit";
}

export function SubmissionResult({ row }: { row: SubmissionRow }) {
  const detail = row.detail;
  const custom = row.mode === "run" && detail?.stdin != null;
  return (
    <div className="submission" data-testid="submission-result">
      <div className="submission-head">
        <strong>
          {rowLabel(row, custom)} #{row.id} · part {row.part}
        </strong>
        {custom && isFinal(row.status) ? <RanBadge verdict={row.verdict} /> : <VerdictBadge verdict={row.verdict} status={row.status} position={row.position} />}
        {!custom && isFinal(row.status) && row.total > 0 && (
          <span className="muted small">
            {row.passed}/{row.total} passed
          </span>
        )}
        {detail && isFinal(detail.status ?? "") && detail.tests.some((t) => t.hidden) && (
          <span className="muted small" data-testid="submission-max">
            max {formatMs(detail.max_time_ms)} · {formatKb(detail.max_memory_kb)}
          </span>
        )}
      </div>
      {detail?.compile_output && <pre className="stderr">{detail.compile_output}</pre>}
      {detail && detail.tests.length > 0 && (
        <table className="tests">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Kind</th>
              <th scope="col">Verdict</th>
              <th scope="col">Time</th>
              <th scope="col">Memory</th>
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
  if (!rows.length) {
    return <p className="muted small">Run your code on the samples (Ctrl/⌘+Enter) or submit it against the hidden tests (Ctrl/⌘+Shift+Enter).</p>;
  }
  const [latest, ...older] = rows;
  return (
    <div className="verdicts" aria-live="polite">
      <SubmissionResult row={latest!} />
      {older.length > 0 && (
        <details className="history">
          <summary>Earlier runs ({older.length})</summary>
          <ul>
            {older.map((r) => (
              <li key={r.id}>
                {r.mode === "run" ? "Run" : "Submit"} #{r.id} · part {r.part} ·{" "}
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
