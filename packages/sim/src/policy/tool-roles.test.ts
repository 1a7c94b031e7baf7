import { describe, expect, it } from "vitest";
import { recognizeToolRoles, type ToolSpec } from "./tool-roles.js";

/**
 * Tool specs written in many styles: tfgrpo's own, LangChain's community tools, a team's terse one-liners, schemas
 * without descriptions, and adversarial ones that mention Python, code or the web without doing what is needed.
 */
const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const text = (description?: string) => ({ type: "string", ...(description ? { description } : {}) });

// tfgrpo's own tools, as packages/tools describes them.
const codeInterpreter: ToolSpec = {
  name: "code_interpreter",
  description:
    "Run Python 3 code in a fresh sandbox and get its output as JSON (stdout, stderr, exitCode, killed). " +
    "Nothing persists between calls. sympy, numpy and mpmath are installed; there is no network.",
  parameters: object({
    code: text(
      "Python 3 code to run. Print what you need to see; the value of a final expression is printed too.",
    ),
  }),
};
const webSearch: ToolSpec = {
  name: "web_search",
  description:
    "Search the web. Returns a numbered list of results with title, URL and a snippet; read a result with web_fetch.",
  parameters: object(
    {
      query: text("What to search for: a few precise keywords work best"),
      max_results: {
        type: "integer",
        minimum: 1,
        maximum: 10,
        description: "How many results to return (1-10, default 5)",
      },
    },
    ["query"],
  ),
};
const webFetch: ToolSpec = {
  name: "web_fetch",
  description:
    'Read a web page as Markdown. Give "find" to get only the paragraphs around a phrase on a long page.',
  parameters: object(
    {
      url: text("The http(s) URL of the page to read"),
      find: text("A phrase to look for: only the paragraphs around its occurrences are returned"),
    },
    ["url"],
  ),
};

const codeRunners: [string, ToolSpec, string, Record<string, unknown>?][] = [
  ["tfgrpo's code_interpreter", codeInterpreter, "code"],
  [
    "a team's one-liner with its own argument name",
    {
      name: "py_exec",
      description: "Runs a Python program and returns what it prints.",
      parameters: object({ source: text() }),
    },
    "source",
  ],
  [
    "no description: the name and the schema are all there is",
    { name: "run_python", parameters: object({ src: { type: "string" } }) },
    "src",
  ],
  [
    "no description and no properties: the usual argument name",
    { name: "code_interpreter", parameters: { type: "object" } },
    "code",
  ],
  [
    "LangChain's Python REPL (single `input`, 'a Python shell')",
    {
      name: "python_repl",
      description:
        "A Python shell. Use this to execute python commands. Input should be a valid python command. " +
        "If you want to see the output of a value, you should print it out with `print(...)`.",
      parameters: object({ input: text() }),
    },
    "input",
  ],
  [
    "a multi-language runner: the language enum gets Python",
    {
      name: "execute_code",
      description: "Execute code in an isolated container. Supports javascript and python.",
      parameters: object({
        language: { type: "string", enum: ["javascript", "python"] },
        code: text("The source to execute"),
      }),
    },
    "code",
    { language: "python" },
  ],
  [
    "camelCase names, a JSON result described, a timeout beside the script",
    {
      name: "runPythonScript",
      description: "Executes the given script with CPython 3.11 and returns {stdout, stderr, returncode}.",
      parameters: object({ timeoutSeconds: { type: "number" }, script: text() }, ["script"]),
    },
    "script",
  ],
  [
    "a vague name, the schema says it all",
    {
      name: "tool_1",
      description: "",
      parameters: object({
        stdin: text("Text passed to the program on standard input"),
        payload: text("The Python program to execute; print the values you need"),
      }),
    },
    "payload",
  ],
  [
    "a sandbox described by what comes back",
    {
      name: "sandbox",
      description: "Python sandbox: give it a program and get back everything it printed to stdout.",
      parameters: object({ program: text() }),
    },
    "program",
  ],
  [
    "a nullable argument (anyOf with null)",
    {
      name: "exec_py",
      description: "Evaluate Python code and return the output.",
      parameters: object({ cell: { anyOf: [{ type: "string" }, { type: "null" }] } }),
    },
    "cell",
  ],
];

