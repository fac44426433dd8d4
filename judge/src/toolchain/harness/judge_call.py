# Written by the judge: calls FUNCTION_NAME once per input line. The file runs again, in a
# namespace of its own, before every call, so that each call starts from the module's state
# as imported, as a new process per test does.
import inspect, json, os, sys, time

# The results go out on the standard output the judge reads; what the file prints goes to
# standard error, as Programmers shows it beside the result and never grades it.
results = open(os.dup(1), "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors)
sys.stdout.flush()
os.dup2(2, 1)
sys.stdout = sys.stderr

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), USER_FILE)
with open(path, "rb") as source:
    code = compile(source.read(), path, "exec")
# The user's own modules beside the file import as they would if it were the program.
sys.path.insert(0, os.path.dirname(path))


def fresh_function():
    namespace = {"__name__": "solution_file", "__file__": path, "__builtins__": __builtins__}
    exec(code, namespace)
    return namespace.get("FUNCTION_NAME")


function = fresh_function()
if not callable(function):
    sys.exit("no function `FUNCTION_NAME` in " + USER_FILE + ": the judge calls `CALLED_SIGNATURE`")
# Refused only where Python would refuse the call: parameters with defaults may be left out.
try:
    signature = inspect.signature(function)
except (TypeError, ValueError):
    signature = None
try:
    if signature is not None:
        signature.bind(*range(PARAMETER_COUNT))
except TypeError:
    count = len(signature.parameters)
    sys.exit("`FUNCTION_NAME` takes " + str(count) + " parameters in " + USER_FILE + ": the judge calls `CALLED_SIGNATURE`")
DOUBLES = [DOUBLE_FLAGS]


def floats(value):
    return [floats(item) for item in value] if isinstance(value, list) else float(value)


def show(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value) if isinstance(value, float) else str(value)


def call_all():
    global function
    first = True
    for line in sys.stdin.read().splitlines():
        if not line.strip():
            continue
        arguments = json.loads("[" + line + "]")
        arguments = [floats(a) if double else a for a, double in zip(arguments, DOUBLES)]
        if not first:
            function = fresh_function()
        first = False
        start = time.process_time()
        try:
            result = function(*arguments)
        finally:
            times.append(round((time.process_time() - start) * 1e6))
        print(show(result), file=results)


times = []
# The times go out even when a call fails, before its traceback: the judge holds each call
# to the limit, the failed one too.
try:
    call_all()
finally:
    results.flush()
    sys.stdout.flush()
    sys.stderr.write("\nCALL_TIMES_MARKER" + ",".join(map(str, times)) + "\n")
