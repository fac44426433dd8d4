//! The caller the judge writes for a function-form file (Programmers' `solution`): for a
//! file that defines the declared function and has no entry point of its own, a program in
//! the file's language that reads one call per input line (the arguments as the judge's page
//! writes them: JSON literals separated by commas), calls the function, prints each result
//! as the page shows it, and says on standard error how much CPU time each call took
//! (`CALL_TIMES`), so that the problem's limit applies to each call. The user's file is
//! built as it is, beside it.

use super::language::{Language, LanguageId};
use super::signature::{Signature, Type};

/// Starts the last line of a harness's standard error: each call's CPU time in
/// microseconds, separated by commas.
pub const CALL_TIMES: &str = "judge-call-cpu-us=";

/// Where a language's caller goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// In a file of its own beside the user's, named so that no user's file is, and started
    /// as the program (on the JVM, by its class).
    Beside {
        file: &'static str,
        class: Option<&'static str>,
    },
    /// After the user's last line: Rust cannot call another file's private function, and
    /// `include!` refuses a file that opens with `//!` or `#![...]`. The file's own lines
    /// keep their numbers in compiler messages.
    Appended,
}

/// Where the caller for `language` goes; `None` for a language the judge writes none for.
pub fn placement(language: &Language) -> Option<Placement> {
    let beside = |file, class| Placement::Beside { file, class };
    Some(match language.id {
        LanguageId::Python3 => beside("judge_call.py", None),
        LanguageId::JavaScript => beside("judge_call.js", None),
        LanguageId::Java => beside("JudgeCall.java", Some(JAVA_CLASS)),
        LanguageId::Cpp => beside("judge_call.cpp", None),
        LanguageId::Kotlin => beside("JudgeCall.kt", Some("JudgeCallKt")),
        LanguageId::Rust => Placement::Appended,
        _ => return None,
    })
}

/// The class the JVM starts (Java's harness).
pub const JAVA_CLASS: &str = "JudgeCall";

/// Whether a file is the function alone: it has no entry point of its own (a `main`, code
/// that reads the standard input, our stdin adapter), so the judge must call it.
pub fn needs_caller(language: &Language, code: &str) -> bool {
    let code = super::language::without_comments(code);
    let own_entry: &[&str] = match language.id {
        LanguageId::Python3 => &["input(", "sys.stdin", "__main__"],
        LanguageId::JavaScript => &["process.stdin", "readFileSync", "readline"],
        LanguageId::Java => &["static void main"],
        LanguageId::Kotlin => &["fun main("],
        LanguageId::Cpp => &["main(", "main ("],
        LanguageId::Rust => &["fn main("],
        // The languages `placement` names.
        _ => return false,
    };
    !own_entry.iter().any(|entry| code.contains(entry))
}

/// Why the file cannot be called as `signature` says, in its own terms: it defines no
/// function of that name.
pub fn missing_function(language: &Language, code: &str, signature: &Signature) -> Option<String> {
    let name = &signature.name;
    let code = super::language::without_comments(code);
    if !defines(language, &code, name) {
        return Some(format!(
            "no function `{name}`: the judge calls `{signature}`"
        ));
    }
    match language.id {
        LanguageId::Java => java_parameters_differ(&code, signature),
        LanguageId::Rust => rust_parameters_differ(&code, signature),
        LanguageId::Kotlin => kotlin_parameters_differ(&code, signature),
        _ => None,
    }
}

