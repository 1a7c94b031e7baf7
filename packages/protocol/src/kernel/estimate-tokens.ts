/**
 * The one tokenizer-free token estimate of the product, for budgeting prompts (retrieval's experience block, the
 * curator's prompt chunks and active budget): about 4 characters per token for ASCII text, one token per character
 * for CJK and any other non-ASCII text (the seeds and some libraries are Chinese). Counting every non-ASCII
 * character as a token overestimates accented Latin text slightly rather than under, so a budget is never silently
 * exceeded. (The sim server's usage numbers use its own simpler count, which is part of the simulated world.)
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
