/** One learning run as the efficiency plot shows it. */
export interface EfficiencyPoint {
  setting: string;
  loop: string;
  seed: number;
  gain: number;
  trainingRollouts: number;
  validationRollouts: number;
  /** After each step: rollouts spent so far and the head's held-out gain then. */
  curve?: ReadonlyArray<{ rollouts: number; gain: number }>;
}

/**
 * Held-out gain (points) against rollouts spent (training plus validation), one dot per run, colour by loop, shape
 * by setting (circle: demo, square: planted), each loop's mean per setting as a large labelled mark, and its mean
 * cost curve (the head's gain after each step against the rollouts spent by then) as a line from the origin.
 */
export function renderEfficiencyPlot(points: readonly EfficiencyPoint[]): string {
  const width = 760;
  const height = 360;
  const pad = { left: 60, right: 200, top: 24, bottom: 46 };
  const spent = (p: EfficiencyPoint) => p.trainingRollouts + p.validationRollouts;
  const maxX = Math.max(...points.map(spent), 1) * 1.08;
  const gains = points.map((p) => p.gain * 100);
  const minY = Math.min(0, ...gains) - 5;
  const maxY = Math.max(10, ...gains) + 5;
  const x = (v: number) => pad.left + (v / maxX) * (width - pad.left - pad.right);
  const y = (v: number) =>
    height - pad.bottom - ((v - minY) / (maxY - minY)) * (height - pad.top - pad.bottom);
  const colours: Record<string, string> = { default: "#1f77b4", paper: "#d62728" };
  const colour = (loop: string) => colours[loop] ?? "#555";
  const mark = (p: EfficiencyPoint, size: number, opacity: number) => {
    const cx = x(spent(p)).toFixed(1);
    const cy = y(p.gain * 100).toFixed(1);
    return p.setting === "planted"
      ? `<rect x="${Number(cx) - size}" y="${Number(cy) - size}" width="${2 * size}" height="${2 * size}" fill="${colour(p.loop)}" fill-opacity="${opacity}"/>`
      : `<circle cx="${cx}" cy="${cy}" r="${size}" fill="${colour(p.loop)}" fill-opacity="${opacity}"/>`;
  };
  const dots = points.map((p) => mark(p, 4, 0.45));
  const means: string[] = [];
  const lines: string[] = [];
  for (const setting of new Set(points.map((p) => p.setting)))
    for (const loop of new Set(points.map((p) => p.loop))) {
      const runs = points.filter((p) => p.setting === setting && p.loop === loop);
      if (runs.length === 0) continue;
      const mean = (pick: (p: EfficiencyPoint) => number) =>
        runs.reduce((s, p) => s + pick(p), 0) / runs.length;
      const point = {
        setting,
        loop,
        seed: 0,
        gain: mean((p) => p.gain),
        trainingRollouts: mean((p) => p.trainingRollouts),
        validationRollouts: mean((p) => p.validationRollouts),
      };
      const steps = Math.min(...runs.map((p) => p.curve?.length ?? 0));
      if (steps > 0) {
        const path = [{ rollouts: 0, gain: 0 }];
        for (let i = 0; i < steps; i++)
          path.push({
            rollouts: mean((p) => p.curve![i]!.rollouts),
            gain: mean((p) => p.curve![i]!.gain),
          });
        lines.push(
          `<polyline fill="none" stroke="${colour(loop)}" stroke-width="1.5" stroke-dasharray="${setting === "planted" ? "5 3" : "none"}" points="${path.map((q) => `${x(q.rollouts).toFixed(1)},${y(q.gain * 100).toFixed(1)}`).join(" ")}"/>`,
        );
      }
      means.push(
        `${mark(point, 7, 1)}<text x="${x(spent(point)) + 10}" y="${y(point.gain * 100) + 4}" font-size="11" fill="${colour(loop)}">${setting} ${loop}</text>`,
      );
    }
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const yValue = minY + f * (maxY - minY);
    return `<text x="${x(f * maxX)}" y="${height - pad.bottom + 16}" font-size="11" text-anchor="middle">${Math.round(f * maxX)}</text>
<text x="${pad.left - 6}" y="${y(yValue) + 4}" font-size="11" text-anchor="end">${yValue.toFixed(0)}</text>
<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(yValue)}" y2="${y(yValue)}" stroke="#ddd"/>`;
  });
  const legend = [
    `<circle cx="${width - pad.right + 24}" cy="${pad.top + 10}" r="5" fill="${colours.default}"/><text x="${width - pad.right + 34}" y="${pad.top + 14}" font-size="12">default loop</text>`,
    `<circle cx="${width - pad.right + 24}" cy="${pad.top + 30}" r="5" fill="${colours.paper}"/><text x="${width - pad.right + 34}" y="${pad.top + 34}" font-size="12">paper's loop</text>`,
    `<circle cx="${width - pad.right + 24}" cy="${pad.top + 54}" r="5" fill="#555"/><text x="${width - pad.right + 34}" y="${pad.top + 58}" font-size="12">demo (empty library)</text>`,
    `<rect x="${width - pad.right + 19}" y="${pad.top + 69}" width="10" height="10" fill="#555"/><text x="${width - pad.right + 34}" y="${pad.top + 78}" font-size="12">planted library</text>`,
    `<text x="${width - pad.right + 19}" y="${pad.top + 102}" font-size="11">small: one run</text>`,
    `<text x="${width - pad.right + 19}" y="${pad.top + 118}" font-size="11">large: mean over seeds</text>`,
    `<text x="${width - pad.right + 19}" y="${pad.top + 134}" font-size="11">line: mean head gain after</text>`,
    `<text x="${width - pad.right + 19}" y="${pad.top + 148}" font-size="11">each step (dashed: planted)</text>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<title>Held-out gain against rollouts spent (SIMULATED)</title>
<rect width="100%" height="100%" fill="white"/>
${ticks.join("\n")}
<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(0)}" y2="${y(0)}" stroke="#888"/>
${lines.join("\n")}
${dots.join("\n")}
${means.join("\n")}
${legend.join("\n")}
<text x="${(pad.left + width - pad.right) / 2}" y="${height - 8}" font-size="12" text-anchor="middle">rollouts spent (training + validation)</text>
<text x="16" y="${height / 2}" font-size="12" transform="rotate(-90 16 ${height / 2})" text-anchor="middle">held-out gain (points of Mean@k)</text>
</svg>
`;
}
