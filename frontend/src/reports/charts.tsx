// Small hand-rolled SVG charts (a line chart over time and a diverging bar): the data are a
// few dozen points, not worth a chart library in the bundle.
import { useTranslation } from "react-i18next";

import { formatDateTime, formatNumber } from "../i18n/format";

export interface Series {
  name: string;
  /** `hollow`: drawn as a ring (the progress chart's points from automatic scorecards). */
  points: { x: number; y: number; label?: string; hollow?: boolean }[];
}

const PALETTE = ["#2f5bd3", "#1e7a46", "#b45309", "#9333ea", "#b42318", "#0e7490", "#4b5563", "#be185d"];

export function colourOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/** Map a value from [lo, hi] to [a, b] (a degenerate domain maps to the middle). */
export function scale(value: number, lo: number, hi: number, a: number, b: number): number {
  if (hi === lo) return (a + b) / 2;
  return a + ((value - lo) / (hi - lo)) * (b - a);
}

export function LineChart({
  series,
  yMin = 0,
  yMax = 100,
  yTicks = [0, 25, 50, 75, 100],
  yFormat = (v: number) => formatNumber(v),
  xFormat = (v: number) => formatDateTime(new Date(v), { month: "short", day: "numeric" }),
  height = 220,
  label,
}: {
  series: Series[];
  yMin?: number;
  yMax?: number;
  yTicks?: number[];
  yFormat?: (v: number) => string;
  xFormat?: (v: number) => string;
  height?: number;
  label: string;
}) {
  const { t } = useTranslation();
  const width = 640;
  const pad = { l: 40, r: 12, t: 10, b: 26 };
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  if (!xs.length) return <p className="muted small">{t("reports:chart.noData")}</p>;
  const xLo = Math.min(...xs);
  const xHi = Math.max(...xs);
  const X = (x: number) => scale(x, xLo, xHi, pad.l + 8, width - pad.r - 8);
  const Y = (y: number) => scale(y, yMin, yMax, height - pad.b, pad.t);
  const xTicks = xLo === xHi ? [xLo] : [xLo, xLo + (xHi - xLo) / 2, xHi];
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="xMidYMid meet">
        {yTicks.map((v) => (
          <g key={v}>
            <line x1={pad.l} x2={width - pad.r} y1={Y(v)} y2={Y(v)} className="grid" />
            <text x={pad.l - 6} y={Y(v) + 4} textAnchor="end" className="tick">
              {yFormat(v)}
            </text>
          </g>
        ))}
        {xTicks.map((v, i) => (
          <text key={i} x={X(v)} y={height - 6} textAnchor="middle" className="tick">
            {xFormat(v)}
          </text>
        ))}
        {series.map((s, i) => {
          const colour = colourOf(i);
          const path = s.points.map((p, j) => `${j ? "L" : "M"}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(" ");
          return (
            <g key={s.name}>
              {s.points.length > 1 && <path d={path} fill="none" stroke={colour} strokeWidth={2} />}
              {s.points.map((p, j) => (
                <circle
                  key={j}
                  cx={X(p.x)}
                  cy={Y(p.y)}
                  r={3.5}
                  fill={p.hollow ? "#fff" : colour}
                  stroke={colour}
                  strokeWidth={p.hollow ? 2 : 0}
                  data-hollow={p.hollow ? "true" : undefined}
                >
                  <title>{`${s.name}: ${yFormat(p.y)}${p.label ? ` — ${p.label}` : ""}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {series.map((s, i) => (
          <span key={s.name}>
            <span className="swatch" style={{ background: colourOf(i) }} aria-hidden="true" />
            {s.name}
          </span>
        ))}
        {series.some((s) => s.points.some((p) => p.hollow)) && (
          <span className="muted small">{t("reports:chart.legend")}</span>
        )}
      </figcaption>
    </figure>
  );
}

/** A bar from the middle: negative left (red), positive right (green); `max` is the span. */
export function DeltaBar({ value, max = 1.5 }: { value: number | null; max?: number }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return <span className="muted small">—</span>;
  const pct = Math.min(50, (Math.abs(value) / max) * 50);
  return (
    <span className="delta-bar" role="img" aria-label={t("reports:chart.delta", {
        value: formatNumber(value, { signDisplay: "always", minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      })}>
      <span className={`delta-fill ${value >= 0 ? "pos" : "neg"}`} style={value >= 0 ? { left: "50%", width: `${pct}%` } : { right: "50%", width: `${pct}%` }} />
      <span className="delta-mid" />
    </span>
  );
}
