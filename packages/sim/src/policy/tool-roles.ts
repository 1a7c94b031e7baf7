import { isNumberArgument, isTextArgument, type ToolArgument, toolArguments } from "./tool-arguments.js";
import {
  type Idea,
  type ReadText,
  readIdea,
  readText,
  statedTogether,
  statesPhrase,
} from "./tool-description.js";

/**
 * Which of the offered tools the simulated policy takes for a code runner, a web search and a page reader, read as a
 * model reads them: from what each tool's description and JSON schema say it does (its name counts as a few more
 * words), never from a list of known names. A team's `py_exec(source)` described as running a Python program is a
 * code runner; a tool that explains Python without running it, runs SQL or shell, evaluates a formula or writes a
 * file is not, whatever it is called.
 */

/** An OpenAI chat tool's function part. */
export interface ToolSpec {
  name: string;
  description?: string | undefined;
  parameters?: unknown;
}

export interface RecognizedTool {
  name: string;
  /** The argument that carries the program, the query or the URL. */
  argument: string;
  /** Other arguments, filled as a model fills them from the schema (a "language" enum's Python, a default). */
  fixed: Record<string, unknown>;
}

export interface SearchToolRole extends RecognizedTool {
  /** The argument that asks for a number of results, and the number to ask for; null when there is none. */
  count: { argument: string; value: number } | null;
}

export interface ToolRoles {
  code: RecognizedTool | null;
  search: SearchToolRole | null;
  fetch: RecognizedTool | null;
}

// What the words say. Each idea is a pattern over one lowercased word.
const running: Idea =
  /^(run|runs|running|ran|execute|executes|executed|executing|execution|exec|eval|evaluate|evaluates|evaluating|interpret|interprets|interpreting|interpreter|repl|sandbox|sandboxed)$/;
const program: Idea =
  /^(python|python3|py|code|program|programs|script|scripts|snippet|snippets|source|src|cell|cells|statements)$/;
const python: Idea = /^(python|python3|py|cpython|ipython|jupyter)$/;
const printing: Idea = /^(stdout|output|outputs|prints|printed|print)$/;
const otherRunner: Idea =
  /^(sql|sqlite|postgres|postgresql|mysql|database|db|shell|bash|sh|zsh|powershell|cmd|terminal|command|commands|javascript|js|node|nodejs|typescript|ruby|java|php|perl|rust|golang|lua|excel|regex)$/;
const codeChores: Idea =
  /^(lint|lints|linter|linting|formatter|typecheck|typechecks|mypy|pylint|flake8|ruff|pytest|unittest|tests|benchmark|profiler|compiler|prettify|highlight|highlights)$/;
const expression: Idea =
  /^(expression|expressions|formula|formulas|equation|equations|arithmetic|calculator)$/;
const wholeProgram: Idea = /^(code|program|programs|script|scripts|snippet|snippets|statements|cell|cells)$/;
const writing: Idea = /^(write|writes|save|saves|store|stores|create|creates|append|appends)$/;
const file: Idea = /^(file|files|disk)$/;
const test: Idea = /^(test|unit)$/;
const suite: Idea = /^(suite|suites|tests)$/;

const searching: Idea =
  /^(search|searches|searching|searched|lookup|look|query|queries|google|find|finds|retrieve|retrieves)$/;
const theWeb: Idea =
  /^(web|internet|online|www|google|bing|duckduckgo|brave|tavily|searxng|wikipedia|engine)$/;
const webLike: Idea = /^(pages|sites|websites|articles|corpus|documents|news|sources|urls|links)$/;
const resultList: Idea = /^(results|hits|snippets|titles|matches|ranked)$/;
const elsewhere: Idea =
  /^(database|db|sql|table|tables|files|filesystem|folder|directory|email|emails|inbox|mail|orders|order|users|user|customers|customer|products|product|tickets|ticket|code|codebase|repository|repo|calendar|contacts|documentation|docs|memory|history|catalog|inventory|logs)$/;

const fetching: Idea =
  /^(fetch|fetches|fetching|get|gets|read|reads|reading|open|opens|download|downloads|browse|browses|visit|visits|load|loads|retrieve|retrieves|scrape|scrapes|crawl|crawls|view|views|extract|extracts)$/;
