/**
 * How a customer of the simulated retail world opens a conversation: the reason for the call of their scenario,
 * told in the first person ("You received your order ..." -> "I received my order ..."). The user role speaks it;
 * the world recognises a conversation by it, as the math world recognises a problem by its text.
 */
export function customerOpening(reasonForCall: string): string {
  const swaps: [RegExp, string][] = [
    [/\bYou are\b/g, "I am"],
    [/\byou are\b/g, "I am"],
    [/\bYou're\b/g, "I'm"],
    [/\byou're\b/g, "I'm"],
    [/\bYou have\b/g, "I have"],
    [/\byou have\b/g, "I have"],
    [/\bYour\b/g, "My"],
    [/\byour\b/g, "my"],
    [/\byourself\b/g, "myself"],
    [/\bYou\b/g, "I"],
    [/\byou\b/g, "I"],
  ];
  let text = reasonForCall.trim().replace(/\s+/g, " ");
  for (const [pattern, replacement] of swaps) text = text.replace(pattern, replacement);
  return `Hi! ${text}`;
}

/** The key a conversation is recognised by: its opening, without case and spacing differences. */
export const openingKey = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
