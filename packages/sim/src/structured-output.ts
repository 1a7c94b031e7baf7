import type { ResponseFormat } from "./chat-request.js";

type JsonSchema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(schema: unknown, root: unknown): JsonSchema {
  let current = isObject(schema) ? schema : {};
  for (let depth = 0; depth < 16 && typeof current.$ref === "string"; depth++) {
    const path = current.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    let target: unknown = root;
    for (const key of path) target = isObject(target) ? target[key] : undefined;
    current = isObject(target) ? target : {};
  }
  return current;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (typeof schema.type === "string") return [schema.type];
  if (isObject(schema.properties)) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

function defaultFor(schema: JsonSchema, root: unknown): unknown {
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return defaultFor(resolve(branches[0], root), root);
  const [type] = typesOf(schema);
  switch (type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return fitToSchema({}, schema, root);
    default:
      return null;
  }
}

/** How well a value fits a branch of anyOf/oneOf: matching consts and known keys count, conflicts rule it out. */
function branchScore(value: unknown, schema: JsonSchema, root: unknown): number {
  const types = typesOf(schema);
  if ("const" in schema) return schema.const === value ? 10 : -100;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value) ? 5 : -100;
  if (value === null) return types.includes("null") ? 5 : -10;
  if (Array.isArray(value)) return types.includes("array") ? 2 : -10;
  if (isObject(value)) {
    if (!types.includes("object")) return -10;
    const properties = isObject(schema.properties) ? schema.properties : {};
    let score = 0;
    for (const [key, child] of Object.entries(value)) {
      const property = properties[key];
      if (property === undefined) {
        score -= 1;
        continue;
      }
      const resolved = resolve(property, root);
      if ("const" in resolved) score += resolved.const === child ? 10 : -100;
      else if (Array.isArray(resolved.enum)) score += resolved.enum.includes(child) ? 5 : -100;
      else score += 1;
    }
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const key of required) if (typeof key === "string" && !(key in value)) score -= 2;
    return score;
  }
  const primitive =
    typeof value === "number"
      ? Number.isInteger(value)
        ? ["integer", "number"]
        : ["number"]
      : [typeof value];
  return types.some((t) => primitive.includes(t)) ? 2 : -10;
}

/**
 * Shapes a value to a JSON schema the way a model with structured outputs must: only the schema's properties,
 * every required property present, enums honoured, anyOf branches chosen by fit.
 */
export function fitToSchema(value: unknown, schema: unknown, root: unknown = schema): unknown {
  const s = resolve(schema, root);
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    let best = resolve(branches[0], root);
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const branch of branches) {
      const resolved = resolve(branch, root);
      const score = branchScore(value, resolved, root);
      if (score > bestScore) {
        best = resolved;
        bestScore = score;
      }
    }
    return fitToSchema(value, best, root);
  }
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.includes(value) ? value : s.enum[0];
  const types = typesOf(s);
  if (value === null || value === undefined) return types.includes("null") ? null : defaultFor(s, root);
  if (types.includes("object") && isObject(value)) {
    const properties = isObject(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(properties)) {
      if (key in value) out[key] = fitToSchema(value[key], child, root);
      else if (required.includes(key)) out[key] = defaultFor(resolve(child, root), root);
    }
    if (s.additionalProperties !== false && Object.keys(properties).length === 0) return value;
    return out;
  }
  if (types.includes("array") && Array.isArray(value)) {
    let items = value.map((item) => (s.items === undefined ? item : fitToSchema(item, s.items, root)));
    if (typeof s.maxItems === "number") items = items.slice(0, s.maxItems);
    return items;
  }
  if (
    (types.includes("integer") || types.includes("number")) &&
    typeof value === "string" &&
    /^-?\d+(\.\d+)?$/.test(value)
  )
    return Number(value);
  if (types.includes("string") && typeof value !== "string")
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  return value;
}

/** The text of a structured answer, as the request's response_format asks for it. */
export function renderStructured(value: unknown, responseFormat: ResponseFormat | null | undefined): string {
  if (responseFormat?.type === "json_schema") {
    const schema = responseFormat.json_schema.schema;
    return JSON.stringify(schema === undefined ? value : fitToSchema(value, schema));
  }
  if (responseFormat?.type === "json_object") return JSON.stringify(value);
  // No response_format: answer like many chat models do, a sentence then a fenced JSON block.
  return `Here is my answer.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** A deterministic way to break JSON (fault injection): drop the closing brace and a quote. */
export function breakJson(text: string): string {
  const cut = text.lastIndexOf("}");
  const broken = cut > 0 ? text.slice(0, cut) : text;
  return broken.replace(/"([^"]*)"\s*:/, "$1:");
}

/** JSON turned into something no repair can read (fault injection): key = value pairs in single quotes, no brackets. */
export function garbleJson(text: string): string {
  return text
    .replace(/[{}[\]]/g, " ")
    .replace(/"/g, "'")
    .replace(/:/g, " = ");
}