/// The parameters of the list opening at `code[start..]` (just after its `(`), split at its
/// top-level commas (not those of `HashMap<i32, i32>` or `(u8, u8)`), trimmed, without an
/// empty one after a trailing comma.
fn parameter_list(code: &str, start: usize) -> Vec<String> {
    let (mut depth, mut parameters, mut current) = (0usize, Vec::new(), String::new());
    for character in code[start..].chars() {
        match character {
            '(' | '<' | '[' => depth += 1,
            ')' if depth == 0 => break,
            ')' | '>' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parameters.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(character);
    }
    parameters.push(current);
    let parameters: Vec<String> = parameters.iter().map(|p| p.trim().to_owned()).collect();
    match parameters.split_last() {
        Some((last, rest)) if last.is_empty() => rest.to_vec(),
        _ => parameters,
    }
}

/// Where a Rust `fn name(...)` takes another number of parameters than the judge passes
/// (rustc would point at the caller's line).
fn rust_parameters_differ(code: &str, signature: &Signature) -> Option<String> {
    let start = code.find(&format!("fn {}(", signature.name))? + signature.name.len() + 4;
    let found = parameter_list(code, start).len();
    let wanted = signature.parameters.len();
    (found != wanted).then(|| {
        format!(
            "fn {}() takes {found} parameters, but the judge calls it with {wanted} (`{signature}`)",
            signature.name
        )
    })
}

/// Where a Kotlin `fun name(...)` takes other parameter types than the judge passes, as
/// Programmers' Kotlin templates spell them (`IntArray` for `int[]`).
fn kotlin_parameters_differ(code: &str, signature: &Signature) -> Option<String> {
    let start = code.find(&format!("fun {}(", signature.name))? + signature.name.len() + 5;
    let found: Vec<String> = parameter_list(code, start)
        .iter()
        .map(|parameter| {
            let kind = parameter.split_once(':').map_or("", |(_, kind)| kind);
            kind.split_whitespace().collect()
        })
        .collect();
    types_differ(found, signature, kotlin_type)
}

/// What to say when the declared parameter types `found` are not those the judge passes, as
/// `spell` writes a type in the file's language.
fn types_differ(
    found: Vec<String>,
    signature: &Signature,
    spell: fn(&Type) -> String,
) -> Option<String> {
    let wanted: Vec<String> = signature
        .parameters
        .iter()
        .map(|(_, kind)| spell(kind))
        .collect();
    (found != wanted).then(|| {
        format!(
            "{}({}) is declared, but the judge calls {}({}) (`{signature}`)",
            signature.name,
            found.join(", "),
            signature.name,
            wanted.join(", ")
        )
    })
}

/// Whether `code` defines a function `name`: `def name(`, `function name(` (or `name = ...`
/// in JavaScript), `fn name(`, or the name, its parameters and a body in the C family and
/// Java.
pub fn defines(language: &Language, code: &str, name: &str) -> bool {
    match language.id {
        LanguageId::Python3 => code.lines().any(|line| {
            line.strip_prefix("def ")
                .and_then(|rest| rest.trim_start().strip_prefix(name))
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        }),
        LanguageId::JavaScript => {
            code.contains(&format!("function {name}(")) || code.contains(&format!("{name} ="))
        }
        LanguageId::Rust => code.contains(&format!("fn {name}(")),
        LanguageId::Kotlin => code.contains(&format!("fun {name}(")),
        _ => code.contains(&format!(" {name}(")),
    }
}

/// Where a Java `name(...)` takes other parameter types than the judge passes: javac's
/// message would name the caller's line, not the user's method.
fn java_parameters_differ(code: &str, signature: &Signature) -> Option<String> {
    let start = code.find(&format!(" {}(", signature.name))? + signature.name.len() + 2;
    let found: Vec<String> = parameter_list(code, start)
        .iter()
        .map(|parameter| {
            let words: Vec<&str> = parameter
                .split_whitespace()
                .filter(|w| *w != "final")
                .collect();
            words[..words.len().saturating_sub(1)].concat()
        })
        .collect();
    types_differ(found, signature, java_type)
}

/// The harness's source for `language`, calling the function of `user_file`.
pub fn source(language: &Language, signature: &Signature, user_file: &str) -> Option<String> {
    Some(match language.id {
        LanguageId::Python3 => python(signature, user_file),
        LanguageId::JavaScript => javascript(signature, user_file),
        LanguageId::Java => java(signature),
        LanguageId::Cpp => cpp(signature),
        LanguageId::Kotlin => kotlin(signature),
        LanguageId::Rust => rust(signature),
        _ => return None,
    })
}

fn python(signature: &Signature, user_file: &str) -> String {
    let doubles: Vec<&str> = signature
        .parameters
        .iter()
        .map(|(_, kind)| match kind.depth().1 {
            Type::Double => "True",
            _ => "False",
        })
        .collect();
    PYTHON
        .replace("{user}", &format!("{user_file:?}"))
        .replace("{name}", &signature.name)
        .replace("{count}", &signature.parameters.len().to_string())
        .replace("{signature}", &signature.to_string())
        .replace("{doubles}", &doubles.join(", "))
        .replace("{marker}", CALL_TIMES)
}

const PYTHON: &str = r#"# Written by the judge: calls {name} once per input line.
import importlib.util, inspect, json, os, sys, time

spec = importlib.util.spec_from_file_location("solution_file", os.path.join(os.path.dirname(os.path.abspath(__file__)), {user}))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
function = getattr(module, "{name}", None)
if not callable(function):
    sys.exit("no function `{name}` in " + {user} + ": the judge calls `{signature}`")
try:
    count = len(inspect.signature(function).parameters)
except (TypeError, ValueError):
    count = {count}
if count != {count}:
    sys.exit("`{name}` takes " + str(count) + " parameters in " + {user} + ": the judge calls `{signature}`")
DOUBLES = [{doubles}]


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
sys.stderr.write("\n{marker}" + ",".join(map(str, times)) + "\n")
"#;

fn javascript(signature: &Signature, user_file: &str) -> String {
    JAVASCRIPT
        .replace("{user}", &format!("{user_file:?}"))
        .replace("{name}", &signature.name)
        .replace("{count}", &signature.parameters.len().to_string())
        .replace("{signature}", &signature.to_string())
        .replace("{marker}", CALL_TIMES)
}

const JAVASCRIPT: &str = r#"// Written by the judge: calls {name} once per input line.
const fs = require("fs");
const path = require("path");
const code = fs.readFileSync(path.join(__dirname, {user}), "utf8");
const found = new Function("require", "module", "exports",
    code + "\nreturn typeof {name} === 'function' ? {name} : undefined;")(require, { exports: {} }, {});
if (typeof found !== "function") {
    console.error("no function `{name}` in " + {user} + ": the judge calls `{signature}`");
    process.exit(1);
}
if (found.length !== {count}) {
    console.error("`{name}` takes " + found.length + " parameters in " + {user} + ": the judge calls `{signature}`");
    process.exit(1);
}
const show = (value) => typeof value === "string" ? JSON.stringify(value)
    : Array.isArray(value) ? "[" + value.map(show).join(", ") + "]" : String(value);
const times = [];
let out = "";
for (const line of fs.readFileSync(0, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const args = JSON.parse("[" + line + "]");
    const start = process.cpuUsage();
    const result = found(...args);
    const used = process.cpuUsage(start);
    times.push(used.user + used.system);
    out += show(result) + "\n";
}
process.stdout.write(out);
process.stderr.write("\n{marker}" + times.join(",") + "\n");
"#;

/// A type as Java spells it.
fn java_type(kind: &Type) -> String {
    match kind {
        Type::Int => "int".into(),
        Type::Long => "long".into(),
        Type::Double => "double".into(),
        Type::Boolean => "boolean".into(),
        Type::String => "String".into(),
        Type::Array(element) => format!("{}[]", java_type(element)),
    }
}

/// A Java expression converting `value` (the parsed literal) to `kind`.
fn java_conversion(kind: &Type, value: &str, helpers: &mut Vec<String>) -> String {
    let scalar = |method: &str| format!("{method}({value})");
    match kind {
        Type::Int => scalar("asInt"),
        Type::Long => scalar("asLong"),
        Type::Double => scalar("asDouble"),
        Type::Boolean => scalar("asBoolean"),
        Type::String => scalar("asString"),
        Type::Array(element) => {
            let name = format!("as{}", helpers.len());
            helpers.push(String::new());
            let index = helpers.len() - 1;
            let inner = java_conversion(element, "list.get(i)", helpers);
            let (base, dims) = {
                let (depth, base) = kind.depth();
                (java_type(base), "[]".repeat(depth - 1))
            };
            helpers[index] = format!(
                "    static {ty} {name}(Object value) {{\n        List<?> list = (List<?>) value;\n        {ty} array = new {base}[list.size()]{dims};\n        for (int i = 0; i < array.length; i++) array[i] = {inner};\n        return array;\n    }}\n",
                ty = java_type(kind)
            );
            format!("{name}({value})")
        }
    }
}

fn java(signature: &Signature) -> String {
    let mut helpers = Vec::new();
    let arguments: Vec<String> = signature
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| java_conversion(kind, &format!("arguments.get({i})"), &mut helpers))
        .collect();
    JAVA.replace("{class}", JAVA_CLASS)
        .replace("{name}", &signature.name)
        .replace("{arguments}", &arguments.join(", "))
        .replace("{helpers}", &helpers.concat())
        .replace("{marker}", CALL_TIMES)
}

const JAVA: &str = r#"// Written by the judge: calls Solution.{name} once per input line.
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.*;

public class {class} {
    static String text;
    static int at;

    static void skip() { while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++; }

    static Object value() {
        skip();
        char c = text.charAt(at);
        if (c == '[') {
            at++;
            List<Object> list = new ArrayList<>();
            skip();
            if (text.charAt(at) == ']') { at++; return list; }
            while (true) {
                list.add(value());
                skip();
                if (text.charAt(at++) == ']') return list;
            }
        }
        if (c == '"') {
            StringBuilder s = new StringBuilder();
            at++;
            while (text.charAt(at) != '"') {
                char d = text.charAt(at++);
                if (d == '\\') {
                    char e = text.charAt(at++);
                    switch (e) {
                        case 'n': s.append('\n'); break;
                        case 't': s.append('\t'); break;
                        case 'u': s.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                        default: s.append(e);
                    }
                } else s.append(d);
            }
            at++;
            return s.toString();
        }
        if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
        if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
        String number = text.substring(start, at);
        if (number.matches("-?\\d+")) return Long.parseLong(number);
        return Double.parseDouble(number);
    }

    static int asInt(Object value) { return ((Number) value).intValue(); }
    static long asLong(Object value) { return ((Number) value).longValue(); }
    static double asDouble(Object value) { return ((Number) value).doubleValue(); }
    static boolean asBoolean(Object value) { return (Boolean) value; }
    static String asString(Object value) { return (String) value; }
{helpers}
    static String show(Object value) {
        if (value == null) return "null";
        if (value.getClass().isArray()) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (int i = 0; i < java.lang.reflect.Array.getLength(value); i++)
                joined.add(show(java.lang.reflect.Array.get(value, i)));
            return joined.toString();
        }
        if (value instanceof List) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (Object item : (List<?>) value) joined.add(show(item));
            return joined.toString();
        }
        if (value instanceof String) {
            String s = (String) value;
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
        }
        return String.valueOf(value);
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        ThreadMXBean clock = ManagementFactory.getThreadMXBean();
        StringBuilder out = new StringBuilder();
        StringJoiner times = new StringJoiner(",");
        Solution solution = new Solution();
        for (String line; (line = in.readLine()) != null; ) {
            if (line.trim().isEmpty()) continue;
            text = line;
            at = 0;
            List<Object> arguments = new ArrayList<>();
            while (true) {
                skip();
                if (at >= text.length()) break;
                arguments.add(value());
                skip();
                if (at < text.length() && text.charAt(at) == ',') at++;
            }
            long start = clock.getCurrentThreadCpuTime();
            Object result = solution.{name}({arguments});
            times.add(String.valueOf((clock.getCurrentThreadCpuTime() - start) / 1000));
            out.append(show(result)).append('\n');
        }
        System.out.print(out);
        System.out.flush();
        System.err.println();
        System.err.println("{marker}" + times);
    }
}
"#;

