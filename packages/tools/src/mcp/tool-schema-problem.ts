/** What OpenAI-compatible providers accept as a function name. */
const namePattern = /^[A-Za-z0-9_-]{1,64}$/;
const maxDescriptionChars = 1024;

/**
 * Why a model provider would refuse a tool, or null: a name outside [A-Za-z0-9_-]{1,64}, a description past 1024
 * characters, or parameters that are not a JSON Schema object at the top (`type: "object"`, no top-level
 * anyOf/oneOf/allOf/not/enum, properties an object). Checked before any rollout so a run does not fail at the first
 * model call with the provider's 400.
 */
export function toolSchemaProblem(name: string, description: string, schema: unknown): string | null {
  if (!namePattern.test(name)) return "the name must be 1-64 letters, digits, '_' or '-'";
  if (description.length > maxDescriptionChars)
    return `the description has ${description.length} characters (providers accept ${maxDescriptionChars})`;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return "the input schema must be a JSON Schema object";
  const record = schema as Record<string, unknown>;
  if (record.type !== "object")
    return `the input schema's type must be "object", not ${JSON.stringify(record.type)}`;
  for (const keyword of ["anyOf", "oneOf", "allOf", "not", "enum"]) {
    if (keyword in record) return `the input schema has a top-level ${keyword}, which providers refuse`;
  }
  if (
    record.properties !== undefined &&
    (typeof record.properties !== "object" || record.properties === null || Array.isArray(record.properties))
  )
    return "the input schema's properties must be an object";
  return null;
}