const page: Idea =
  /^(page|pages|webpage|webpages|url|urls|website|websites|site|html|link|links|web|http|https|article|uri)$/;
const notReading: Idea =
  /^(shorten|shortens|shortener|ping|pings|reachable|screenshot|screenshots|upload|uploads|submit|submits|qr|uptime|availability|post|posts)$/;

// Which argument is which, from its name and description.
const programArgument: Idea = /^(code|source|src|program|script|python|py|snippet|cell|body|statements)$/;
const notProgramName: Idea =
  /^(path|file|filename|filepath|dir|directory|url|uri|link|language|lang|stdin|timeout|env|environment|args|argv|arguments|packages|requirements|version|session|id|title|description|explanation|purpose|comment|name|mode)$/;
const notProgramText: Idea = /^(stdin|input|path|filename|filepath|file|language|timeout|url|seconds|argv)$/;
const queryName: Idea = /^(query|q|search|keywords|keyword|terms|term|question|text|phrase|topic|prompt)$/;
const queryText: Idea = /^(query|search|keywords|terms|look|find|what|topic)$/;
const notQueryName: Idea =
  /^(url|uri|link|href|page|count|num|limit|language|lang|region|country|locale|date|time|site|domain|format|safe|safesearch|id|offset|since|until|engine|find|selector)$/;
const notQueryText: Idea = /^(url|address|language|region|country|locale|date)$/;
const urlName: Idea = /^(url|uri|link|href|address|page|website|site|location|target|webpage)$/;
const urlText: Idea = /^(url|urls|uri|link|address|http|https|webpage)$/;
const notUrlName: Idea =
  /^(query|q|search|find|selector|text|pattern|keywords|phrase|term|terms|format|mode)$/;
const countName: Idea = /^(max|results|count|limit|k|n|num|top|size|number)$/;
const countText: Idea = /^(results|many|number|hits|count|maximum|max)$/;
const notCountName: Idea =
  /^(offset|page|timeout|year|years|days|age|time|seconds|date|start|skip|chars|characters|length)$/;

const wantedResults = 5;

interface ToolReading {
  spec: ToolSpec;
  description: ReadText;
  name: ReadText;
  arguments: ToolArgument[];
  /** The schema declares no properties: a model falls back on the usual argument names. */
  open: boolean;
}

function read(spec: ToolSpec): ToolReading {
  const args = toolArguments(spec.parameters);
  return {
    spec,
    description: readText(spec.description ?? ""),
    name: readText(spec.name),
    arguments: args,
    open: args.length === 0,
  };
}

const argumentText = (argument: ToolArgument) => readText(argument.description);
const argumentName = (argument: ToolArgument) => readText(argument.name);
const says = (text: ReadText, idea: Idea) => readIdea(text, idea).stated;

/** The best-scoring argument (ties: required first, then schema order); null when none scores above zero. */
function best(args: readonly ToolArgument[], score: (argument: ToolArgument) => number): ToolArgument | null {
  let chosen: ToolArgument | null = null;
  let top = 0;
  for (const argument of args) {
    const value = score(argument) + (argument.required ? 0.5 : 0);
    if (value > top) {
      top = value;
      chosen = argument;
    }
  }
  return top >= 1 ? chosen : null;
}

/** The one text argument a model would put its content in when nothing names it: the only required one, or the only one. */
function onlyTextArgument(args: readonly ToolArgument[], excluded: Idea): ToolArgument | null {
  const texts = args.filter((a) => isTextArgument(a) && !says(argumentName(a), excluded));
  const required = texts.filter((a) => a.required);
  if (required.length === 1) return required[0]!;
  if (required.length === 0 && texts.length === 1) return texts[0]!;
  return null;
}

function programArgumentOf(tool: ToolReading): ToolArgument | null {
  const texts = tool.arguments.filter(isTextArgument);
  const named = best(texts, (argument) => {
    const name = argumentName(argument);
    const text = argumentText(argument);
    if (says(name, notProgramName)) return 0;
    const stated =
      (says(name, programArgument) ? 2 : 0) + (says(text, program) ? 2 : 0) + (says(text, running) ? 1 : 0);
    return stated - (says(text, notProgramText) && !says(name, programArgument) ? 3 : 0);
  });
  return named ?? onlyTextArgument(tool.arguments, notProgramName);
}

