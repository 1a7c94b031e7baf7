import type { Run } from "@tfgrpo/protocol";
import { expect, it } from "vitest";
import { onlineReportSection } from "./online-report-section.js";
import { renderOnlineSummary, summarizeOnlineSession } from "./online-summary.js";

it("shows the domain's no-report count as its own number, never among the failures", () => {
  const summary = summarizeOnlineSession({
    served: [
      { task: "a", success: true },
      { task: "b", success: false },
    ] as never,
    events: [],
    versions: [],
    runId: "run-1",
    head: 1,
    traffic: {
      domain: "math",
      served: 10,
      reported: 7,
      successes: 3,
      noReport: 2,
      awaiting: 1,
      compacted: 4,
      liveOutcomes: 3,
      byVersion: [],
    } as never,
  });
  expect(summary.traffic).toEqual({
    served: 10,
    reported: 7,
    successes: 3,
    noReport: 2,
    awaiting: 1,
    compacted: 4,
  });
  const text = renderOnlineSummary(summary);
  expect(text).toContain("served 2 tasks, 1 successes");
  expect(text).toContain(
    "domain traffic (every process): served 10, reported 7 (3 successes), no report 2 (not failures), awaiting a report 1; 4 compacted by retention",
  );
  const html = onlineReportSection({ kind: "online", summary } as unknown as Run);
  expect(html).toContain('<p id="online-traffic">domain traffic (every process): served 10, reported 7');
  // A summary stored before the count existed renders as before.
  const { traffic: _traffic, ...older } = summary;
  expect(renderOnlineSummary(older)).not.toContain("domain traffic");
});
