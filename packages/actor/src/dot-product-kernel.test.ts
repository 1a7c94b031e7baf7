import { describe, expect, it } from "vitest";
import { createDotProductKernel } from "./dot-product-kernel.js";

function pseudoRandomMatrix(rows: number, dimensions: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: rows * dimensions }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff - 0.5;
  });
}

function reference(matrix: Float32Array, rows: number, dimensions: number, query: Float32Array): number[] {
  return Array.from({ length: rows }, (_, row) => {
    let sum = 0;
    for (let column = 0; column < dimensions; column++)
      sum += matrix[row * dimensions + column]! * query[column]!;
    return sum;
  });
}

describe("createDotProductKernel", () => {
  it("uses WebAssembly SIMD on this Node", () => {
    expect(createDotProductKernel(new Float32Array(8), 1, 8).implementation).toBe("wasm-simd");
  });

  for (const implementation of ["wasm-simd", "javascript"] as const) {
    for (const [rows, dimensions] of [
      [1, 1],
      [3, 7],
      [5, 8],
      [17, 33],
      [200, 256],
    ] as const) {
      it(`${implementation}: matches the plain sum for ${rows} x ${dimensions}`, () => {
        const matrix = pseudoRandomMatrix(rows, dimensions, rows * 31 + dimensions);
        const query = pseudoRandomMatrix(1, dimensions, 7);
        const kernel = createDotProductKernel(matrix, rows, dimensions, { implementation });
        const out = new Float64Array(rows);
        kernel.dotAll(query, out);
        // A second query reuses the kernel's buffers.
        const second = pseudoRandomMatrix(1, dimensions, 99);
        const out2 = new Float64Array(rows);
        kernel.dotAll(second, out2);
        const expected = reference(matrix, rows, dimensions, query);
        const expected2 = reference(matrix, rows, dimensions, second);
        for (let row = 0; row < rows; row++) {
          expect(out[row]).toBeCloseTo(expected[row]!, 4);
          expect(out2[row]).toBeCloseTo(expected2[row]!, 4);
        }
      });
    }
  }

  it("rejects a matrix of the wrong size", () => {
    expect(() => createDotProductKernel(new Float32Array(5), 2, 3)).toThrow(/5 values, expected 2 x 3/);
  });
});
