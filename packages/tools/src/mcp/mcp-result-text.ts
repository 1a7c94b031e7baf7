/** What a tools/call result carries that tfgrpo reads. */
interface CallResultLike {
  content?: unknown;
  structuredContent?: unknown;
}

/**
 * The text the model reads of an MCP tool result: text parts joined, embedded text resources inlined, other parts
 * named (`[image: image/png]`), and the structured content as JSON when there is no text.
 */
export function mcpResultText(result: CallResultLike): string {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") parts.push(part.text);
    else if (part.type === "resource") {
      const resource = part.resource as { text?: unknown; uri?: unknown } | undefined;
      parts.push(typeof resource?.text === "string" ? resource.text : `[resource: ${String(resource?.uri)}]`);
    } else if (part.type === "resource_link") parts.push(`[resource: ${String(part.uri)}]`);
    else parts.push(`[${String(part.type)}: ${String(part.mimeType ?? "")}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join("\n");
}
