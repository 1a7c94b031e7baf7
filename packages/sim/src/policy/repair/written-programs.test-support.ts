import type { RepairProgram } from "@tfgrpo/code-repair";
import { writtenProgram } from "./repair-attempt.test-support.js";

/**
 * Nine small defective programs written for the repair world's tests (plain Python, not from QuixBugs): one defect
 * each, of kinds the QuixBugs paper names. The agent has never been shown them in any other form.
 */

const doc = (lines: string[]) => `\n"""\n${lines.join("\n")}\n"""\n`;

export const writtenPrograms: Record<string, { kind: string; program: RepairProgram }> = {
  running_total: {
    kind: "wrong initial value",
    program: writtenProgram(
      "running_total",
      `def running_total(arr):
    total = 1
    out = []
    for x in arr:
        total += x
        out.append(total)
    return out
${doc(["Running Total", "", "Input:", "    arr: A list of numbers", "", "Output:", "    The running sums of arr, one per item", "", "Example:", "    >>> running_total([1, 2, 3])", "    [1, 3, 6]"])}`,
      [
        [[[1, 2, 3]], [1, 3, 6]],
        [[[]], []],
        [[[5]], [5]],
        [[[-1, 1, -1, 1]], [-1, 0, -1, 0]],
        [[[10, 20, 30, 40]], [10, 30, 60, 100]],
        [[[0, 0, 7]], [0, 0, 7]],
      ],
    ),
  },
  dedupe: {
    kind: "missing line",
    program: writtenProgram(
      "dedupe",
      `def dedupe(items):
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            out.append(item)
    return out
${doc(["Dedupe", "", "Input:", "    items: A list of hashable items", "", "Output:", "    The items of the list without repeats, in the order they first appear", "", "Example:", "    >>> dedupe([3, 1, 3, 2, 1])", "    [3, 1, 2]"])}`,
      [
        [[[1, 1, 2]], [1, 2]],
        [[[3, 1, 3, 2, 1]], [3, 1, 2]],
        [[[]], []],
        [[["a", "b", "a"]], ["a", "b"]],
        [[[5, 5, 5, 5]], [5]],
        [[[1, 2, 3]], [1, 2, 3]],
      ],
    ),
  },
  count_inversions: {
    kind: "comparison strictness",
    program: writtenProgram(
      "count_inversions",
      `def count_inversions(arr):
    count = 0
    for i in range(len(arr)):
        for j in range(i + 1, len(arr)):
            if arr[i] >= arr[j]:
                count += 1
    return count
${doc(["Count Inversions", "", "Input:", "    arr: A list of numbers", "", "Output:", "    How many pairs i < j have arr[i] > arr[j]", "", "Example:", "    >>> count_inversions([3, 2, 1])", "    3"])}`,
      [
        [[[2, 2, 1]], 2],
        [[[1, 2, 3]], 0],
        [[[3, 2, 1]], 3],
        [[[1, 1, 1]], 0],
        [[[4, 1, 3, 1]], 4],
        [[[]], 0],
      ],
    ),
  },
  digit_sum: {
    kind: "arithmetic operator",
    program: writtenProgram(
      "digit_sum",
      `def digit_sum(n):
    total = 0
    while n > 0:
        total += n % 10
        n = n / 10
    return total
${doc(["Digit Sum", "", "Input:", "    n: A non-negative integer", "", "Output:", "    The sum of the decimal digits of n", "", "Example:", "    >>> digit_sum(123)", "    6"])}`,
      [
        [[123], 6],
        [[0], 0],
        [[9], 9],
        [[1001], 2],
        [[98765], 35],
        [[50], 5],
      ],
    ),
  },
  longest_interval: {
    kind: "field dereference",
    program: writtenProgram(
      "longest_interval",
      `from collections import namedtuple
Interval = namedtuple('Interval', ['start', 'end'])

def longest_interval(pairs):
    intervals = [Interval(a, b) for a, b in pairs]
    best = intervals[0]
    for iv in intervals[1:]:
        if iv.end - iv.start > best.end - best.end:
            best = iv
    return [best.start, best.end]
${doc(["Longest Interval", "", "Input:", "    pairs: A non-empty list of [start, end] intervals", "", "Output:", "    The first longest interval, as [start, end]", "", "Example:", "    >>> longest_interval([[0, 2], [1, 5], [3, 4]])", "    [1, 5]"])}`,
      [
        [
          [
            [
              [0, 2],
              [1, 5],
              [3, 4],
            ],
          ],
          [1, 5],
        ],
        [
          [
            [
              [0, 10],
              [2, 3],
            ],
          ],
          [0, 10],
        ],
        [
          [
            [
              [5, 6],
              [0, 1],
              [2, 4],
            ],
          ],
          [2, 4],
        ],
        [[[[1, 2]]], [1, 2]],
        [
          [
            [
              [0, 1],
              [3, 9],
              [2, 8],
            ],
          ],
          [3, 9],
        ],
      ],
    ),
  },
  power: {
    kind: "swapped arguments",
    program: writtenProgram(
      "power",
      `def power(base, exp):
    if exp == 0:
        return 1
    half = power(exp // 2, base)
    if exp % 2 == 0:
        return half * half
    return half * half * base
${doc(["Power", "", "Input:", "    base: An integer", "    exp: A non-negative integer", "", "Output:", "    base to the power exp, by repeated squaring", "", "Example:", "    >>> power(2, 10)", "    1024"])}`,
      [
        [[2, 10], 1024],
        [[3, 0], 1],
        [[5, 3], 125],
        [[2, 1], 2],
        [[7, 2], 49],
        [[1, 9], 1],
      ],
    ),
  },
  argmax: {
    kind: "off-by-one bound",
    program: writtenProgram(
      "argmax",
      `def argmax(arr):
    best = 0
    for i in range(1, len(arr) - 1):
        if arr[i] > arr[best]:
            best = i
    return best
${doc(["Argmax", "", "Input:", "    arr: A non-empty list of numbers", "", "Output:", "    The index of the first largest item", "", "Example:", "    >>> argmax([1, 3, 2])", "    1"])}`,
      [
        [[[1, 2, 3]], 2],
        [[[1, 3, 2]], 1],
        [[[5]], 0],
        [[[0, 9, 1, 10]], 3],
        [[[4, 4, 4]], 0],
        [[[2, 8, 1, 8, 9]], 4],
      ],
    ),
  },
  nested_sum: {
    kind: "wrong variable (recursion on the same input)",
    program: writtenProgram(
      "nested_sum",
      `def nested_sum(items):
    total = 0
    for item in items:
        if isinstance(item, list):
            total += nested_sum(items)
        else:
            total += item
    return total
${doc(["Nested Sum", "", "Input:", "    items: A list of numbers and lists of the same kind", "", "Output:", "    The sum of every number at any depth", "", "Example:", "    >>> nested_sum([1, [2, 3]])", "    6"])}`,
      [
        [[[1, [2, 3]]], 6],
        [[[1, 2]], 3],
        [[[]], 0],
        [[[[1], [2, [3, 4]]]], 10],
        [[[[[5]]]], 5],
        [[[0, [0, [1]]]], 1],
      ],
    ),
  },
  count_changes: {
    kind: "missing line (a value carried to the next round)",
    program: writtenProgram(
      "count_changes",
      `def count_changes(values):
    changes = 0
    previous = values[0]
    for value in values[1:]:
        if value != previous:
            changes += 1
    return changes
${doc(["Count Changes", "", "Input:", "    values: A non-empty list", "", "Output:", "    How many times an item differs from the one before it", "", "Example:", "    >>> count_changes([1, 1, 2, 2, 3])", "    2"])}`,
      [
        [[[1, 1, 2, 2, 3]], 2],
        [[[4]], 0],
        [[[1, 2, 1]], 2],
        [[[5, 5, 5]], 0],
        [[[1, 2, 2]], 1],
        [[[3, 1, 3, 3]], 2],
      ],
    ),
  },
};
