import { TfgrpoError } from "@tfgrpo/protocol";

const allowed = /^[0-9+\-*/(). ]*$/;

/**
 * τ²'s `calculate`: digits, `+ - * / ( ) .` and spaces (so `**` and `//` too, as Python reads them), the result
 * rounded to 2 decimals and printed as Python prints a float ("10.0", "8276.23"). A small parser, never eval.
 */
export function calculate(expression: string): string {
  if (!allowed.test(expression)) throw new TfgrpoError("tool_error", "Invalid characters in expression");
  const tokens = expression.match(/\*\*|\/\/|\d*\.\d+|\d+\.?|[+\-*/()]/g) ?? [];
  if (tokens.join("") !== expression.replace(/ /g, "")) {
    throw new TfgrpoError("tool_error", "invalid syntax");
  }
  let at = 0;
  const peek = () => tokens[at];
  const fail = (): never => {
    throw new TfgrpoError("tool_error", "invalid syntax");
  };
  // Python's grammar: sum > term > unary > power (power binds tighter than a unary minus on its left).
  const sum = (): number => {
    let value = term();
    while (peek() === "+" || peek() === "-") value = tokens[at++] === "+" ? value + term() : value - term();
    return value;
  };
  const term = (): number => {
    let value = unary();
    while (peek() === "*" || peek() === "/" || peek() === "//") {
      const op = tokens[at++];
      const right = unary();
      if (op === "*") value *= right;
      else if (right === 0) throw new TfgrpoError("tool_error", "division by zero");
      else value = op === "/" ? value / right : Math.floor(value / right);
    }
    return value;
  };
  const unary = (): number => {
    if (peek() === "-") {
      at++;
      return -unary();
    }
    if (peek() === "+") {
      at++;
      return unary();
    }
    return power();
  };
  const power = (): number => {
    const base = atom();
    if (peek() === "**") {
      at++;
      return base ** unary();
    }
    return base;
  };
  const atom = (): number => {
    const token = tokens[at++];
    if (token === undefined) return fail();
    if (token === "(") {
      const value = sum();
      if (tokens[at++] !== ")") fail();
      return value;
    }
    if (!/^\d|^\./.test(token)) return fail();
    return Number(token);
  };
  const value = sum();
  if (at !== tokens.length) fail();
  return pythonFloat(roundHalfEven2(value));
}

/** Python's round(x, 2): the exact binary value decides, and an exact half goes to the even neighbour. */
function roundHalfEven2(value: number): number {
  const scaled = value * 100;
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled) && scaled / 100 === value) {
    const floor = Math.floor(scaled);
    return (floor % 2 === 0 ? floor : floor + 1) / 100;
  }
  return Number(value.toFixed(2));
}

function pythonFloat(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value);
}
