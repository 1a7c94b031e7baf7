/**
 * A counting task of the sim's math world and the summary an agent reports for it: one that counted the upper bound
 * (`inclusive`) or one that fell into the off-by-one pitfall (`range(lo, hi)`, marked as an error). Online-learning
 * tests play agents with it: the contrast between the two is what the sim critic learns the inclusive-bound lesson from.
 */
export function countingReport(index: number, inclusive: boolean): { task: string; summary: string } {
  const lo = 3 + (index % 7);
  const hi = 40 + index;
  const printed = 10 + (index % 5);
  return {
    task: `How many multiples of 3 are there from ${lo} to ${hi}, inclusive?`,
    summary: [
      `Step 1: Ran code: print(sum(1 for i in range(${lo}, ${inclusive ? `${hi} + 1` : hi}) if i % 3 == 0)) -> printed ${printed}`,
      `Step 2: ${inclusive ? "" : "ERROR - "}Gave the final answer ${printed}.`,
    ].join("\n"),
  };
}
