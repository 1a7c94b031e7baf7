/**
 * The Python cell that runs a program's test cases inside the sandbox, without pytest: it lays the files out as
 * upstream does (python_programs/, python_testcases/, json_testcases/) in a private temp dir, gives the test module a
 * small stand-in for the parts of pytest QuixBugs uses (mark.parametrize, skip, approx, use_correct, run_slow),
 * imports it and runs each case under its own wall-clock timer (SIGALRM raising a BaseException the program cannot
 * swallow with `except Exception`). One result line per case, written to the real stdout with a per-run nonce while
 * the program's own prints go to a buffer, so a program cannot print a result line by accident.
 *
 * Limits that are not a case's own (memory, CPU, processes, the whole cell's time) are the sandbox's: a cell killed
 * by them leaves the cases it had not reported, which the caller records as stopped by the limit.
 */
export const caseHarnessSource = String.raw`
import builtins, copy, io, json, os, signal, sys, tempfile, time, types, importlib

def _tfgrpo_run(config):
    nonce = config["nonce"]
    seconds = config["caseSeconds"]
    name = config["program"]
    out = os.fdopen(os.dup(1), "w", buffering=1)
    root = tempfile.mkdtemp(prefix="repair-")
    for rel, text in config["files"].items():
        full = os.path.join(root, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            handle.write(text)
    open(os.path.join(root, "python_programs", "__init__.py"), "a").close()
    os.chdir(root)
    sys.path[:0] = [os.path.join(root, "python_testcases"), root]

    class Skipped(BaseException):
        pass

    class CaseTimeout(BaseException):
        pass

    class Approx:
        def __init__(self, expected, rel=None, abs=None):
            self.expected, self.rel, self.abs = expected, rel, abs
        def __eq__(self, actual):
            try:
                diff = builtins.abs(actual - self.expected)
            except Exception:
                return False
            if self.abs is not None and self.rel is None:
                return diff <= self.abs
            rel = 1e-6 if self.rel is None else self.rel
            return diff <= max(rel * builtins.abs(self.expected), 1e-12 if self.abs is None else self.abs)
        def __repr__(self):
            return "approx(%r)" % (self.expected,)

    class Mark:
        def parametrize(self, names, values):
            def decorate(function):
                function._tfgrpo_params = list(values)
                return function
            return decorate
        def __getattr__(self, _name):
            return lambda *args, **kwargs: (lambda function: function)

    stub = types.ModuleType("pytest")
    stub.use_correct = False
    stub.run_slow = False
    stub.mark = Mark()
    stub.approx = Approx
    def skip(reason=""):
        raise Skipped(reason)
    stub.skip = skip
    sys.modules["pytest"] = stub

    def on_alarm(_signum, _frame):
        raise CaseTimeout()
    signal.signal(signal.SIGPROF, on_alarm)
    signal.signal(signal.SIGALRM, on_alarm)

    def timed(function):
        # CPU time is the limit (a loaded machine slows a case down without making it wrong); wall-clock time, at
        # several times that, catches a case that sleeps or waits.
        signal.setitimer(signal.ITIMER_PROF, seconds)
        signal.setitimer(signal.ITIMER_REAL, seconds * 5)
        try:
            return function()
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)

    def short(value, limit=160):
        try:
            text = repr(value)
        except BaseException:
            text = "<unprintable>"
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def report(case, outcome, detail, started):
        line = {"id": case, "outcome": outcome, "detail": detail, "ms": round((time.perf_counter() - started) * 1000, 1)}
        out.write("%s %s\n" % (nonce, json.dumps(line)))

    def where(error):
        # The deepest frame in the program's own file: the line the error surfaced on.
        tb, line = error.__traceback__, None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith("python_programs/%s.py" % name):
                line = tb.tb_lineno
            tb = tb.tb_next
        return "" if line is None else " (%s.py line %d)" % (name, line)

    captured = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = captured
    started = time.perf_counter()
    try:
        module = timed(lambda: importlib.import_module("test_" + name))
    except BaseException as error:
        sys.stdout = real_stdout
        kind = "timeout" if isinstance(error, CaseTimeout) else "error"
        detail = ("importing the program took longer than %s s" % seconds) if kind == "timeout" else ("cannot import the program: %s: %s%s" % (type(error).__name__, str(error)[:200], where(error)))
        for case in config["cases"]:
            report(case, kind, detail, started)
        return
    program = sys.modules.get("python_programs." + name)
    target = getattr(program, name, None) if program is not None else None

    for case in config["cases"]:
        started = time.perf_counter()
        function_name, _, index = case.partition("[")
        function = getattr(module, function_name, None)
        if function is None:
            report(case, "error", "no such test", started)
            continue
        params = getattr(function, "_tfgrpo_params", None)
        args = ()
        if params is not None:
            try:
                args = tuple(params[int(index.rstrip("]"))])
            except (ValueError, IndexError):
                report(case, "error", "no such test case", started)
                continue
        shown = copy.deepcopy(args)
        try:
            timed(lambda: function(*args))
            report(case, "pass", "", started)
        except Skipped as skipped:
            report(case, "skip", str(skipped), started)
        except CaseTimeout:
            report(case, "timeout", "no result within %s s of CPU time (an endless loop or recursion?)" % seconds, started)
        except AssertionError:
            detail = "assertion failed"
            if params is not None and target is not None and len(shown) == 2:
                inputs, expected = shown
                try:
                    got = timed(lambda: target(*copy.deepcopy(inputs)))
                    if isinstance(got, types.GeneratorType) or hasattr(got, "__next__"):
                        got = timed(lambda: list(got))
                    detail = "wrong output for %s: got %s, expected %s" % (short(inputs), short(got), short(expected))
                except BaseException:
                    detail = "wrong output for %s: expected %s" % (short(inputs), short(expected))
            report(case, "fail", detail, started)
        except RecursionError as error:
            report(case, "error", "RecursionError: maximum recursion depth exceeded" + where(error), started)
        except BaseException as error:
            report(case, "error", "%s: %s%s" % (type(error).__name__, str(error)[:200], where(error)), started)
    sys.stdout = real_stdout
`;

/** The cell for one run: the harness, then a call with this run's configuration. */
export function caseHarnessCell(config: {
  nonce: string;
  program: string;
  caseSeconds: number;
  cases: readonly string[];
  files: Record<string, string>;
}): string {
  return `${caseHarnessSource}\n_tfgrpo_run(json.loads(${JSON.stringify(JSON.stringify(config))}))\n`;
}
