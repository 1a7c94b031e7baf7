/** The vector scaled to length 1 (itself when it already is, or is all zeros): cosines become dot products. */
export function unitVector(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
  const norm = Math.sqrt(sum);
  if (norm === 0 || Math.abs(norm - 1) < 1e-6) return vector;
  const out = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) out[index] = vector[index]! / norm;
  return out;
}
