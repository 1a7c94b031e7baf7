/** A LaTeX expression rewritten for mathjs, with the free variables it uses. */
export interface MathjsExpression {
  expression: string;
  /** Free variables (mathjs symbol names); `e`, `i` and `pi` are constants, not variables. */
  symbols: string[];
}

type Token =
  | { type: "number"; value: string }
  | { type: "letter"; value: string }
  | { type: "command"; value: string }
  | { type: "char"; value: string };

const greek = new Set([
  "alpha",
  "beta",
  "gamma",
  "delta",
  "epsilon",
  "varepsilon",
  "zeta",
  "eta",
  "theta",
  "vartheta",
  "iota",
  "kappa",
  "lambda",
  "mu",
  "nu",
  "xi",
  "rho",
  "sigma",
  "tau",
  "upsilon",
  "phi",
  "varphi",
  "chi",
  "psi",
  "omega",
]);

// LaTeX function -> mathjs function. `\log` without a base is read as log10, as in most contest problems;
// both sides of a comparison are read the same way, so the choice only matters against a plain number.
const functions: Record<string, string> = {
  sin: "sin",
  cos: "cos",
  tan: "tan",
  sec: "sec",
  csc: "csc",
  cot: "cot",
  arcsin: "asin",
  arccos: "acos",
  arctan: "atan",
  sinh: "sinh",
  cosh: "cosh",
  tanh: "tanh",
  ln: "log",
  log: "log10",
  exp: "exp",
};

const operators = new Set(["+", "-", "*", "/", "!", ","]);
const closers: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

class Unsupported extends Error {}

function tokenize(latex: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < latex.length) {
    const rest = latex.slice(index);
    const char = latex[index]!;
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    const command = /^\\([a-zA-Z]+|.)/.exec(rest);
    if (command) {
      tokens.push({ type: "command", value: command[1]! });
      index += command[0].length;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(rest);
    if (number) {
      tokens.push({ type: "number", value: number[0].endsWith(".") ? number[0].slice(0, -1) : number[0] });
      index += number[0].length;
      continue;
    }
    if (/[a-zA-Z]/.test(char)) tokens.push({ type: "letter", value: char });
    else tokens.push({ type: "char", value: char });
    index++;
  }
  return tokens;
}

/**
 * Rewrites a LaTeX math expression (`\frac`, `\sqrt[n]{}`, `^{}`, `\binom`, trig and log functions, `|x|`, implicit
 * products) as a mathjs expression string, or null when it holds something that is not an expression (`=`, `\pm`,
 * an unknown command). Products are made explicit, since mathjs would read `x (x+1)` as a call to `x`. Every letter is
 * its own variable, as in LaTeX (`ab` is `a*b`), so no input can name a mathjs function.
 */
