import { describe, expect, it } from "vitest";
import { escapeHtml, html, raw } from "./html.js";
import { wordDiff } from "./word-diff.js";

describe("html", () => {
  it("escapes every interpolated string, in content and attributes", () => {
    const text = `<script>alert("x")</script> & 'q'`;
    expect(html`<p title="${text}">${text}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>',
    );
  });

  it("keeps nested html and raw markup, joins arrays and drops null, undefined and false", () => {
    const items = ["<a>", "b"].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}${null}${undefined}${false}${raw("<hr>")}${0}</ul>`.value).toBe(
      "<ul><li>&lt;a&gt;</li><li>b</li><hr>0</ul>",
    );
    expect(escapeHtml("a&b")).toBe("a&amp;b");
  });
});

describe("wordDiff", () => {
  it("marks the words a rewrite removed and added", () => {
    expect(
      wordDiff("When a fraction appears, reduce it first.", "When a fraction appears, never reduce it."),
    ).toEqual([
      { kind: "same", text: "When a fraction appears," },
      { kind: "added", text: "never" },
      { kind: "same", text: "reduce" },
      { kind: "removed", text: "it first." },
      { kind: "added", text: "it." },
    ]);
    expect(wordDiff("same text", "same text")).toEqual([{ kind: "same", text: "same text" }]);
    expect(wordDiff("", "new")).toEqual([{ kind: "added", text: "new" }]);
  });
});
