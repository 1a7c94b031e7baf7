import { BlockList, isIP } from "node:net";

/**
 * Addresses a fetch must not reach unless configured: private, loopback, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, reserved and documentation ranges, in IPv4 and IPv6.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandIpv6(lower);
  if (!groups) return undefined;
  const toIpv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const isNat64 =
    groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (isMapped || isNat64) return toIpv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return toIpv4(groups[1]!, groups[2]!);
  return undefined;
}

function expandIpv6(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? headGroups.length !== 8 : missing < 0) return undefined;
  const groups = [...headGroups, ...Array(tail === undefined ? 0 : missing).fill("0"), ...tailGroups].map(
    (group) => Number.parseInt(group, 16),
  );
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}

export function isPrivateAddress(address: string): boolean {
  const unbracketed = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(unbracketed);
  if (family === 4) return blocked.check(unbracketed, "ipv4");
  if (family === 6) {
    const ipv4 = embeddedIpv4(unbracketed);
    if (ipv4 !== undefined) return blocked.check(ipv4, "ipv4");
    return blocked.check(unbracketed, "ipv6");
  }
  // Not an IP address: the caller must resolve it first.
  return true;
}

/** `host:port` of a URL as allowHosts entries spell it (default ports filled in, IPv6 in brackets). */
export function hostPort(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname.toLowerCase()}:${port}`;
}

/** True when allowHosts lets this URL reach a private address: entries are `host:port`, or `host` for any port. */
export function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  const exact = hostPort(url);
  const host = url.hostname.toLowerCase();
  return allowHosts.some((entry) => {
    const normalized = entry.trim().toLowerCase();
    return normalized === exact || normalized === host;
  });
}