/// A type as C++ spells it (by value, as Programmers' C++ templates take parameters).
fn cpp_type(kind: &Type) -> String {
    match kind {
        Type::Int => "int".into(),
        Type::Long => "long long".into(),
        Type::Double => "double".into(),
        Type::Boolean => "bool".into(),
        Type::String => "std::string".into(),
        Type::Array(element) => format!("std::vector<{}>", cpp_type(element)),
    }
}

fn cpp(signature: &Signature) -> String {
    let parameters: Vec<String> = signature
        .parameters
        .iter()
        .map(|(name, kind)| format!("{} {name}", cpp_type(kind)))
        .collect();
    let reads: String = signature
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| {
            format!(
                "        auto a{i} = judge_call::Read<{}>::of(c);\n        c.comma();\n",
                cpp_type(kind)
            )
        })
        .collect();
    let arguments: Vec<String> = (0..signature.parameters.len())
        .map(|i| format!("std::move(a{i})"))
        .collect();
    CPP.replace("{returns}", &cpp_type(&signature.returns))
        .replace("{name}", &signature.name)
        .replace("{parameters}", &parameters.join(", "))
        .replace("{reads}", &reads)
        .replace("{arguments}", &arguments.join(", "))
        .replace("{marker}", CALL_TIMES)
}

