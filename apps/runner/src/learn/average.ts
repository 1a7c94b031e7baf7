/** The mean of some numbers; 0 for none (an empty batch or group scores 0, it does not fail the step). */
export function average(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}
