/**
 * Units of measure as a reader knows them: how they are written, and how many of one make another. Used to tell
 * whether an answer kept a page's unit when the question asked for another one.
 */

interface UnitDefinition {
  name: string;
  dimension: "area" | "mass" | "time" | "length" | "volume";
  /** Size in the dimension's base unit (m², g, s, m, ml). */
  size: number;
  pattern: RegExp;
}

const units: readonly UnitDefinition[] = [
  {
    name: "km²",
    dimension: "area",
    size: 1e6,
    pattern: /^(?:km²|km2|sq\.? ?km|square kilomet(?:re|er)s?)/i,
  },
  { name: "hectares", dimension: "area", size: 1e4, pattern: /^(?:hectares?|ha\b)/i },
  { name: "m²", dimension: "area", size: 1, pattern: /^(?:m²|m2\b|square met(?:re|er)s?)/i },
  { name: "tonnes", dimension: "mass", size: 1e6, pattern: /^(?:tonnes?|metric tons?)/i },
  { name: "kg", dimension: "mass", size: 1e3, pattern: /^(?:kg\b|kilograms?|kilos?\b)/i },
  { name: "grams", dimension: "mass", size: 1, pattern: /^(?:grams?|g\b)/i },
  { name: "days", dimension: "time", size: 86_400, pattern: /^days?\b/i },
  { name: "hours", dimension: "time", size: 3600, pattern: /^(?:hours?|hrs?\b|h\b)/i },
  { name: "minutes", dimension: "time", size: 60, pattern: /^(?:minutes?|mins?\b)/i },
  { name: "seconds", dimension: "time", size: 1, pattern: /^(?:seconds?|secs?\b|s\b)/i },
  { name: "km", dimension: "length", size: 1000, pattern: /^(?:km\b|kilomet(?:re|er)s?)/i },
  { name: "metres", dimension: "length", size: 1, pattern: /^(?:met(?:re|er)s?|m\b)/i },
  { name: "cm", dimension: "length", size: 0.01, pattern: /^(?:cm\b|centimet(?:re|er)s?)/i },
  { name: "litres", dimension: "volume", size: 1000, pattern: /^(?:lit(?:re|er)s?|l\b)/i },
  { name: "ml", dimension: "volume", size: 1, pattern: /^(?:ml\b|millilit(?:re|er)s?)/i },
];

/** The canonical name of a unit written at the start of `text`, or null. */
export function unitAt(text: string): string | null {
  const trimmed = text.replace(/^\s+/, "");
  for (const unit of units) if (unit.pattern.test(trimmed)) return unit.name;
  return null;
}

/** How many `to` make one `from` (km² -> hectares: 100), or null when they measure different things. */
export function conversionFactor(from: string, to: string): number | null {
  const a = units.find((u) => u.name === from);
  const b = units.find((u) => u.name === to);
  if (!a || !b || a.dimension !== b.dimension) return null;
  return a.size / b.size;
}

/** The unit a question asks its answer in ("... in grams?", "How many minutes ..."), or null. */
export function askedUnit(question: string): string | null {
  const patterns = [/\bin ([a-z²]+)\s*[?.,]/gi, /\bhow many ([a-z²]+)\b/gi, /\bin ([a-z²]+)\b/gi];
  for (const pattern of patterns) {
    for (const m of question.matchAll(pattern)) {
      const unit = unitAt(m[1]!);
      if (unit) return unit;
    }
  }
  return null;
}

/** A number as a decimal value ("6,285" -> 6285), or null. */
export function numericValue(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, "").replace(/^\$/, "");
  if (!/^-?\d+(?:\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

export function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export interface Quantity {
  /** As written ("6,285"). */
  text: string;
  value: number;
  unit: string | null;
}

/** Numbers written in a text, with the unit that follows each one (if any). */
export function quantitiesIn(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(
    /(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.,])-?\d+(?:\.\d+)?(?![\d])/g,
  )) {
    const value = numericValue(m[0]);
    if (value === null) continue;
    out.push({
      text: m[0],
      value,
      unit: unitAt(text.slice(m.index + m[0].length, m.index + m[0].length + 24)),
    });
  }
  return out;
}
