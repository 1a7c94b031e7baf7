import { describe, expect, it } from "vitest";
import { createCappedOutput } from "./capped-output.js";

describe("createCappedOutput", () => {
  it("keeps everything under the budget", () => {
    const output = createCappedOutput(100);
    output.push(Buffer.from("hello "));
    output.push(Buffer.from("world"));
    expect(output.text()).toBe("hello world");
    expect(output.truncated).toBe(false);
    expect(output.totalBytes).toBe(11);
  });

  it("keeps the head and the tail with a marker counting what was dropped", () => {
    const output = createCappedOutput(10);
    for (const letter of "abcdefghijklmnopqrstuvwxyz") output.push(Buffer.from(letter));
    expect(output.truncated).toBe(true);
    expect(output.text()).toBe("abcdef\n[... 16 bytes truncated ...]\nwxyz");
  });

  it("handles single chunks much larger than the budget", () => {
    const output = createCappedOutput(10);
    output.push(Buffer.from("0123456789".repeat(1000)));
    expect(output.text()).toBe("012345\n[... 9990 bytes truncated ...]\n6789");
    expect(output.totalBytes).toBe(10_000);
  });
});
