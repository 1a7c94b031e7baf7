/**
 * Hand-built trajectories for the critic's tests, rendered the two ways the critic reads: packages/critic's renderer
 * (`Step N (assistant):`, `Tool call NAME:`, `Arguments:`, `Output:`) and the plain one (`[assistant]`, `[tool call]`,
 * `[tool result]`). The code and pages here are written for these tests, not taken from the simulated policy.
 */

export interface ToolUse {
  name: "code_interpreter" | "web_search" | "web_fetch";
  args: Record<string, unknown>;
  output: string;
}

export interface Turn {
  text?: string;
  tools?: ToolUse[];
}

export interface HandTrajectory {
  question: string;
  turns: Turn[];
  /** Experience lines shown to the agent (`[G3]. text`). */
  shown?: string[];
}

export const ran = (code: string, stdout: string, extra: Record<string, unknown> = {}): ToolUse => ({
  name: "code_interpreter",
  args: { code },
  output: JSON.stringify({ stdout, stderr: "", exitCode: 0, killed: false, ...extra }),
});

export const searched = (query: string, results: string): ToolUse => ({
  name: "web_search",
  args: { query, max_results: 5 },
  output: results,
});

export const fetched = (url: string, page: string): ToolUse => ({
  name: "web_fetch",
  args: { url },
  output: page,
});

/** The rendering of packages/critic (prompt contract, stage 1). */
export function renderCriticStyle(t: HandTrajectory, finalAnswer: string | null): string {
  const lines: string[] = [];
  if (!t.shown || t.shown.length === 0) lines.push("Experiences shown to the agent: none");
  else lines.push("Experiences shown to the agent:", ...t.shown);
  lines.push("", "Problem:", t.question);
  t.turns.forEach((turn, i) => {
    lines.push("", `Step ${i + 1} (assistant):`);
    if (turn.text) lines.push(turn.text);
    for (const tool of turn.tools ?? [])
      lines.push(
        `Tool call ${tool.name}:`,
        `Arguments: ${JSON.stringify(tool.args)}`,
        "Output:",
        tool.output,
      );
  });
  lines.push("", `Final answer: ${finalAnswer ?? "(none)"}`, "Stop reason: final_answer");
  return lines.join("\n");
}

/** The plain rendering of the sim's tests. */
export function renderPlainStyle(t: HandTrajectory): string {
  const lines: string[] = [];
  if (t.shown && t.shown.length > 0) lines.push("[system]", "# Learned Experiences", ...t.shown);
  lines.push("[user]", t.question);
  for (const turn of t.turns) {
    if (turn.text) lines.push("[assistant]", turn.text);
    for (const tool of turn.tools ?? []) lines.push(`[tool call] ${tool.name} ${JSON.stringify(tool.args)}`);
    for (const tool of turn.tools ?? []) lines.push("[tool result]", tool.output);
  }
  return lines.join("\n");
}

export function summaryPrompt(rendered: string, evaluation: string, truth: string): string {
  return [
    "Please summarize the trajectory step-by-step:",
    "<trajectory>",
    rendered,
    "</trajectory>",
    `<evaluation>${evaluation}</evaluation>`,
    `<groundtruth>${truth}</groundtruth>`,
    'Only return the trajectory summary of each step, one line per step as "Step N: ...".',
  ].join("\n");
}

export function advantagePrompt(
  question: string,
  attempts: readonly { reward: number; summary: string }[],
  truth: string,
  experiences: readonly string[] = [],
): string {
  return [
    "Review these problem-solving attempts and extract generalizable experiences:",
    `<problem>${question}</problem>`,
    "<trajectories>",
    ...attempts.map((a, i) => `<attempt index="${i + 1}" reward="${a.reward}">\n${a.summary}\n</attempt>`),
    "</trajectories>",
    `<groundtruth>${truth}</groundtruth>`,
    "<experience>",
    ...experiences,
    "</experience>",
  ].join("\n");
}

// --- a counting task ---------------------------------------------------------------------------------------------

export const evenQuestion = "How many even numbers are there from 12 to 40, inclusive?";

export function evenCode(inclusive: boolean): string {
  const bounds = inclusive ? "range(12, 40 + 1)" : "range(12 + 1, 40)";
  return `# tally the evens\ntotal = 0\nfor k in ${bounds}:\n    if k % 2 == 0:\n        total += 1\nprint(total)\n`;
}

export function evenAttempt(inclusive: boolean, prose: string, cite: string[] = []): HandTrajectory {
  const answer = inclusive ? "15" : "13";
  const cites = cite.map((id) => `[${id}]`).join(" ");
  return {
    question: evenQuestion,
    turns: [
      { text: prose, tools: [ran(evenCode(inclusive), `${answer}\n`)] },
      { text: `${cites} The program printed ${answer}.\n\\boxed{${answer}}` },
    ],
  };
}

// --- a web task --------------------------------------------------------------------------------------------------

export const fleetQuestion = "How many buses does the transit company Velmora Transit currently operate?";

export const fleetResults = [
  "1. Velmora Transit expands fleet to 410 buses",
  "   URL: http://news.harbourpost.example/2016/velmora-fleet",
  "   (2016-05-02) May 2, 2016 — Velmora Transit now runs 410 buses across the region.",
  "2. Velmora Transit Fleet Report 2024",
  "   URL: http://www.velmora-transit.example/fleet-2024",
  "   (2024-11-20) Fleet report 2024: vehicles, depots and routes of Velmora Transit.",
  "3. Velmora Transit — TransitDirectory",
  "   URL: http://www.transitdirectory.example/operators/velmora",
  "   Velmora Transit: operator profile, 395 buses, headquarters Orlen.",
].join("\n");

export const oldFleetPage = [
  "Title: Velmora Transit expands fleet to 410 buses",
  "URL: http://news.harbourpost.example/2016/velmora-fleet",
  "",
  "Velmora Transit expands fleet to 410 buses",
  "Published May 2, 2016",
  "The operator said it now runs 410 buses.",
].join("\n");

export const newFleetPage = [
  "Title: Velmora Transit Fleet Report 2024",
  "URL: http://www.velmora-transit.example/fleet-2024",
  "",
  "Fleet Report 2024",
  "Published November 20, 2024",
  "At year end the company operated 532 buses from four depots.",
].join("\n");
