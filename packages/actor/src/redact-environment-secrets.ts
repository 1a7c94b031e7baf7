const secretName = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;
const keyPatterns: Array<[RegExp, string]> = [
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, "$1-[REDACTED]"],
  [/(bearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi, "$1[REDACTED]"],
];

/**
 * A redactor for trajectories: removes the values of secret-looking environment variables (API keys, tokens) and
 * key-shaped strings. A trajectory holds model and tool text, and a model can echo whatever a tool printed, so
 * every string is scrubbed before it is recorded. The models package redacts its own errors the same way.
 */
export function createEnvironmentRedactor(
  environment: NodeJS.ProcessEnv = process.env,
): (text: string) => string {
  const secrets = Object.entries(environment)
    .filter(([name, value]) => secretName.test(name) && typeof value === "string" && value.length >= 8)
    .map(([, value]) => value as string)
    // Longest first, so a secret containing another is removed whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join("[REDACTED]");
    for (const [pattern, replacement] of keyPatterns) out = out.replace(pattern, replacement);
    return out;
  };
}
