/** A score or difference as the gate's reasons print it. */
export const show = (value: number) => value.toFixed(4);

/** A difference with its sign (infinite bounds printed as such). */
export const signed = (value: number) =>
  Number.isFinite(value) ? `${value >= 0 ? "+" : ""}${show(value)}` : String(value);
