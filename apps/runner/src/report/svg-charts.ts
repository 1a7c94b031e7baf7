/**
 * Static SVG charts for the run report: no script, no network, readable when the file is opened anywhere.
 */

export interface Series {
  name: string;
  values: (number | null)[];
  color: string;
  dashed?: boolean;
}

export interface PointMarker {
  index: number;
  label: string;
  color: string;
}

export interface LineChartOptions {
  title: string;
  xLabels: string[];
  series: Series[];
  yLabel?: string;
  yMin?: number;
  yMax?: number;
  markers?: PointMarker[];
  width?: number;
  height?: number;
}

const margin = { top: 36, right: 150, bottom: 44, left: 56 };

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

function niceNumber(value: number): string {
  if (Math.abs(value) >= 1000) return `${(value / 1000).toFixed(1)}k`;
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) >= 1) return value.toFixed(1);
  return String(Number(value.toPrecision(2)));
}

function axes(
  width: number,
  height: number,
  xLabels: string[],
  yMin: number,
  yMax: number,
  title: string,
  yLabel: string | undefined,
  xPosition: (i: number) => number,
): string {
  const plotHeight = height - margin.top - margin.bottom;
  const parts: string[] = [
    `<text class="chart-title" x="${margin.left}" y="20" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
  ];
  for (let t = 0; t <= 4; t++) {
    const value = yMin + ((yMax - yMin) * t) / 4;
    const y = margin.top + plotHeight - (plotHeight * t) / 4;
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`,
      `<text x="${margin.left - 6}" y="${y + 4}" font-size="11" text-anchor="end" fill="#4b5563">${niceNumber(value)}</text>`,
    );
  }
  xLabels.forEach((label, i) => {
    parts.push(
      `<text x="${xPosition(i)}" y="${height - margin.bottom + 16}" font-size="11" text-anchor="middle" fill="#4b5563">${escapeXml(label)}</text>`,
    );
  });
  if (yLabel) {
    parts.push(
      `<text x="14" y="${margin.top + plotHeight / 2}" font-size="11" fill="#4b5563" transform="rotate(-90 14 ${margin.top + plotHeight / 2})" text-anchor="middle">${escapeXml(yLabel)}</text>`,
    );
  }
  parts.push(
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="#9ca3af"/>`,
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotHeight}" y2="${margin.top + plotHeight}" stroke="#9ca3af"/>`,
  );
  return parts.join("");
}

function legend(width: number, entries: { name: string; color: string; dashed?: boolean }[]): string {
  return entries
    .map((entry, i) => {
      const y = margin.top + 8 + i * 18;
      const x = width - margin.right + 12;
      return `<g class="legend-item"><line x1="${x}" x2="${x + 18}" y1="${y}" y2="${y}" stroke="${entry.color}" stroke-width="3"${entry.dashed ? ' stroke-dasharray="5 3"' : ""}/><text x="${x + 24}" y="${y + 4}" font-size="11">${escapeXml(entry.name)}</text></g>`;
    })
    .join("");
}

function range(values: number[], yMin?: number, yMax?: number): [number, number] {
  const low = yMin ?? Math.min(0, ...values);
  let high = yMax ?? Math.max(...values, low + 1e-9);
  if (high <= low) high = low + 1;
  return [low, high];
}