const notCodeRunners: [string, ToolSpec][] = [
  [
    "explains Python without running it",
    {
      name: "explain_python",
      description: "Explains what a piece of Python code does, line by line. It does not run the code.",
      parameters: object({ code: text("The Python code to explain") }),
    },
  ],
  [
    "named like a runner, described as not running",
    {
      name: "python_runner",
      description: "Describes Python code in plain English instead of executing it.",
      parameters: object({ code: text() }),
    },
  ],
  [
    "a calculator",
    {
      name: "calculator",
      description: "Evaluates an arithmetic expression like 2*(3+4) and returns the result.",
      parameters: object({ expression: text() }),
    },
  ],
  [
    "a Python-flavoured calculator: one expression through eval()",
    {
      name: "py_eval",
      description: "Evaluates a single Python expression with eval() and returns its value.",
      parameters: object({ expr: text() }),
    },
  ],
  [
    "a file writer",
    {
      name: "write_file",
      description: "Writes text (for example Python code) to a file in the workspace.",
      parameters: object({ path: text(), content: text() }),
    },
  ],
  [
    "saves a script to run later",
    {
      name: "save_script",
      description: "Saves a Python script to disk; run it later with the runner tool.",
      parameters: object({ filename: text(), code: text() }),
    },
  ],
  [
    "sends an email",
    {
      name: "send_email",
      description: "Sends an email to a recipient.",
      parameters: object({ to: text(), subject: text(), body: text() }),
    },
  ],
  [
    "runs SQL",
    {
      name: "run_sql",
      description: "Runs a SQL query against the analytics database and returns the rows.",
      parameters: object({ query: text() }),
    },
  ],
  [
    "runs shell commands",
    {
      name: "shell",
      description: "Executes a shell command and returns its stdout and stderr.",
      parameters: object({ command: text() }),
    },
  ],
  [
    "runs bash scripts",
    { name: "terminal", description: "Run bash scripts.", parameters: object({ script: text() }) },
  ],
  [
    "a linter",
    {
      name: "lint_code",
      description: "Runs pylint on Python code and returns the warnings.",
      parameters: object({ code: text() }),
    },
  ],
  [
    "a JavaScript runner that says it is not Python",
    {
      name: "run_code",
      description: "Runs JavaScript code in Node.js and returns the console output (not Python).",
      parameters: object({ code: text() }),
    },
  ],
  [
    "a test runner",
    {
      name: "run_tests",
      description: "Runs the project's unit tests with pytest and reports failures.",
      parameters: object({ path: text() }),
    },
  ],
  [
    "reports the Python version",
    { name: "python_version", description: "Returns the installed Python version.", parameters: object({}) },
  ],
  [
    "a runner whose schema gives no place for a program",
    {
      name: "run_python_file",
      description: "Runs a Python file from the workspace.",
      parameters: object({ path: text("Path of the .py file") }),
    },
  ],
];

describe("recognising a code runner by what it says it does", () => {
  it.each(codeRunners)("%s", (_, spec, argument, fixed = {}) => {
    expect(recognizeToolRoles([spec]).code).toEqual({ name: spec.name, argument, fixed });
  });

  it.each(notCodeRunners)("not a code runner: %s", (_, spec) => {
    expect(recognizeToolRoles([spec]).code).toBeNull();
  });

  it("finds the runner among lookalikes, in any order", () => {
    const runner = codeRunners[1]![1];
    const lookalikes = notCodeRunners.map(([, spec]) => spec);
    expect(recognizeToolRoles([...lookalikes, runner]).code?.name).toBe("py_exec");
    expect(recognizeToolRoles([runner, ...lookalikes]).code?.name).toBe("py_exec");
    expect(recognizeToolRoles(lookalikes).code).toBeNull();
  });
});

