/**
 * A tokenizer-free token estimate, good enough for budgeting prompts: about 4 characters per token for Latin text,
 * about one token per character for CJK and other non-ASCII text (the seeds and some libraries are Chinese).
 * It overestimates slightly rather than under, so a budget is not silently exceeded.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}
