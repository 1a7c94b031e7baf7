import {
  type Capability,
  type CapabilityResult,
  checkModels,
  loadModelsConfig,
  type ModelsCheckReport,
} from "@tfgrpo/models";
import type { CommandOutput } from "../cli-options/command-output.js";
import type { ModelsCheckOptions } from "./models-check-command-options.js";

export type { ModelsCheckOptions };

const columns: Array<[Capability, string]> = [
  ["chat", "chat"],
  ["tools", "tools"],
  ["json_schema", "json_schema"],
  ["json_object", "json_object"],
  ["text", "text"],
  ["seed", "seed"],
  ["embeddings", "embeddings"],
  ["cached_tokens", "cached tokens"],
];

const marks: Record<CapabilityResult["status"], string> = {
  ok: "yes",
  failed: "FAIL",
  refused: "no",
  skipped: "-",
  off: "off",
  none: "none",
};

/** `tfgrpo models check`: returns the report; the exit code is non-zero when a role cannot do what it is used for. */
export async function modelsCheck(
  options: ModelsCheckOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
  env: Record<string, string | undefined> = process.env,
): Promise<ModelsCheckReport> {
  const config = await loadModelsConfig(options.config, { env });
  const report = await checkModels(config, { timeoutMs: options.timeoutMs, env, actorMode: options.mode });
  if (options.json) {
    output.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report;
  }
  output.stdout.write(`${renderModelsCheck(report)}\n`);
  return report;
}

/** The capability table, the mode each role will use, then one line per problem and the verdict. */
export function renderModelsCheck(report: ModelsCheckReport): string {
  const header = ["role", "model", ...columns.map(([, title]) => title), "structured mode"];
  const rows = report.roles.map((check) => [
    check.role,
    check.model,
    ...columns.map(([capability]) => {
      const result = check.results[capability];
      return result ? marks[result.status] : "-";
    }),
    check.structuredMode ?? (check.role === "embedder" ? "-" : "none"),
  ]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => row[index]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index]!))
      .join("  ")
      .trimEnd();
  const lines = [line(header), ...rows.map(line), ""];
  for (const check of report.roles) {
    const label = `${check.role} (${check.model} at ${check.baseUrl})`;
    if (check.fatal) {
      lines.push(`${label}: ${check.fatal}`);
      continue;
    }
    for (const problem of check.problems) lines.push(`${label}: cannot be used: ${problem}`);
    if (check.ok) {
      const notes = [
        check.structuredMode ? `structured output as ${check.structuredMode}` : undefined,
        ...columns
          .map(([capability]) => [capability, check.results[capability]] as const)
          .filter(([, result]) => result && result.status !== "ok" && result.detail)
          .map(([capability, result]) => `${capability}: ${result!.detail}`),
      ].filter((note): note is string => note !== undefined);
      lines.push(
        `${label}: ok (needs ${check.needs.join(", ")})${notes.length ? `; ${notes.join("; ")}` : ""}`,
      );
    }
  }
  lines.push(
    "",
    `${report.ok ? "every role can do what it is used for" : "some roles cannot do what they are used for"} ` +
      `(the check cost $${report.usage.costUsd.toFixed(6)} in ${report.usage.calls} calls)`,
  );
  return lines.join("\n");
}
