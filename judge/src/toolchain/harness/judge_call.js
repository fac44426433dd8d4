// Written by the judge: calls FUNCTION_NAME once per input line. The file's code runs again
// before every call, and globals it made are taken away after it, so that each call starts
// from the state the file has when it is loaded, as a new process per test does.
const fs = require("fs");
// The results go out on the standard output the judge reads; what the file prints goes to
// standard error, as Programmers shows it beside the result and never grades it.
const writeResults = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
const path = require("path");
const vm = require("vm");
const userFile = path.join(__dirname, USER_FILE);
const code = fs.readFileSync(userFile, "utf8");
// Compiled under the file's own name, so that a stack trace names it and its lines.
const load = vm.compileFunction(
    code + "\nreturn typeof FUNCTION_NAME === 'function' ? FUNCTION_NAME : undefined;",
    ["require", "module", "exports"], { filename: userFile });
const fresh = () => load(require, { exports: {} }, {});
const ownGlobals = new Set(Object.getOwnPropertyNames(globalThis));
const forgetNewGlobals = () => {
    for (const name of Object.getOwnPropertyNames(globalThis)) {
        if (!ownGlobals.has(name)) delete globalThis[name];
    }
};
let found = fresh();
if (typeof found !== "function") {
    console.error("no function `FUNCTION_NAME` in " + USER_FILE + ": the judge calls `CALLED_SIGNATURE`");
    process.exit(1);
}
const show = (value) => typeof value === "string" ? JSON.stringify(value)
    : Array.isArray(value) ? "[" + value.map(show).join(", ") + "]" : String(value);
const times = [];
let out = "";
let first = true;
// The times go out even when a call fails, before its error: the judge holds each call to
// the limit, the failed one too.
try {
    for (const line of fs.readFileSync(0, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const args = JSON.parse("[" + line + "]");
        if (!first) {
            forgetNewGlobals();
            found = fresh();
        }
        first = false;
        const start = process.cpuUsage();
        let result;
        try {
            result = found(...args);
        } finally {
            const used = process.cpuUsage(start);
            times.push(used.user + used.system);
        }
        out += show(result) + "\n";
    }
} finally {
    writeResults(out);
    process.stderr.write("\nCALL_TIMES_MARKER" + times.join(",") + "\n");
}
