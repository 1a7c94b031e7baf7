import { readUserText, TfgrpoError } from "@tfgrpo/protocol";
import { isMap, isScalar, LineCounter, type Node, parseDocument } from "yaml";
import type { ModelsConfig } from "./models-config-schema.js";
import { type ParseModelsConfigOptions, parseModelsConfig } from "./parse-models-config.js";

export type LoadModelsConfigOptions = Omit<ParseModelsConfigOptions, "source" | "locate">;

/** Reads a YAML models config; problems name the file, line and key path. */
export async function loadModelsConfig(
  file: string,
  options: LoadModelsConfigOptions = {},
): Promise<ModelsConfig> {
  const text = await readUserText(file, { what: "models config", code: "invalid_config" });
  return parseModelsConfigYaml(text, { ...options, source: file });
}

/** The YAML text form of parseModelsConfig (also used by tests and by commands that get the text another way). */
export function parseModelsConfigYaml(
  text: string,
  options: Omit<ParseModelsConfigOptions, "locate"> = {},
): ModelsConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const where = options.source ?? "models config";
  if (document.errors.length > 0) {
    const problems = document.errors.map((error) => {
      const line = error.linePos?.[0]?.line;
      // The pretty message repeats the position and quotes the source; the position goes in front instead.
      const message = (error.message.split("\n")[0] ?? error.message).replace(
        / at line \d+, column \d+:?$/,
        "",
      );
      return { path: "(yaml)", message, ...(line ? { line } : {}) };
    });
    const lines = problems.map(
      (problem) => `  ${where}${problem.line ? `:${problem.line}` : ""}: ${problem.message}`,
    );
    throw new TfgrpoError("invalid_config", `invalid YAML in ${where}:\n${lines.join("\n")}`, {
      details: { ...(options.source ? { file: options.source } : {}), problems },
    });
  }
  const locate = (path: readonly PropertyKey[]): number | undefined => {
    // The key's own line is what a reader looks for; fall back to the nearest existing parent.
    for (let depth = path.length; depth > 0; depth--) {
      const parent = depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true);
      if (!isMap(parent)) continue;
      const pair = parent.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(path[depth - 1]),
      );
      const node = pair?.key as Node | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return parseModelsConfig(document.toJS(), { ...options, locate });
}