const CPP: &str = r#"// Written by the judge: calls {name} once per input line.
#include <cctype>
#include <charconv>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

{returns} {name}({parameters});

namespace judge_call {
struct Cursor {
    const std::string& text;
    size_t at;
    void skip() { while (at < text.size() && std::isspace((unsigned char)text[at])) at++; }
    void comma() { skip(); if (at < text.size() && text[at] == ',') at++; }
};
template <class T> struct Read;
template <> struct Read<long long> {
    static long long of(Cursor& c) { c.skip(); size_t used; long long v = std::stoll(c.text.substr(c.at), &used); c.at += used; return v; }
};
template <> struct Read<int> { static int of(Cursor& c) { return (int)Read<long long>::of(c); } };
template <> struct Read<double> {
    static double of(Cursor& c) { c.skip(); size_t used; double v = std::stod(c.text.substr(c.at), &used); c.at += used; return v; }
};
template <> struct Read<bool> {
    static bool of(Cursor& c) { c.skip(); bool v = c.text.compare(c.at, 4, "true") == 0; c.at += v ? 4 : 5; return v; }
};
template <> struct Read<std::string> {
    static std::string of(Cursor& c) {
        c.skip();
        std::string s;
        c.at++;
        while (c.text[c.at] != '"') {
            char d = c.text[c.at++];
            if (d == '\\') {
                char e = c.text[c.at++];
                s += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            } else s += d;
        }
        c.at++;
        return s;
    }
};
template <class T> struct Read<std::vector<T>> {
    static std::vector<T> of(Cursor& c) {
        std::vector<T> v;
        c.skip();
        c.at++;
        c.skip();
        if (c.text[c.at] == ']') { c.at++; return v; }
        while (true) {
            v.push_back(Read<T>::of(c));
            c.skip();
            if (c.text[c.at++] == ']') return v;
        }
    }
};
void show(std::ostream& o, long long v) { o << v; }
void show(std::ostream& o, int v) { o << v; }
void show(std::ostream& o, bool v) { o << (v ? "true" : "false"); }
void show(std::ostream& o, double v) {
    char buffer[64];
    auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
    std::string s(buffer, end);
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";
    o << s;
}
void show(std::ostream& o, const std::string& v) {
    o << '"';
    for (char ch : v) { if (ch == '"' || ch == '\\') o << '\\'; if (ch == '\n') { o << "\\n"; continue; } o << ch; }
    o << '"';
}
template <class T> void show(std::ostream& o, const std::vector<T>& v) {
    o << '[';
    for (size_t i = 0; i < v.size(); i++) { if (i) o << ", "; show(o, (T)v[i]); }
    o << ']';
}
long long cpu_us() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
}  // namespace judge_call

