/**
 * Ten small defective programs written for the simulated repair world's held-apart check (SIMULATED world; the
 * programs are plain Python, not from QuixBugs). They were written and committed before the world was measured on
 * them, and the world is not tuned on them: `pnpm --filter @tfgrpo/sim bench:repair-world --unseen` reports how the
 * agent does on them, once. Each has a defect on one line, of a kind the QuixBugs paper names (a comparison, a missing
 * line after a loop, an arithmetic operator, a wrong variable, a missing final append, an off-by-one bound, a wrong
 * constant, an operator, a field); some are of a shape the agent's edit finders do not cover.
 */
export interface WrittenProgramSpec {
  name: string;
  /** The defect's kind, as its author names it (for the report only: the agent never reads it). */
  kind: string;
  source: string;
  cases: unknown[];
}

const doc = (lines: string[]) => `\n"""\n${lines.join("\n")}\n"""\n`;

export const unseenPrograms: WrittenProgramSpec[] = [
  {
    name: "second_smallest",
    kind: "comparison reversed",
    source: `def second_smallest(arr):
    first = second = float('inf')
    for x in arr:
        if x < first:
            second = first
            first = x
        elif x > second and x != first:
            second = x
    return second
${doc(["Second Smallest", "", "Input:", "    arr: A list of at least two numbers", "", "Output:", "    The second smallest distinct value of arr", "", "Example:", "    >>> second_smallest([3, 1, 2])", "    2"])}`,
    cases: [
      [[[3, 1, 2]], 2],
      [[[5, 4, 3, 2, 1]], 2],
      [[[1, 2, 3, 4]], 2],
      [[[2, 2, 3]], 3],
      [[[7, 1, 1, 4]], 4],
      [[[10, 20]], 20],
    ],
  },
  {
    name: "merge_sorted",
    kind: "missing line after a loop",
    source: `def merge_sorted(a, b):
    i = j = 0
    out = []
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    return out
${doc(["Merge Sorted", "", "Input:", "    a: A sorted list", "    b: A sorted list", "", "Output:", "    One sorted list of the items of a and b", "", "Example:", "    >>> merge_sorted([1, 3, 5], [2, 4, 6])", "    [1, 2, 3, 4, 5, 6]"])}`,
    cases: [
      [
        [
          [1, 3, 5],
          [2, 4, 6],
        ],
        [1, 2, 3, 4, 5, 6],
      ],
      [
        [[], [1, 2]],
        [1, 2],
      ],
      [
        [[1, 2], []],
        [1, 2],
      ],
      [
        [[1, 2, 9], [3]],
        [1, 2, 3, 9],
      ],
      [
        [[5], [1, 2, 3]],
        [1, 2, 3, 5],
      ],
      [
        [[1], [1]],
        [1, 1],
      ],
    ],
  },
  {
    name: "collatz_steps",
    kind: "arithmetic operator",
    source: `def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n - 1
        steps += 1
    return steps
${doc(["Collatz Steps", "", "Input:", "    n: A positive integer", "", "Output:", "    How many steps of the Collatz map (halve an even n, else 3n + 1) take n to 1", "", "Example:", "    >>> collatz_steps(6)", "    8"])}`,
    cases: [
      [[1], 0],
      [[2], 1],
      [[3], 7],
      [[6], 8],
      [[5], 5],
      [[7], 16],
      [[27], 111],
    ],
  },
  {
    name: "transpose",
    kind: "wrong variable",
    source: `def transpose(matrix):
    rows = len(matrix)
    cols = len(matrix[0])
    return [[matrix[r][c] for r in range(rows)] for c in range(rows)]
${doc(["Transpose", "", "Input:", "    matrix: A non-empty list of rows of equal length", "", "Output:", "    The matrix with rows and columns exchanged", "", "Example:", "    >>> transpose([[1, 2, 3], [4, 5, 6]])", "    [[1, 4], [2, 5], [3, 6]]"])}`,
    cases: [
      [
        [
          [
            [1, 2],
            [3, 4],
          ],
        ],
        [
          [1, 3],
          [2, 4],
        ],
      ],
      [[[[1, 2, 3]]], [[1], [2], [3]]],
      [[[[1], [2], [3]]], [[1, 2, 3]]],
      [
        [
          [
            [1, 2, 3],
            [4, 5, 6],
          ],
        ],
        [
          [1, 4],
          [2, 5],
          [3, 6],
        ],
      ],
      [[[[7]]], [[7]]],
    ],
  },
  {
    name: "run_length",
    kind: "missing final append",
    source: `def run_length(text):
    runs = []
    current = text[0]
    count = 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            runs.append([current, count])
            current = ch
            count = 1
    return runs
${doc(["Run Length", "", "Input:", "    text: A non-empty string", "", "Output:", "    The runs of equal characters of text, as [character, length] pairs in order", "", "Example:", "    >>> run_length('aab')", "    [['a', 2], ['b', 1]]"])}`,
    cases: [
      [
        ["aab"],
        [
          ["a", 2],
          ["b", 1],
        ],
      ],
      [["a"], [["a", 1]]],
      [
        ["abc"],
        [
          ["a", 1],
          ["b", 1],
          ["c", 1],
        ],
      ],
      [
        ["aaabba"],
        [
          ["a", 3],
          ["b", 2],
          ["a", 1],
        ],
      ],
      [["zzzz"], [["z", 4]]],
      [
        ["abba"],
        [
          ["a", 1],
          ["b", 2],
          ["a", 1],
        ],
      ],
    ],
  },
  {
    name: "find_peak",
    kind: "off-by-one bound",
    source: `def find_peak(arr):
    for i in range(1, len(arr)):
        if arr[i - 1] < arr[i] > arr[i + 1]:
            return i
    return -1
${doc(["Find Peak", "", "Input:", "    arr: A list of numbers", "", "Output:", "    The first index i with arr[i - 1] < arr[i] > arr[i + 1], or -1 when there is none", "", "Example:", "    >>> find_peak([1, 3, 2])", "    1"])}`,
    cases: [
      [[[1, 3, 2]], 1],
      [[[1, 2, 3]], -1],
      [[[1, 2, 1, 3, 1]], 1],
      [[[3, 2, 1]], -1],
      [[[1, 2]], -1],
      [[[0, 1, 2, 5, 2]], 3],
    ],
  },
  {
    name: "is_sorted",
    kind: "wrong constant returned",
    source: `def is_sorted(arr):
    for i in range(len(arr) - 1):
        if arr[i] > arr[i + 1]:
            return False
    return False
${doc(["Is Sorted", "", "Input:", "    arr: A list of numbers", "", "Output:", "    Whether arr is in non-decreasing order", "", "Example:", "    >>> is_sorted([1, 2, 3])", "    True"])}`,
    cases: [
      [[[3, 1]], false],
      [[[1, 2, 3]], true],
      [[[]], true],
      [[[2, 2]], true],
      [[[1, 3, 2]], false],
      [[[5]], true],
    ],
  },
  {
    name: "average",
    kind: "arithmetic operator",
    source: `def average(arr):
    if not arr:
        return 0
    return sum(arr) // len(arr)
${doc(["Average", "", "Input:", "    arr: A list of numbers", "", "Output:", "    The mean of arr, 0 for an empty list", "", "Example:", "    >>> average([1, 2])", "    1.5"])}`,
    cases: [
      [[[1, 2]], 1.5],
      [[[]], 0],
      [[[4]], 4.0],
      [[[1, 2, 3, 4]], 2.5],
      [[[3, 3, 4]], 3.3333333333333335],
      [[[10, 0]], 5.0],
    ],
  },
  {
    name: "bounding_box",
    kind: "field dereference",
    source: `from collections import namedtuple
Point = namedtuple('Point', ['x', 'y'])

def bounding_box(pairs):
    points = [Point(a, b) for a, b in pairs]
    left = min(p.x for p in points)
    right = max(p.x for p in points)
    bottom = min(p.y for p in points)
    top = max(p.x for p in points)
    return [left, bottom, right, top]
${doc(["Bounding Box", "", "Input:", "    pairs: A non-empty list of [x, y] points", "", "Output:", "    [left, bottom, right, top] of the smallest axis-aligned box holding every point", "", "Example:", "    >>> bounding_box([[0, 0], [2, 3]])", "    [0, 0, 2, 3]"])}`,
    cases: [
      [
        [
          [
            [0, 0],
            [2, 3],
          ],
        ],
        [0, 0, 2, 3],
      ],
      [[[[1, 1]]], [1, 1, 1, 1]],
      [
        [
          [
            [0, 5],
            [4, 1],
            [2, 2],
          ],
        ],
        [0, 1, 4, 5],
      ],
      [
        [
          [
            [-1, -1],
            [1, 1],
          ],
        ],
        [-1, -1, 1, 1],
      ],
      [
        [
          [
            [3, 0],
            [0, 7],
          ],
        ],
        [0, 0, 3, 7],
      ],
    ],
  },
  {
    name: "slope",
    kind: "swapped operands",
    source: `def slope(p, q):
    rise = q[1] - p[1]
    run = p[0] - q[0]
    return rise / run
${doc(["Slope", "", "Input:", "    p: A point [x, y]", "    q: A point [x, y] with another x than p", "", "Output:", "    The slope of the line through p and q", "", "Example:", "    >>> slope([0, 0], [1, 2])", "    2.0"])}`,
    cases: [
      [
        [
          [0, 0],
          [1, 2],
        ],
        2.0,
      ],
      [
        [
          [1, 1],
          [3, 2],
        ],
        0.5,
      ],
      [
        [
          [0, 0],
          [2, -2],
        ],
        -1.0,
      ],
      [
        [
          [1, 5],
          [2, 5],
        ],
        0.0,
      ],
      [
        [
          [-1, 0],
          [1, 4],
        ],
        2.0,
      ],
      [
        [
          [0, 0],
          [4, 1],
        ],
        0.25,
      ],
    ],
  },
];