export function latexToMathjs(latex: string): MathjsExpression | null {
  const tokens = tokenize(latex);
  if (tokens.length === 0) return null;
  const symbols = new Set<string>();
  let position = 0;

  const peek = (): Token | undefined => tokens[position];
  const next = (): Token => {
    const token = tokens[position++];
    if (!token) throw new Unsupported("unexpected end");
    return token;
  };
  const isChar = (token: Token | undefined, value: string) => token?.type === "char" && token.value === value;

  /** Converts tokens up to the closing character (consumed), or to the end when closer is null. */
  const sequence = (closer: string | null): string => {
    const out: string[] = [];
    let lastWasOperand = false;
    let absOpen = false;
    const operand = (text: string) => {
      if (lastWasOperand) out.push("*");
      out.push(text);
      lastWasOperand = true;
    };
    while (position < tokens.length) {
      const token = peek()!;
      if (token.type === "char" && closer !== null && token.value === closer) {
        position++;
        if (absOpen) throw new Unsupported("unclosed |");
        return out.join(" ");
      }
      if (token.type === "char" && [")", "]", "}"].includes(token.value)) throw new Unsupported("unbalanced");
      if (token.type === "char" && token.value === "|") {
        position++;
        if (absOpen && lastWasOperand) {
          out.push(")");
          absOpen = false;
          lastWasOperand = true;
        } else if (!absOpen) {
          if (lastWasOperand) out.push("*");
          out.push("abs(");
          absOpen = true;
          lastWasOperand = false;
        } else throw new Unsupported("nested |");
        continue;
      }
      if (token.type === "char" && token.value === "^") {
        position++;
        if (!lastWasOperand) throw new Unsupported("^ without a base");
        out.push(`^ (${argument(false)})`);
        continue;
      }
      if (token.type === "command" && ["cdot", "times", "ast", "div"].includes(token.value)) {
        position++;
        out.push(token.value === "div" ? "/" : "*");
        lastWasOperand = false;
        continue;
      }
      if (token.type === "char" && operators.has(token.value)) {
        position++;
        out.push(token.value);
        // "5!" is still an operand; "+" and friends expect one.
        lastWasOperand = token.value === "!";
        continue;
      }
      operand(atom());
    }
    if (closer !== null) throw new Unsupported(`missing ${closer}`);
    if (absOpen) throw new Unsupported("unclosed |");
    return out.join(" ");
  };

  /** One operand: a number, a variable (with its subscript), a group, or a command with its arguments. */
  const atom = (): string => {
    const token = next();
    if (token.type === "number") return token.value;
    if (token.type === "letter") return variable(token.value);
    if (token.type === "char") {
      const closer = closers[token.value];
      if (closer) return `(${sequence(closer)})`;
      throw new Unsupported(`unexpected ${token.value}`);
    }
    return command(token.value);
  };

  const variable = (letter: string): string => {
    if (isChar(peek(), "_")) {
      position++;
      const subscript = tokens[position];
      let name: string;
      if (subscript?.type === "char" && subscript.value === "{") {
        position++;
        let text = "";
        for (let token = next(); !isChar(token, "}"); token = next()) {
          if (token.type !== "number" && token.type !== "letter") throw new Unsupported("complex subscript");
          text += token.value;
        }
        name = `${letter}_${text}`;
      } else if (subscript?.type === "number" || subscript?.type === "letter") {
        position++;
        name = `${letter}_${subscript.value}`;
      } else throw new Unsupported("bad subscript");
      symbols.add(name);
      return name;
    }
    if (letter === "e" || letter === "i") return letter;
    // Capital letters get a prefix so that none of them is a mathjs constant (E, LN2...).
    const name = letter === letter.toUpperCase() ? `v_${letter}` : letter;
    symbols.add(name);
    return name;
  };

  /**
   * A command or group argument: `{...}`, or a single token as LaTeX reads it (`\frac12` takes one digit each,
   * but `10^23` keeps the whole number, since models mean 10^{23} by it).
   */
  const argument = (singleDigit: boolean): string => {
    const token = peek();
    if (!token) throw new Unsupported("missing argument");
    if (isChar(token, "{")) {
      position++;
      return sequence("}");
    }
    if (isChar(token, "-") || isChar(token, "+")) {
      position++;
      return `${token.value}${argument(singleDigit)}`;
    }
    if (token.type === "number" && singleDigit && token.value.length > 1) {
      // Split "12" of \frac12 into "1" now and "2" for the next argument.
      tokens[position] = { type: "number", value: token.value.slice(1) };
      return token.value[0]!;
    }
    return atom();
  };

  const command = (name: string): string => {
    switch (name) {
      case "frac": {
        const numerator = argument(true);
        const denominator = argument(true);
        return `((${numerator}) / (${denominator}))`;
      }
      case "sqrt": {
        if (isChar(peek(), "[")) {
          position++;
          const index = sequence("]");
          return `nthRoot((${argument(false)}), (${index}))`;
        }
        return `sqrt(${argument(false)})`;
      }
      case "binom": {
        const n = argument(true);
        const k = argument(true);
        return `combinations(${n}, ${k})`;
      }
      case "pi":
        return "pi";
      case "infty":
        return "Infinity";
      case "{":
        return `(${sequenceUntilCommand("}")})`;
      default:
        break;
    }
    if (greek.has(name)) {
      const symbol = `g_${name}`;
      symbols.add(symbol);
      return symbol;
    }
    const fn = functions[name];
    if (fn) return functionCall(name, fn);
    throw new Unsupported(`\\${name}`);
  };

  /** `\{ ... \}` used as grouping inside an expression. */
  const sequenceUntilCommand = (closer: string): string => {
    const start = position;
    let depth = 0;
    for (; position < tokens.length; position++) {
      const token = tokens[position]!;
      if (token.type === "command" && token.value === "{") depth++;
      if (token.type === "command" && token.value === closer) {
        if (depth === 0) break;
        depth--;
      }
    }
    if (position >= tokens.length) throw new Unsupported("unclosed \\{");
    const inner = tokens.slice(start, position);
    position++;
    const converted = latexToMathjsTokens(inner);
    for (const symbol of converted.symbols) symbols.add(symbol);
    return converted.expression;
  };

  const functionCall = (name: string, fn: string): string => {
    let base: string | null = null;
    let power: string | null = null;
    for (let guard = 0; guard < 2; guard++) {
      if (name === "log" && base === null && isChar(peek(), "_")) {
        position++;
        base = argument(false);
      } else if (power === null && isChar(peek(), "^")) {
        position++;
        power = argument(false);
      }
    }
    let argumentText: string;
    const token = peek();
    if (isChar(token, "(") || isChar(token, "{")) {
      position++;
      argumentText = sequence(closers[(token as { value: string }).value]!);
    } else {
      // `\sin 2x`, `\ln 8`: the run of numbers, letters and constants that follows.
      const parts: string[] = [];
      while (position < tokens.length) {
        const current = peek()!;
        const simple =
          current.type === "number" ||
          current.type === "letter" ||
          (current.type === "command" && (current.value === "pi" || greek.has(current.value)));
        if (!simple) break;
        parts.push(atom());
      }
      if (parts.length === 0) throw new Unsupported(`\\${name} without an argument`);
      argumentText = parts.join(" * ");
    }
    const call = base === null ? `${fn}(${argumentText})` : `log(${argumentText}, ${base})`;
    return power === null ? call : `(${call}) ^ (${power})`;
  };

  try {
    const expression = sequence(null);
    return expression.trim() === "" ? null : { expression, symbols: [...symbols].sort() };
  } catch (error) {
    // Absurdly deep nesting overflows the stack: that is not an expression worth comparing either.
    if (error instanceof Unsupported || error instanceof RangeError) return null;
    throw error;
  }
}

function latexToMathjsTokens(tokens: Token[]): MathjsExpression {
  const latex = tokens
    .map((token) => (token.type === "command" ? `\\${token.value} ` : `${token.value} `))
    .join("");
  const converted = latexToMathjs(latex);
  if (!converted) throw new Unsupported("inner group");
  return converted;
}