int main() {
    std::ios::sync_with_stdio(false);
    std::string line, times;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        judge_call::Cursor c{line, 0};
{reads}        long long start = judge_call::cpu_us();
        auto result = {name}({arguments});
        long long used = judge_call::cpu_us() - start;
        times += (times.empty() ? "" : ",") + std::to_string(used);
        judge_call::show(std::cout, result);
        std::cout << '\n';
    }
    std::cout.flush();
    std::cerr << "\n{marker}" << times << "\n";
}
"#;

/// A type as Kotlin spells it, as Programmers' Kotlin templates do (`IntArray` for `int[]`).
fn kotlin_type(kind: &Type) -> String {
    match kind {
        Type::Int => "Int".into(),
        Type::Long => "Long".into(),
        Type::Double => "Double".into(),
        Type::Boolean => "Boolean".into(),
        Type::String => "String".into(),
        Type::Array(element) => match **element {
            Type::Int => "IntArray".into(),
            Type::Long => "LongArray".into(),
            Type::Double => "DoubleArray".into(),
            Type::Boolean => "BooleanArray".into(),
            _ => format!("Array<{}>", kotlin_type(element)),
        },
    }
}

/// A Kotlin expression converting `value` (the parsed literal, `Any?`) to `kind`.
fn kotlin_conversion(kind: &Type, value: &str) -> String {
    match kind {
        Type::Int => format!("({value} as Number).toInt()"),
        Type::Long => format!("({value} as Number).toLong()"),
        Type::Double => format!("({value} as Number).toDouble()"),
        Type::Boolean => format!("({value} as Boolean)"),
        Type::String => format!("({value} as String)"),
        Type::Array(element) => {
            let list = format!("({value} as List<*>)");
            let each = kotlin_conversion(element, "it");
            match **element {
                Type::Int => format!("{list}.map {{ {each} }}.toIntArray()"),
                Type::Long => format!("{list}.map {{ {each} }}.toLongArray()"),
                Type::Double => format!("{list}.map {{ {each} }}.toDoubleArray()"),
                Type::Boolean => format!("{list}.map {{ {each} }}.toBooleanArray()"),
                _ => format!("{list}.map {{ {each} }}.toTypedArray()"),
            }
        }
    }
}

