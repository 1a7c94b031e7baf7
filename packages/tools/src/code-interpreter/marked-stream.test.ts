import { describe, expect, it } from "vitest";
import { createCappedOutput } from "./capped-output.js";
import { MarkedStream } from "./marked-stream.js";

describe("MarkedStream", () => {
  const marker = Buffer.from("\0END:abc\0");

  it("ends the cell at the marker even when the marker is split across chunks", () => {
    const stream = new MarkedStream();
    const sink = createCappedOutput(1000);
    let ended = 0;
    stream.begin(marker, sink, () => ended++);
    for (const part of ["hello\0E", "ND:a", "bc", "\0after"]) stream.push(Buffer.from(part));
    expect(ended).toBe(1);
    expect(sink.text()).toBe("hello");
  });

  it("passes through text that only looks like the start of a marker", () => {
    const stream = new MarkedStream();
    const sink = createCappedOutput(1000);
    let ended = false;
    stream.begin(marker, sink, () => {
      ended = true;
    });
    stream.push(Buffer.from("a\0END:ab-not-it"));
    stream.flush();
    expect(ended).toBe(false);
    expect(sink.text()).toBe("a\0END:ab-not-it");
  });

  it("drops output that arrives when no cell is running", () => {
    const stream = new MarkedStream();
    stream.push(Buffer.from("stray"));
    const sink = createCappedOutput(1000);
    stream.begin(marker, sink, () => {});
    stream.push(Buffer.from("ok\0END:abc\0"));
    expect(sink.text()).toBe("ok");
  });
});
