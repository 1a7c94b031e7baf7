import path from "node:path";
import { pathToFileURL } from "node:url";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import { defaultToolLimits } from "../langchain/tools-config.js";
import { limitModuleTool, type ModuleToolLimits } from "./limit-module-tool.js";
import { toolSchemaProblem } from "./tool-schema-problem.js";

/** What a tool module's factory receives per attempt. */
export interface ToolModuleContext {
  domain: string;
  /** Absent when the config is only being checked. */
  task?: Task;
}

export interface LoadedToolModule {
  tools: StructuredToolInterface[];
  close(): Promise<void>;
}

/**
 * Loads `module:<name>`: a JS module (TS with a loader such as tsx) whose default export, or `tools` export, is an
 * array of LangChain tools or a function `(context) => tools | { tools, close? }` (called per attempt, so a module
 * can give each attempt its own state). Every tool is checked as a provider would check it, and runs under the
 * module's per-call time limit and output cap (`limitModuleTool`).
 */
export async function loadToolModule(
  name: string,
  file: string,
  context: ToolModuleContext,
  limits: ModuleToolLimits = defaultToolLimits,
): Promise<LoadedToolModule> {
  const where = `domain ${context.domain}: tool module "${name}" (${file})`;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(path.resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new TfgrpoError("invalid_config", `${where}: cannot import it: ${(error as Error).message}`, {
      cause: error,
      details: { domain: context.domain, module: name },
    });
  }
  const exported = loaded.tools ?? loaded.default;
  let value: unknown =
    typeof exported === "function"
      ? await (exported as (c: ToolModuleContext) => unknown)(context)
      : exported;
  let close = async () => {};
  if (value && typeof value === "object" && !Array.isArray(value) && "tools" in value) {
    const bundle = value as { tools: unknown; close?: () => unknown };
    if (typeof bundle.close === "function") close = async () => void (await bundle.close?.());
    value = bundle.tools;
  }
  if (!Array.isArray(value)) {
    throw new TfgrpoError(
      "invalid_config",
      `${where}: the default (or tools) export must be an array of LangChain tools or a function returning one`,
      { details: { domain: context.domain, module: name } },
    );
  }
  for (const tool of value as unknown[]) {
    const candidate = tool as Partial<StructuredToolInterface> | null;
    if (!candidate || typeof candidate.name !== "string" || typeof candidate.invoke !== "function") {
      throw new TfgrpoError(
        "invalid_config",
        `${where}: every tool must be a LangChain tool (name, invoke)`,
        {
          details: { domain: context.domain, module: name },
        },
      );
    }
    let schema: unknown;
    try {
      schema = toJsonSchema(candidate.schema as never);
    } catch {
      schema = candidate.schema;
    }
    const problem = toolSchemaProblem(candidate.name, candidate.description ?? "", schema);
    if (problem) {
      throw new TfgrpoError("invalid_config", `${where}: tool "${candidate.name}": ${problem}`, {
        details: { domain: context.domain, module: name, tool: candidate.name },
      });
    }
  }
  return {
    tools: (value as StructuredToolInterface[]).map((tool) => limitModuleTool(tool, name, limits)),
    close,
  };
}