fn kotlin(signature: &Signature) -> String {
    let arguments: Vec<String> = signature
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| kotlin_conversion(kind, &format!("arguments[{i}]")))
        .collect();
    KOTLIN
        .replace("{name}", &signature.name)
        .replace("{arguments}", &arguments.join(", "))
        .replace("{marker}", CALL_TIMES)
}

const KOTLIN: &str = r#"// Written by the judge: calls Solution().{name} once per input line.
import java.lang.management.ManagementFactory

private class JudgeCallReader(val text: String) {
    var at = 0
    fun skip() { while (at < text.length && text[at].isWhitespace()) at++ }
    fun value(): Any? {
        skip()
        val c = text[at]
        if (c == '[') {
            at++
            val list = ArrayList<Any?>()
            skip()
            if (text[at] == ']') { at++; return list }
            while (true) {
                list.add(value())
                skip()
                if (text[at++] == ']') return list
            }
        }
        if (c == '"') {
            val s = StringBuilder()
            at++
            while (text[at] != '"') {
                val d = text[at++]
                if (d == '\\') {
                    val e = text[at++]
                    when (e) {
                        'n' -> s.append('\n')
                        't' -> s.append('\t')
                        'u' -> { s.append(text.substring(at, at + 4).toInt(16).toChar()); at += 4 }
                        else -> s.append(e)
                    }
                } else s.append(d)
            }
            at++
            return s.toString()
        }
        if (text.startsWith("true", at)) { at += 4; return true }
        if (text.startsWith("false", at)) { at += 5; return false }
        val start = at
        while (at < text.length && "+-0123456789.eE".indexOf(text[at]) >= 0) at++
        val number = text.substring(start, at)
        return number.toLongOrNull() ?: number.toDouble()
    }
}

private fun judgeCallShow(value: Any?): String = when (value) {
    null -> "null"
    is String -> "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\""
    is IntArray -> value.joinToString(", ", "[", "]")
    is LongArray -> value.joinToString(", ", "[", "]")
    is DoubleArray -> value.joinToString(", ", "[", "]")
    is BooleanArray -> value.joinToString(", ", "[", "]")
    is Array<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    is Iterable<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    else -> value.toString()
}

fun main() {
    val clock = ManagementFactory.getThreadMXBean()
    val out = StringBuilder()
    val times = ArrayList<Long>()
    val solution = Solution()
    while (true) {
        val line = readLine() ?: break
        if (line.isBlank()) continue
        val reader = JudgeCallReader(line)
        val arguments = ArrayList<Any?>()
        while (true) {
            reader.skip()
            if (reader.at >= line.length) break
            arguments.add(reader.value())
            reader.skip()
            if (reader.at < line.length && line[reader.at] == ',') reader.at++
        }
        val start = clock.currentThreadCpuTime
        val result = solution.{name}({arguments})
        times.add((clock.currentThreadCpuTime - start) / 1000)
        out.append(judgeCallShow(result)).append('\n')
    }
    print(out)
    System.out.flush()
    System.err.println()
    System.err.println("{marker}" + times.joinToString(","))
}
"#;

fn rust(signature: &Signature) -> String {
    let count = signature.parameters.len();
    let reads: String = (0..count)
        .map(|i| {
            format!("        let a{i} = judge_call::Read::read(&mut c);\n        c.comma();\n")
        })
        .collect();
    let arguments: Vec<String> = (0..count).map(|i| format!("a{i}")).collect();
    RUST.replace("{name}", &signature.name)
        .replace("{reads}", &reads)
        .replace("{arguments}", &arguments.join(", "))
        .replace("{marker}", CALL_TIMES)
}

