/**
 * Dot products of one query against every row of an embedding matrix: the hot loop of retrieval.
 *
 * Plain JavaScript does about one multiply-add per nanosecond here, so 10,000 entries x 256 dimensions take ~4 ms
 * (and 1536 dimensions ~25 ms). A tiny WebAssembly module with 128-bit SIMD does four at a time. The module is
 * assembled below from named opcodes (no toolchain, no binary blob to trust); where SIMD is unavailable the
 * JavaScript loop is used, with the same results up to float rounding.
 */
export interface DotProductKernel {
  readonly rows: number;
  readonly dimensions: number;
  readonly implementation: "wasm-simd" | "javascript";
  /** out[row] = matrix[row] . query, for every row. */
  dotAll(query: Float32Array, out: Float64Array): void;
}

export function createDotProductKernel(
  matrix: Float32Array,
  rows: number,
  dimensions: number,
  options: { implementation?: "wasm-simd" | "javascript" } = {},
): DotProductKernel {
  if (matrix.length !== rows * dimensions) {
    throw new RangeError(`matrix has ${matrix.length} values, expected ${rows} x ${dimensions}`);
  }
  const wasm =
    options.implementation !== "javascript" && rows > 0 && dimensions > 0 ? simdModule() : undefined;
  if (!wasm || !WebAssembly) return javascriptKernel(matrix, rows, dimensions);

  // Rows are padded to a multiple of 8 floats (two 16-byte vectors per loop turn), so no tail loop is needed.
  const stride = Math.ceil(dimensions / 8) * 8;
  const matrixBytes = rows * stride * 4;
  const queryOffset = matrixBytes;
  const outOffset = queryOffset + stride * 4;
  const totalBytes = outOffset + rows * 4;
  const memory = new WebAssembly.Memory({ initial: Math.ceil(totalBytes / 65_536) });
  const instance = new WebAssembly.Instance(wasm, { env: { memory } });
  const dots = instance.exports.dots as (m: number, q: number, out: number, n: number, d: number) => void;
  const heap = new Float32Array(memory.buffer);
  for (let row = 0; row < rows; row++) {
    heap.set(matrix.subarray(row * dimensions, (row + 1) * dimensions), row * stride);
  }
  const query = heap.subarray(queryOffset / 4, queryOffset / 4 + stride);
  const results = heap.subarray(outOffset / 4, outOffset / 4 + rows);
  return {
    rows,
    dimensions,
    implementation: "wasm-simd",
    dotAll(vector, out) {
      query.set(vector);
      dots(0, queryOffset, outOffset, rows, stride * 4);
      for (let row = 0; row < rows; row++) out[row] = results[row]!;
    },
  };
}

function javascriptKernel(matrix: Float32Array, rows: number, dimensions: number): DotProductKernel {
  return {
    rows,
    dimensions,
    implementation: "javascript",
    dotAll(query, out) {
      for (let row = 0, offset = 0; row < rows; row++, offset += dimensions) {
        // Four accumulators let the CPU overlap the multiply-adds.
        let a = 0;
        let b = 0;
        let c = 0;
        let d = 0;
        let column = 0;
        for (; column + 3 < dimensions; column += 4) {
          a += matrix[offset + column]! * query[column]!;
          b += matrix[offset + column + 1]! * query[column + 1]!;
          c += matrix[offset + column + 2]! * query[column + 2]!;
          d += matrix[offset + column + 3]! * query[column + 3]!;
        }
        for (; column < dimensions; column++) a += matrix[offset + column]! * query[column]!;
        out[row] = a + b + c + d;
      }
    },
  };
}