describe("recognising a web search and a page reader", () => {
  it("reads tfgrpo's own tools as tfgrpo's actor offers them", () => {
    expect(recognizeToolRoles([codeInterpreter, webSearch, webFetch])).toEqual({
      code: { name: "code_interpreter", argument: "code", fixed: {} },
      search: {
        name: "web_search",
        argument: "query",
        fixed: {},
        count: { argument: "max_results", value: 5 },
      },
      fetch: { name: "web_fetch", argument: "url", fixed: {} },
    });
  });

  it("reads bare names with no schema as a model would (the usual argument names)", () => {
    const bare = ["code_interpreter", "web_search", "web_fetch"].map((name) => ({
      name,
      parameters: { type: "object" },
    }));
    expect(recognizeToolRoles(bare)).toEqual({
      code: { name: "code_interpreter", argument: "code", fixed: {} },
      search: {
        name: "web_search",
        argument: "query",
        fixed: {},
        count: { argument: "max_results", value: 5 },
      },
      fetch: { name: "web_fetch", argument: "url", fixed: {} },
    });
  });

  it("reads a team's own search and reader with their own argument names and bounds", () => {
    const roles = recognizeToolRoles([
      {
        name: "internet_lookup",
        description: "Look up a question on the internet. Returns a JSON array of {title, url, snippet}.",
        parameters: object({ q: text(), num: { type: "integer", maximum: 3 } }, ["q"]),
      },
      {
        name: "read_page",
        description: "Download the page at the given address and return its text (HTML stripped).",
        parameters: object({ address: text() }),
      },
    ]);
    expect(roles.search).toEqual({
      name: "internet_lookup",
      argument: "q",
      fixed: {},
      count: { argument: "num", value: 3 },
    });
    expect(roles.fetch).toEqual({ name: "read_page", argument: "address", fixed: {} });
    expect(roles.code).toBeNull();
  });

  it("reads LangChain's search tool and a reader described by its schema only", () => {
    const roles = recognizeToolRoles([
      {
        name: "tavily_search_results_json",
        description:
          "A search engine optimized for comprehensive, accurate, and trusted results. Useful for when you need " +
          "to answer questions about current events. Input should be a search query.",
        parameters: object({ input: text() }),
      },
      { name: "browse", parameters: object({ link: { type: "string", format: "uri" } }) },
    ]);
    expect(roles.search).toMatchObject({
      name: "tavily_search_results_json",
      argument: "input",
      count: null,
    });
    expect(roles.fetch).toEqual({ name: "browse", argument: "link", fixed: {} });
  });

  it.each<[string, ToolSpec]>([
    [
      "searches orders",
      {
        name: "search_orders",
        description: "Search the customer's orders by keyword and return matching results.",
        parameters: object({ keyword: text() }),
      },
    ],
    [
      "searches files",
      {
        name: "search_files",
        description: "Searches files in the workspace for a pattern and returns matching lines.",
        parameters: object({ pattern: text() }),
      },
    ],
    [
      "searches the Python documentation",
      {
        name: "search_python_docs",
        description: "Searches the Python documentation for a query and returns matching sections.",
        parameters: object({ query: text() }),
      },
    ],
    [
      "says it does not search the web",
      {
        name: "web_search",
        description: "Does not search the web: returns the results cached from yesterday's crawl.",
        parameters: object({ query: text() }),
      },
    ],
  ])("not a web search: %s", (_, spec) => {
    expect(recognizeToolRoles([spec]).search).toBeNull();
  });

  it.each<[string, ToolSpec]>([
    [
      "shortens a URL",
      { name: "shorten_url", description: "Shortens a URL.", parameters: object({ url: text() }) },
    ],
    [
      "checks a link is reachable",
      {
        name: "check_link",
        description: "Checks whether the page at a URL is reachable; returns only true or false.",
        parameters: object({ url: text() }),
      },
    ],
    [
      "sends an HTTP POST",
      {
        name: "http_post",
        description: "Posts JSON to a web URL and returns the response code.",
        parameters: object({ url: text(), body: text() }),
      },
    ],
  ])("not a page reader: %s", (_, spec) => {
    expect(recognizeToolRoles([spec]).fetch).toBeNull();
  });

  it("takes none of a store's own tools for code, search or page reading", () => {
    const store: ToolSpec[] = [
      {
        name: "find_user_id_by_name_zip",
        description: "Find user id by first name, last name, and zip code.",
        parameters: object({ first_name: text(), last_name: text(), zip: text() }),
      },
      {
        name: "get_order_details",
        description: "Get the status and details of an order.",
        parameters: object({ order_id: text("The order id, such as '#W0000000'.") }),
      },
      {
        name: "calculate",
        description: "Calculate the result of a mathematical expression.",
        parameters: object({ expression: text() }),
      },
    ];
    expect(recognizeToolRoles(store)).toEqual({ code: null, search: null, fetch: null });
  });
});