/// Appended after the user's last line: each argument's type is the parameter's, inferred.
const RUST: &str = r#"
// Written by the judge, after the file: calls {name} once per input line.
#[allow(dead_code)]
mod judge_call {
    pub struct Cursor<'a> {
        text: &'a [u8],
        at: usize,
    }

    impl<'a> Cursor<'a> {
        pub fn new(text: &'a str) -> Self {
            Cursor { text: text.as_bytes(), at: 0 }
        }
        fn peek(&self) -> Option<u8> {
            self.text.get(self.at).copied()
        }
        fn skip(&mut self) {
            while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                self.at += 1;
            }
        }
        pub fn comma(&mut self) {
            self.skip();
            if self.peek() == Some(b',') {
                self.at += 1;
            }
        }
        fn token(&mut self) -> &'a str {
            self.skip();
            let start = self.at;
            while self.peek().is_some_and(|b| b != b',' && b != b']' && !b.is_ascii_whitespace()) {
                self.at += 1;
            }
            std::str::from_utf8(&self.text[start..self.at]).unwrap_or("")
        }
    }

    pub trait Read: Sized {
        fn read(c: &mut Cursor) -> Self;
    }

    macro_rules! numbers {
        ($($t:ty),*) => {$(
            impl Read for $t {
                fn read(c: &mut Cursor) -> Self {
                    let token = c.token();
                    token.parse().unwrap_or_else(|_| panic!("`{token}` is not a {}", stringify!($t)))
                }
            }
        )*};
    }
    numbers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);

    impl Read for bool {
        fn read(c: &mut Cursor) -> Self {
            c.token() == "true"
        }
    }

    impl Read for String {
        fn read(c: &mut Cursor) -> Self {
            c.skip();
            c.at += 1;
            let mut bytes = Vec::new();
            while let Some(b) = c.peek() {
                c.at += 1;
                match b {
                    b'"' => break,
                    b'\\' => {
                        let escaped = c.peek().unwrap_or(b'\\');
                        c.at += 1;
                        match escaped {
                            b'n' => bytes.push(b'\n'),
                            b't' => bytes.push(b'\t'),
                            b'u' => {
                                let hex = std::str::from_utf8(&c.text[c.at..c.at + 4]).unwrap_or("0");
                                c.at += 4;
                                let unit = char::from_u32(u32::from_str_radix(hex, 16).unwrap_or(0));
                                let mut buffer = [0; 4];
                                bytes.extend_from_slice(unit.unwrap_or('?').encode_utf8(&mut buffer).as_bytes());
                            }
                            other => bytes.push(other),
                        }
                    }
                    other => bytes.push(other),
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }

    impl Read for char {
        fn read(c: &mut Cursor) -> Self {
            String::read(c).chars().next().unwrap_or('\0')
        }
    }

    impl<T: Read> Read for Vec<T> {
        fn read(c: &mut Cursor) -> Self {
            c.skip();
            c.at += 1;
            let mut items = Vec::new();
            c.skip();
            if c.peek() == Some(b']') {
                c.at += 1;
                return items;
            }
            loop {
                items.push(T::read(c));
                c.skip();
                let end = c.peek();
                c.at += 1;
                if end != Some(b',') {
                    return items;
                }
            }
        }
    }

    pub trait Show {
        fn show(&self, out: &mut String);
    }

    macro_rules! integers {
        ($($t:ty),*) => {$(
            impl Show for $t {
                fn show(&self, out: &mut String) {
                    out.push_str(&self.to_string());
                }
            }
        )*};
    }
    integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool);

    impl Show for f64 {
        fn show(&self, out: &mut String) {
            let text = self.to_string();
            out.push_str(&text);
            if !text.contains(['.', 'e', 'i', 'N']) {
                out.push_str(".0");
            }
        }
    }

    impl Show for f32 {
        fn show(&self, out: &mut String) {
            f64::from(*self).show(out)
        }
    }

    impl Show for str {
        fn show(&self, out: &mut String) {
            out.push('"');
            for character in self.chars() {
                match character {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    other => out.push(other),
                }
            }
            out.push('"');
        }
    }

    impl Show for String {
        fn show(&self, out: &mut String) {
            self.as_str().show(out)
        }
    }

    impl Show for char {
        fn show(&self, out: &mut String) {
            self.to_string().show(out)
        }
    }

    impl<T: Show + ?Sized> Show for &T {
        fn show(&self, out: &mut String) {
            (**self).show(out)
        }
    }

    impl<T: Show> Show for [T] {
        fn show(&self, out: &mut String) {
            out.push('[');
            for (i, item) in self.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                item.show(out);
            }
            out.push(']');
        }
    }

    impl<T: Show> Show for Vec<T> {
        fn show(&self, out: &mut String) {
            self.as_slice().show(out)
        }
    }

    /// This thread's CPU time in microseconds (the scheduler's count, in nanoseconds).
    pub fn cpu_us() -> u64 {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
        stat.split_whitespace().next().and_then(|ns| ns.parse::<u64>().ok()).unwrap_or(0) / 1000
    }
}