export function lineChart(options: LineChartOptions): string {
  const width = options.width ?? 720;
  const height = options.height ?? 300;
  const all = options.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const [yMin, yMax] = range(all, options.yMin, options.yMax);
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const count = options.xLabels.length;
  const x = (i: number) => margin.left + (count <= 1 ? plotWidth / 2 : (plotWidth * i) / (count - 1));
  const y = (v: number) => margin.top + plotHeight - ((v - yMin) / (yMax - yMin)) * plotHeight;
  const lines = options.series.map((series) => {
    const points = series.values
      .map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`))
      .filter((p): p is string => p !== null);
    const dots = series.values
      .map((v, i) =>
        v === null
          ? ""
          : `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${series.color}"><title>${escapeXml(`${series.name} @ ${options.xLabels[i]}: ${v.toFixed(3)}`)}</title></circle>`,
      )
      .join("");
    return `<g class="series" data-series="${escapeXml(series.name)}"><polyline fill="none" stroke="${series.color}" stroke-width="2.5"${series.dashed ? ' stroke-dasharray="6 4"' : ""} points="${points.join(" ")}"/>${dots}</g>`;
  });
  const markers = (options.markers ?? []).map(
    (m) =>
      `<g class="marker"><line x1="${x(m.index)}" x2="${x(m.index)}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="${m.color}" stroke-dasharray="2 3" opacity="0.7"/><text x="${x(m.index)}" y="${margin.top - 4}" font-size="10" text-anchor="middle" fill="${m.color}">${escapeXml(m.label)}</text></g>`,
  );
  return `<svg class="chart line-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">${axes(width, height, options.xLabels, yMin, yMax, options.title, options.yLabel, x)}${markers.join("")}${lines.join("")}${legend(width, options.series)}</svg>`;
}

export interface BarChartOptions {
  title: string;
  xLabels: string[];
  /** Stacked when several series are given. */
  series: Series[];
  yLabel?: string;
  width?: number;
  height?: number;
}

export function stackedBarChart(options: BarChartOptions): string {
  const width = options.width ?? 720;
  const height = options.height ?? 300;
  const count = options.xLabels.length;
  const totals = options.xLabels.map((_, i) =>
    options.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0),
  );
  const [yMin, yMax] = range(totals, 0);
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, count);
  const barWidth = Math.max(4, Math.min(48, slot * 0.6));
  const x = (i: number) => margin.left + slot * (i + 0.5);
  const scale = (v: number) => (v / (yMax - yMin)) * plotHeight;
  const bars: string[] = [];
  options.xLabels.forEach((label, i) => {
    let base = margin.top + plotHeight;
    for (const series of options.series) {
      const value = series.values[i] ?? 0;
      if (value <= 0) continue;
      const h = scale(value);
      base -= h;
      bars.push(
        `<rect class="bar" x="${(x(i) - barWidth / 2).toFixed(1)}" y="${base.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" fill="${series.color}"><title>${escapeXml(`${series.name} @ ${label}: ${niceNumber(value)}`)}</title></rect>`,
      );
    }
  });
  return `<svg class="chart bar-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">${axes(width, height, options.xLabels, yMin, yMax, options.title, options.yLabel, x)}${bars.join("")}${legend(width, options.series)}</svg>`;
}

export interface IntervalBarOptions {
  estimate: number;
  lower: number;
  upper: number;
  /** The axis runs from -range to +range; the bars of one table share it so they compare at a glance. */
  range: number;
  color: string;
  /** What the bar says in words (its tooltip and accessible name). */
  label: string;
  width?: number;
  height?: number;
}

/**
 * A small inline interval: the axis with its zero line, the interval as a bar, the estimate as a dot. Drawn for a table
 * cell (an entry's contrast), so no title, legend or ticks; the numbers stand beside it as text.
 */
export function intervalBar(options: IntervalBarOptions): string {
  const width = options.width ?? 120;
  const height = options.height ?? 14;
  const pad = 4;
  const range = options.range > 0 ? options.range : 1;
  const clip = (value: number) => Math.min(range, Math.max(-range, value));
  const x = (value: number) => (pad + ((clip(value) + range) / (2 * range)) * (width - 2 * pad)).toFixed(1);
  const middle = height / 2;
  return `<svg class="interval-bar" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.label)}"><title>${escapeXml(options.label)}</title><line x1="${pad}" x2="${width - pad}" y1="${middle}" y2="${middle}" stroke="#e5e7eb"/><line class="zero" x1="${x(0)}" x2="${x(0)}" y1="1" y2="${height - 1}" stroke="#9ca3af"/><line class="interval" x1="${x(options.lower)}" x2="${x(options.upper)}" y1="${middle}" y2="${middle}" stroke="${options.color}" stroke-width="4" stroke-linecap="round" opacity="0.55"/><circle class="estimate" cx="${x(options.estimate)}" cy="${middle}" r="3.5" fill="${options.color}"/></svg>`;
}
