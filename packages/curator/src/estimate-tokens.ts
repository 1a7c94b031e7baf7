/**
 * A tokenizer-free token estimate (about 4 characters per token for English, 1 per CJK character). Budgets here are
 * guards against runaway prompts, not billing, so a close, fast, dependency-free estimate is what is wanted.
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x3040 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af)) cjk++;
  }
  const rest = text.length - cjk;
  return cjk + Math.ceil(rest / 4);
}