function queryArgumentOf(tool: ToolReading): ToolArgument | null {
  const texts = tool.arguments.filter(isTextArgument);
  const named = best(texts, (argument) => {
    const name = argumentName(argument);
    if (says(name, notQueryName)) return 0;
    const text = argumentText(argument);
    return (
      (says(name, queryName) ? 2 : 0) + (says(text, queryText) ? 2 : 0) - (says(text, notQueryText) ? 3 : 0)
    );
  });
  return named ?? onlyTextArgument(tool.arguments, notQueryName);
}

function urlScore(argument: ToolArgument): number {
  if (!isTextArgument(argument) || says(argumentName(argument), notUrlName)) return 0;
  return (
    (says(argumentName(argument), urlName) ? 3 : 0) +
    (says(argumentText(argument), urlText) ? 2 : 0) +
    (argument.format === "uri" || argument.format === "url" ? 3 : 0)
  );
}

function countArgumentOf(tool: ToolReading): SearchToolRole["count"] {
  const chosen = best(tool.arguments.filter(isNumberArgument), (argument) => {
    const name = argumentName(argument);
    if (says(name, notCountName)) return 0;
    return (says(name, countName) ? 2 : 0) + (says(argumentText(argument), countText) ? 1 : 0);
  });
  if (!chosen) return null;
  let value = wantedResults;
  if (chosen.maximum !== null) value = Math.min(value, chosen.maximum);
  if (chosen.minimum !== null) value = Math.max(value, chosen.minimum);
  return { argument: chosen.name, value };
}

/** The other arguments a model fills: a language choice gets Python; a required argument with a default gets it. */
function fixedArguments(
  tool: ToolReading,
  main: string,
  exclude: readonly string[] = [],
): Record<string, unknown> {
  const fixed: Record<string, unknown> = {};
  for (const argument of tool.arguments) {
    if (argument.name === main || exclude.includes(argument.name)) continue;
    const pythonValue = argument.values?.find(
      (value) => typeof value === "string" && python.test(value.toLowerCase()),
    );
    if (pythonValue !== undefined) fixed[argument.name] = pythonValue;
    else if (argument.required && argument.defaultValue !== undefined)
      fixed[argument.name] = argument.defaultValue;
    else if (argument.required && argument.values && argument.values.length > 0)
      fixed[argument.name] = argument.values[0];
  }
  return fixed;
}

interface Candidate<T> {
  role: T;
  score: number;
}

function asCodeRunner(tool: ToolReading): Candidate<RecognizedTool> | null {
  const { description, name } = tool;
  // A description that denies running ("explains the code without running it") outweighs any name.
  if (readIdea(description, running).denied) return null;
  const argument = programArgumentOf(tool);
  if (!argument && !tool.open) return null;
  const argumentWords = argument ? readText(`${argument.name}. ${argument.description}`) : readText("");
  const runs = says(description, running) || says(name, running) || says(argumentWords, running);
  const programFromDescription = says(description, program);
  const programElsewhere = says(name, program) || says(argumentWords, program);
  if (!runs || !(programFromDescription || programElsewhere)) return null;
  // Running and a program only in separate sentences of the description ("saves code to a file; run it later"):
  // the tool's own action is not running a program.
  if (
    !programElsewhere &&
    !says(name, running) &&
    !says(argumentWords, running) &&
    !statedTogether(description, running, program)
  )
    return null;
  const speaksPython = says(description, python) || says(name, python) || says(argumentWords, python);
  if (!speaksPython && (says(description, otherRunner) || says(name, otherRunner))) return null;
  if (says(description, codeChores) || says(name, codeChores) || statesPhrase(description, test, suite))
    return null;
  // A calculator: it evaluates a formula, not a program that prints.
  const wholePrograms =
    says(description, wholeProgram) || says(name, wholeProgram) || says(argumentWords, wholeProgram);
  if (!wholePrograms && (says(description, expression) || says(name, expression))) return null;
  if (statedTogether(description, writing, file) && !statedTogether(description, running, program))
    return null;
  const score =
    (statedTogether(description, running, program) ? 3 : 0) +
    (speaksPython ? 2 : 0) +
    (says(description, printing) ? 1 : 0) +
    (says(name, running) ? 1 : 0) +
    (says(name, program) ? 1 : 0);
  const argumentName = argument?.name ?? "code";
  return {
    role: { name: tool.spec.name, argument: argumentName, fixed: fixedArguments(tool, argumentName) },
    score,
  };
}

