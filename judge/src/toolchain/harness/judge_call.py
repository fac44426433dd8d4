# Written by the judge: calls FUNCTION_NAME once per input line.
import importlib.util, inspect, json, os, sys, time

spec = importlib.util.spec_from_file_location("solution_file", os.path.join(os.path.dirname(os.path.abspath(__file__)), USER_FILE))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
function = getattr(module, "FUNCTION_NAME", None)
if not callable(function):
    sys.exit("no function `FUNCTION_NAME` in " + USER_FILE + ": the judge calls `CALLED_SIGNATURE`")
try:
    count = len(inspect.signature(function).parameters)
except (TypeError, ValueError):
    count = PARAMETER_COUNT
if count != PARAMETER_COUNT:
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


times = []
for line in sys.stdin.read().splitlines():
    if not line.strip():
        continue
    arguments = json.loads("[" + line + "]")
    arguments = [floats(a) if double else a for a, double in zip(arguments, DOUBLES)]
    start = time.process_time()
    result = function(*arguments)
    times.append(round((time.process_time() - start) * 1e6))
    print(show(result))
sys.stdout.flush()
sys.stderr.write("\nCALL_TIMES_MARKER" + ",".join(map(str, times)) + "\n")