fn main() {
    use std::io::Read as _;
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let (mut out, mut times) = (String::new(), Vec::new());
    for line in input.lines().filter(|line| !line.trim().is_empty()) {
        let mut c = judge_call::Cursor::new(line);
{reads}        let start = judge_call::cpu_us();
        let result = {name}({arguments});
        times.push((judge_call::cpu_us() - start).to_string());
        judge_call::Show::show(&result, &mut out);
        out.push('\n');
    }
    print!("{out}");
    eprintln!("\n{marker}{}", times.join(","));
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rust_parameter_list_is_counted_at_its_top_level() {
        let signature = Signature::parse("solution(a: int[], b: int) -> int").unwrap();
        let differs = |code: &str| rust_parameters_differ(code, &signature).is_some();
        assert!(!differs("fn solution(a: Vec<i64>, b: i64) -> i64 { 0 }"));
        assert!(!differs(
            "fn solution(\n    a: HashMap<i32, (u8, u8)>,\n    b: [u8; 3],\n) -> i64 {"
        ));
        assert!(differs("fn solution(a: HashMap<i32, i32>) -> i64 { 0 }"));
        assert!(differs("fn solution() -> i64 { 0 }"));
        assert!(differs("fn solution(a: i32, b: i32, c: i32) -> i64 { 0 }"));
    }

    #[test]
    fn kotlin_parameter_types_are_compared_as_programmers_spells_them() {
        let signature = Signature::parse("solution(a: int[], b: string[][]) -> int").unwrap();
        let differs = |code: &str| kotlin_parameters_differ(code, &signature);
        assert_eq!(
            differs("fun solution(a: IntArray, b: Array<Array<String>>): Int {"),
            None
        );
        assert_eq!(
            differs("fun solution(a: Array<Int>, b: Array<Array<String>>): Int {").unwrap(),
            "solution(Array<Int>, Array<Array<String>>) is declared, but the judge calls \
             solution(IntArray, Array<Array<String>>) (`solution(a: int[], b: string[][]) -> int`)"
        );
    }
}

#[cfg(test)]
mod equivalence {
    use crate::toolchain::language::LANGUAGES;
    use crate::toolchain::signature::Signature;

    #[test]
    fn old_and_new_harnesses_are_byte_identical() {
        let scalars = ["int", "long", "double", "boolean", "string"];
        let mut types: Vec<String> = Vec::new();
        for s in scalars {
            types.push(s.to_owned());
            types.push(format!("{s}[]"));
            types.push(format!("{s}[][]"));
            types.push(format!("{s}[][][]"));
        }
        let mut signatures = Vec::new();
        for (i, returns) in types.iter().enumerate() {
            signatures.push(format!("solution() -> {returns}"));
            for (j, a) in types.iter().enumerate() {
                signatures.push(format!("f_{i}(a: {a}) -> {returns}"));
                let b = &types[(i + j) % types.len()];
                let c = &types[(i * 7 + j) % types.len()];
                signatures.push(format!("FUNCTION(x: {a}, y: {b}, z: {c}) -> {returns}"));
                signatures.push(format!("_go9(x: {a}, y: {b}) -> {returns}"));
            }
        }
        let users = ["solution.py", "solution_160585.js", "my sol \"x\".py", "é ü.js", "a\\b.py"];
        let mut compared = 0;
        for language in LANGUAGES {
            for text in &signatures {
                let signature = Signature::parse(text).unwrap();
                for user in users {
                    let old = super::source(language, &signature, user);
                    let new = super::super::harness::source(language, &signature, user);
                    assert_eq!(old, new, "{:?} {text} {user}", language.id);
                    compared += old.is_some() as usize;
                }
            }
        }
        eprintln!("compared {compared} harnesses");
        assert!(compared > 1000);
    }
}