function asSearch(tool: ToolReading): Candidate<SearchToolRole> | null {
  const { description, name } = tool;
  if (readIdea(description, searching).denied) return null;
  if (!says(description, searching) && !says(name, searching)) return null;
  const strongly = says(description, theWeb) || says(name, theWeb);
  const likely =
    says(description, webLike) ||
    says(description, resultList) ||
    says(name, webLike) ||
    says(name, resultList);
  if (!strongly && (!likely || says(description, elsewhere) || says(name, elsewhere))) return null;
  // A page reader may take a phrase to look for on the page; a search never needs a URL.
  if (tool.arguments.some((argument) => argument.required && urlScore(argument) > 0)) return null;
  const argument = queryArgumentOf(tool);
  if (!argument && !tool.open) return null;
  const queryName = argument?.name ?? "query";
  const count = tool.open ? { argument: "max_results", value: wantedResults } : countArgumentOf(tool);
  const score =
    (strongly ? 2 : 0) +
    (likely ? 1 : 0) +
    (says(description, resultList) ? 1 : 0) +
    (statedTogether(description, searching, theWeb) ? 2 : 0);
  return {
    role: {
      name: tool.spec.name,
      argument: queryName,
      fixed: fixedArguments(tool, queryName, count ? [count.argument] : []),
      count,
    },
    score,
  };
}

function asFetch(tool: ToolReading): Candidate<RecognizedTool> | null {
  const { description, name } = tool;
  if (readIdea(description, fetching).denied) return null;
  if (!says(description, fetching) && !says(name, fetching)) return null;
  if (says(description, notReading) || says(name, notReading)) return null;
  let argument = best(tool.arguments, urlScore);
  // An argument named for nothing in particular, on a tool described as reading the page at an address.
  if (!argument && says(description, urlText)) argument = onlyTextArgument(tool.arguments, notUrlName);
  if (!argument && !tool.open) return null;
  const argumentWords = argument ? readText(`${argument.name}. ${argument.description}`) : readText("");
  if (!says(description, page) && !says(name, page) && !says(argumentWords, page)) return null;
  const urlName = argument?.name ?? "url";
  const score =
    (statedTogether(description, fetching, page) ? 3 : 0) +
    (argument ? urlScore(argument) : 0) +
    (says(name, fetching) ? 1 : 0) +
    (says(name, page) ? 1 : 0);
  return { role: { name: tool.spec.name, argument: urlName, fixed: fixedArguments(tool, urlName) }, score };
}

function strongest<T extends { name: string }>(
  tools: readonly ToolReading[],
  recognize: (tool: ToolReading) => Candidate<T> | null,
  taken: Set<string>,
): T | null {
  let chosen: Candidate<T> | null = null;
  for (const tool of tools) {
    if (taken.has(tool.spec.name)) continue;
    const candidate = recognize(tool);
    if (candidate && (!chosen || candidate.score > chosen.score)) chosen = candidate;
  }
  if (chosen) taken.add(chosen.role.name);
  return chosen?.role ?? null;
}

// Every request of a run offers the same tools: read them once.
const cache = new Map<string, ToolRoles>();
const cacheSize = 64;

/** The code runner, web search and page reader among the offered tools; null for a role no tool plays. */
export function recognizeToolRoles(tools: readonly ToolSpec[]): ToolRoles {
  const key = JSON.stringify(
    tools.map((tool) => [tool.name, tool.description ?? null, tool.parameters ?? null]),
  );
  const cached = cache.get(key);
  if (cached) return cached;
  const readings = tools.map(read);
  const taken = new Set<string>();
  const code = strongest(readings, asCodeRunner, taken);
  const search = strongest(readings, asSearch, taken);
  const fetch = strongest(readings, asFetch, taken);
  const roles = { code, search, fetch };
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
  cache.set(key, roles);
  return roles;
}
