/**
 * A tool's arguments as its JSON schema declares them, read the way a model reads a schema: each property's name,
 * type, description, whether it is required, its enum and bounds. Anything the schema does not say stays unknown.
 */

export interface ToolArgument {
  name: string;
  /** "string", "number", "integer", "boolean", "array", "object"; null when the schema gives no type. */
  type: string | null;
  description: string;
  required: boolean;
  values: readonly unknown[] | null;
  defaultValue: unknown;
  minimum: number | null;
  maximum: number | null;
  format: string | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The one non-null type of `"string"`, `["string", "null"]` or `anyOf: [{type: "string"}, {type: "null"}]`. */
function typeOf(schema: Record<string, unknown>): string | null {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === "string" && t !== "null");
    return types.length === 1 ? types[0]! : null;
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(alternatives)) {
    const types = alternatives
      .map((alternative) => record(alternative))
      .map((alternative) => (alternative ? typeOf(alternative) : null))
      .filter((t): t is string => t !== null && t !== "null");
    return types.length === 1 ? types[0]! : null;
  }
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) return "string";
  return null;
}

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The declared properties of a tool's parameters schema, in the order the schema lists them. */
export function toolArguments(parameters: unknown): ToolArgument[] {
  const schema = record(parameters);
  const properties = record(schema?.properties);
  if (!schema || !properties) return [];
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === "string") : [],
  );
  return Object.entries(properties).map(([name, value]) => {
    const property = record(value) ?? {};
    return {
      name,
      type: typeOf(property),
      description: typeof property.description === "string" ? property.description : "",
      required: required.has(name),
      values: Array.isArray(property.enum) ? property.enum : null,
      defaultValue: property.default,
      minimum: numberOr(property.minimum),
      maximum: numberOr(property.maximum),
      format: typeof property.format === "string" ? property.format : null,
    };
  });
}

export function isTextArgument(argument: ToolArgument): boolean {
  return argument.type === "string" || argument.type === null;
}

export function isNumberArgument(argument: ToolArgument): boolean {
  return argument.type === "number" || argument.type === "integer";
}