// The few WebAssembly APIs used here (@types/node 20 does not declare the global, and the DOM lib is not loaded).
interface WasmModule {
  readonly kind?: "module";
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (
    module: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
}
const WebAssembly = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

function simdModule(): WasmModule | undefined {
  if (compiled === undefined) {
    const bytes = assembleDotsModule();
    compiled = WebAssembly?.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  return compiled ?? undefined;
}

// --- the module ------------------------------------------------------------------------------------------------

const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  f32Store: 0x38,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Shl: 0x74,
  f32Add: 0x92,
  simd: 0xfd,
} as const;
const simd = { v128Load: 0x00, v128Const: 0x0c, f32x4ExtractLane: 0x1f, f32x4Add: 0xe4, f32x4Mul: 0xe6 };
const type = { i32: 0x7f, v128: 0x7b, func: 0x60, void: 0x40 };

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function name(text: string): number[] {
  const bytes = [...Buffer.from(text, "utf8")];
  return [...uleb(bytes.length), ...bytes];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

/**
 * (func $dots (param $m i32) (param $q i32) (param $out i32) (param $n i32) (param $dBytes i32)
 *   for each of $n rows starting at $m (each $dBytes long, a multiple of 32):
 *     out[row] = sum over 16-byte chunks of f32x4.mul(row chunk, query chunk), with two accumulators)
 */
function assembleDotsModule(): Uint8Array {
  const [m, q, out, n, dBytes, row, r, c, acc0, acc1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const get = (local: number) => [op.localGet, local];
  const set = (local: number) => [op.localSet, local];
  const tee = (local: number) => [op.localTee, local];
  const simdOp = (code: number) => [op.simd, ...uleb(code)];
  const load = (offset: number) => [...simdOp(simd.v128Load), 4, ...uleb(offset)];
  const zero = [...simdOp(simd.v128Const), ...new Array(16).fill(0)];
  const lane = (index: number) => [...simdOp(simd.f32x4ExtractLane), index];
  const accumulate = (accumulator: number, offset: number) => [
    ...get(accumulator),
    ...get(row),
    ...get(c),
    op.i32Add,
    ...load(offset),
    ...get(q),
    ...get(c),
    op.i32Add,
    ...load(offset),
    ...simdOp(simd.f32x4Mul),
    ...simdOp(simd.f32x4Add),
    ...set(accumulator),
  ];
  const body = [
    // locals: $row $r $c (i32), $acc0 $acc1 (v128)
    2,
    3,
    type.i32,
    2,
    type.v128,
    ...get(m),
    ...set(row),
    op.i32Const,
    0,
    ...set(r),
    op.block,
    type.void,
    ...get(n),
    op.i32Eqz,
    op.brIf,
    0,
    op.loop,
    type.void,
    ...zero,
    ...set(acc0),
    ...zero,
    ...set(acc1),
    op.i32Const,
    0,
    ...set(c),
    op.loop,
    type.void,
    ...accumulate(acc0, 0),
    ...accumulate(acc1, 16),
    ...get(c),
    op.i32Const,
    32,
    op.i32Add,
    ...tee(c),
    ...get(dBytes),
    op.i32LtU,
    op.brIf,
    0,
    op.end,
    // out[r] = horizontal sum of acc0 + acc1
    ...get(out),
    ...get(r),
    op.i32Const,
    2,
    op.i32Shl,
    op.i32Add,
    ...get(acc0),
    ...get(acc1),
    ...simdOp(simd.f32x4Add),
    ...tee(acc0),
    ...lane(0),
    ...get(acc0),
    ...lane(1),
    op.f32Add,
    ...get(acc0),
    ...lane(2),
    op.f32Add,
    ...get(acc0),
    ...lane(3),
    op.f32Add,
    op.f32Store,
    2,
    0,
    ...get(row),
    ...get(dBytes),
    op.i32Add,
    ...set(row),
    ...get(r),
    op.i32Const,
    1,
    op.i32Add,
    ...tee(r),
    ...get(n),
    op.i32LtU,
    op.brIf,
    0,
    op.end,
    op.end,
    op.end,
  ];
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, type.func, 5, type.i32, type.i32, type.i32, type.i32, type.i32, 0]),
    ...section(2, [1, ...name("env"), ...name("memory"), 0x02, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name("dots"), 0x00, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ];
  return Uint8Array.from(bytes);
}
