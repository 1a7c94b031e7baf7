import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { generateMathInstances } from "./math.js";

// Every program the policy can write (each combination of pitfalls fallen into), run by real Python in one process.
const runner = `
import contextlib, io, json, sys
out = []
for program in json.load(sys.stdin):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(program, {"__name__": "__main__"})
    out.append(buffer.getvalue().strip())
print(json.dumps(out))
`;

describe("the policy's Python", () => {
  it("prints exactly what the sim computes, right and wrong versions alike", () => {
    const instances = generateMathInstances(21, "test", 21);
    const cases: { program: string; expected: string; label: string }[] = [];
    for (const instance of instances) {
      const ids = instance.family.pitfalls.map((p) => p.id);
      const combos: Set<string>[] = [new Set()];
      for (const id of ids) for (const combo of [...combos]) combos.push(new Set([...combo, id]));
      for (const fallen of combos) {
        cases.push({
          program: instance.family.code(instance.params, fallen),
          expected: instance.family.evaluate(instance.params, fallen),
          label: `${instance.family.id} [${[...fallen].join(",")}] ${instance.question}`,
        });
      }
    }
    const stdout = execFileSync("/usr/bin/python3", ["-c", runner], {
      input: JSON.stringify(cases.map((c) => c.program)),
      encoding: "utf8",
    });
    const printed = JSON.parse(stdout) as string[];
    cases.forEach((c, i) => {
      expect(printed[i], c.label).toBe(c.expected);
    });
    // The right program gives the answer; falling into an active pitfall changes it.
    for (const instance of instances) {
      expect(instance.family.evaluate(instance.params, new Set())).toBe(instance.answer);
      for (const pitfall of instance.activePitfalls) {
        expect(instance.family.evaluate(instance.params, new Set([pitfall.id]))).not.toBe(instance.answer);
      }
    }
  });
});
