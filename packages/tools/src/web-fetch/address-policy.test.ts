import { describe, expect, it } from "vitest";
import { hostPort, isAllowedHost, isPrivateAddress } from "./address-policy.js";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "2002:c0a8:0101::1",
    "[::1]",
    "fe80::1%eth0",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "2002:0808:0808::1",
  ])("allows the public address %s", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("allowHosts", () => {
  it("matches host:port with default ports filled in, or a bare host for any port", () => {
    expect(hostPort(new URL("http://127.0.0.1/x"))).toBe("127.0.0.1:80");
    expect(hostPort(new URL("https://Example.com/x"))).toBe("example.com:443");
    expect(isAllowedHost(new URL("http://127.0.0.1:8080/a"), ["127.0.0.1:8080"])).toBe(true);
    expect(isAllowedHost(new URL("http://127.0.0.1:8081/a"), ["127.0.0.1:8080"])).toBe(false);
    expect(isAllowedHost(new URL("http://localhost:9/a"), ["localhost"])).toBe(true);
    expect(isAllowedHost(new URL("http://[::1]:9/a"), ["[::1]:9"])).toBe(true);
  });
});
