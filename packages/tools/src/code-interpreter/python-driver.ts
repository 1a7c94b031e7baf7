/**
 * The Python program that runs inside the sandbox and executes cells like a notebook kernel.
 *
 * Protocol (host <-> driver), chosen so that user output never has to be parsed:
 * - argv[1]: JSON config `{ "limits": {...}, "reap": bool, "preImport": [str] }`.
 * - fd 0 (then replaced by /dev/null for user code): one JSON line per cell `{ "nonce": str, "code": str }`.
 * - fd 1 / fd 2: the cell's own stdout / stderr, each followed by the end marker `\0TFGRPO-END:<nonce>\0`.
 * - fd 3: one JSON line per event: `{"event":"ready"}` once, then per cell
 *   `{"event":"cell","nonce":..,"exitCode":..,"limit":..}`.
 * Limits are set by the driver itself before any untrusted code runs, so they work the same in the
 * bubblewrap sandbox and in the explicit unsandboxed mode.
 */
export const pythonDriverSource = String.raw`
import ast, errno, json, linecache, math, os, resource, signal, sys, traceback

def _close_inherited_fds():
    # The host may have leaked descriptors (pipes, files) into us: close all but our channels.
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(4, 1024))
    for fd in fds:
        if fd > 3:
            try:
                os.close(fd)
            except OSError:
                pass

def _set_limits(limits):
    pairs = [
        (resource.RLIMIT_AS, limits.get("addressSpaceBytes")),
        (resource.RLIMIT_NPROC, limits.get("processes")),
        (resource.RLIMIT_FSIZE, limits.get("fileSizeBytes")),
        (resource.RLIMIT_NOFILE, limits.get("openFiles")),
        (resource.RLIMIT_CORE, 0),
    ]
    for which, value in pairs:
        if value is not None:
            resource.setrlimit(which, (value, value))
    hard = limits.get("cpuSecondsHard")
    if hard is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))

def _cpu_used():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def _classify(error):
    # Which resource limit, if any, turned into this Python exception.
    if isinstance(error, MemoryError):
        return "memory"
    if isinstance(error, OSError) and error.errno == errno.EFBIG:
        return "file_size"
    if isinstance(error, OSError) and error.errno == errno.EAGAIN:
        # fork() is C code and leaves no frame of its own: look at the calling lines too.
        frames = traceback.extract_tb(error.__traceback__)
        text = " ".join("%s %s" % (frame.name, frame.line or "") for frame in frames)
        if any(word in text for word in ("fork", "_execute_child", "spawn", "Popen", "Process(", "Pool(")):
            return "processes"
    if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
        return "processes"
    return None

def _run_cell(code, filename, namespace):
    # Returns (exit_code, limit). The last expression's value is printed, as in a notebook.
    lines = code.splitlines(True)
    linecache.cache[filename] = (len(code), None, lines, filename)
    try:
        tree = ast.parse(code, filename, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = tree.body.pop()
        exec(compile(tree, filename, "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), filename, "eval"), namespace)
            if value is not None:
                print(repr(value))
        return 0, None
    except SystemExit as stop:
        if stop.code is None:
            return 0, None
        if isinstance(stop.code, int):
            return stop.code, None
        print(stop.code, file=sys.stderr)
        return 1, None
    except BaseException as error:
        tb = error.__traceback__
        # Hide the driver's own frame: the model should see only its code.
        if tb is not None and tb.tb_frame.f_code.co_filename != filename:
            tb = tb.tb_next
        try:
            traceback.print_exception(type(error), error, tb)
        except BaseException:
            pass
        return 1, _classify(error)

def _address_space():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0

def _pre_import(names):
    # A warm session: common modules (the operator's list, trusted) loaded ahead of need. They go into sys.modules
    # only (a cell still writes its own import, as in a cold session); one that fails is left out. Returns the
    # address space and CPU seconds they took, which the limits then leave to the code on top.
    if not names:
        return 0, 0
    import importlib
    space = _address_space()
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            sys.modules.pop(name, None)
    return max(0, _address_space() - space), _cpu_used()

def _reap_others(own_pid):
    # In the sandbox's own pid namespace, kill(-1) reaches every process the cell left behind
    # (background jobs, fork bombs) but not the namespace's init, which belongs to another user.
    for _ in range(20):
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        others = []
        try:
            for name in os.listdir("/proc"):
                if name.isdigit() and int(name) not in (1, own_pid):
                    others.append(name)
        except OSError:
            return
        if not others:
            return
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass

def main():
    config = json.loads(sys.argv[1])
    _close_inherited_fds()
    commands = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open("/dev/null", os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    events = os.fdopen(3, "w", encoding="utf-8", buffering=1)
    limits = dict(config.get("limits", {}))
    # Pre-imported modules are not billed to the code: a pooled session leaves a cell the same address space and
    # CPU time as a cold one (without pre-imports nothing changes).
    preloaded_bytes, preloaded_cpu = _pre_import(config.get("preImport", []))
    preloaded_cpu = math.ceil(preloaded_cpu)
    if preloaded_bytes and limits.get("addressSpaceBytes") is not None:
        limits["addressSpaceBytes"] += preloaded_bytes
    if preloaded_cpu and limits.get("cpuSecondsHard") is not None:
        limits["cpuSecondsHard"] += preloaded_cpu
    _set_limits(limits)
    per_cell_cpu = limits.get("cpuSecondsPerCell")
    hard_cpu = limits.get("cpuSecondsHard")
    own_pid = os.getpid()
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    events.write(json.dumps({"event": "ready"}) + "\n")
    count = 0
    for line in commands:
        request = json.loads(line)
        nonce = request["nonce"]
        count += 1
        if per_cell_cpu is not None:
            soft = preloaded_cpu + int(_cpu_used() - preloaded_cpu) + per_cell_cpu
            if hard_cpu is not None:
                soft = min(soft, hard_cpu)
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard_cpu if hard_cpu is not None else resource.RLIM_INFINITY))
        exit_code, limit = _run_cell(request["code"], "<cell %d>" % count, namespace)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        if os.getpid() != own_pid:
            # A process forked by the cell fell through to here: it must not act as the driver.
            os._exit(exit_code if isinstance(exit_code, int) else 1)
        if config.get("reap"):
            _reap_others(own_pid)
        marker = ("\0TFGRPO-END:%s\0" % nonce).encode()
        os.write(1, marker)
        os.write(2, marker)
        events.write(json.dumps({"event": "cell", "nonce": nonce, "exitCode": exit_code, "limit": limit}) + "\n")

main()
`;
