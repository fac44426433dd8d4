//! The caller the judge writes for a function-form file with no entry point of its own: a
//! program in the file's language that reads one call per input line (JSON literals
//! separated by commas, as the judge's page writes them), calls the function, prints each
//! result as the page shows it, and reports each call's CPU time (`CALL_TIMES`) so that the
//! limit applies per call. The user's file is built unchanged beside it.

use super::language::{Language, LanguageId};
use super::signature::{Signature, Type};
use declared::Definition;

mod declared;
mod state;

/// Starts the last line of a harness's stderr: each call's CPU time in microseconds,
/// separated by commas.
pub const CALL_TIMES: &str = "judge-call-cpu-us=";

/// Where a language's caller goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallerPlacement {
    /// A file of its own beside the user's, named as no user's file is, started as the
    /// program (on the JVM, by its class).
    Beside {
        file: &'static str,
        class: Option<&'static str>,
    },
    /// After the user's last line, so its lines keep their numbers in compiler messages:
    /// Rust cannot call another file's private function, and `include!` refuses a file that
    /// opens with `//!` or `#![...]`; in C++ the compiler then picks the function as a caller
    /// in the file would (a `const&` parameter, `auto`, an overload).
    Appended,
}

/// `None` for a language the judge writes no caller for.
pub fn caller_placement(language: &Language) -> Option<CallerPlacement> {
    let beside = |file, class| CallerPlacement::Beside { file, class };
    Some(match language.id {
        LanguageId::Python3 => beside("judge_call.py", None),
        LanguageId::JavaScript => beside("judge_call.js", None),
        LanguageId::Java => beside("JudgeCall.java", Some(JAVA_CLASS)),
        LanguageId::Cpp | LanguageId::C => CallerPlacement::Appended,
        LanguageId::Kotlin => beside("JudgeCall.kt", Some("JudgeCallKt")),
        LanguageId::Rust => CallerPlacement::Appended,
        _ => return None,
    })
}

/// The class the JVM starts (Java's harness).
pub const JAVA_CLASS: &str = "JudgeCall";

/// What reads standard input in Python: a call of `input`, or of a `sys.stdin` method, its
/// bytes, a loop over its lines, or file 0 opened.
const PYTHON_READS: [&str; 8] = [
    "input(",
    "stdin.read(",
    "stdin.readline(",
    "stdin.readlines(",
    "stdin.buffer",
    "in sys.stdin",
    "in stdin",
    "open(0",
];

/// Whether the judge calls the file's `function`: when the file is the function alone, with
/// no entry point of its own (a `main`, code that reads stdin, our stdin adapter). Where the
/// file defines it, a `main` kept for trying the file at home is not one in Java and Kotlin
/// (the site's caller is the program), nor a Python `__main__` block that reads no input.
pub fn needs_caller(language: &Language, code: &str, function: &str) -> bool {
    let defined = defines(language, code, function);
    if defined && matches!(language.id, LanguageId::Java | LanguageId::Kotlin) {
        return true;
    }
    // Found as a declaration, not as text (`remain(`, `domain(`).
    if matches!(
        language.id,
        LanguageId::Cpp | LanguageId::C | LanguageId::Rust | LanguageId::Kotlin
    ) && !declared::definitions(language.id, code, Some("main")).is_empty()
        && !(defined && kept_main(language, code))
    {
        return false;
    }
    let code = super::language::without_comments(code);
    // Reads, not names: `input = sys.stdin.readline`, a Baekjoon habit, reads nothing.
    let own_entry: &[&str] = match language.id {
        // A `__main__` block is the entry point of a file that does not define the function.
        LanguageId::Python3 if !defined && code.contains("__main__") => return false,
        LanguageId::Python3 => &PYTHON_READS,
        LanguageId::JavaScript => &["process.stdin", "readFileSync", "readline"],
        LanguageId::Java => &["static void main"],
        LanguageId::Kotlin | LanguageId::Cpp | LanguageId::C | LanguageId::Rust => &[],
        // The languages `placement` names.
        _ => return false,
    };
    !reads_any(&code, own_entry)
}

/// Whether `code` names any of `entries` as a word of its own (`user_input(` is no call of
/// `input(`, `sscanf` no `scanf`); one with a dot anywhere.
fn reads_any(code: &str, entries: &[&str]) -> bool {
    entries.iter().any(|entry| {
        code.match_indices(entry).any(|(at, _)| {
            !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
                || entry.contains('.')
        })
    })
}

/// Whether a C or C++ file's `main` is only for trying the function at home: it never reads
/// standard input, so it is no program of the judge's input (Programmers takes such files,
/// and runs its own caller).
fn kept_main(language: &Language, code: &str) -> bool {
    const READS: [&str; 5] = ["cin", "scanf", "getchar", "stdin", "gets"];
    matches!(language.id, LanguageId::Cpp | LanguageId::C)
        && !reads_any(&super::language::without_comments(code), &READS)
}

/// What goes before the user's first line: a C or C++ `main` kept for trying the file is
/// renamed, so that the caller appended after the last line is the program (`#line` keeps
/// the user's line numbers in compiler messages).
pub fn prelude(language: &Language, code: &str) -> Option<&'static str> {
    let has_main = !declared::definitions(language.id, code, Some("main")).is_empty();
    (has_main && kept_main(language, code)).then_some("#define main judge_user_main\n#line 1\n")
}

/// Why the file cannot be called as `signature` says: no function of that name (with the
/// closest definition), or none of that name taking the parameters the judge passes.
pub fn missing_function(language: &Language, code: &str, signature: &Signature) -> Option<String> {
    let name = &signature.name;
    let found: Vec<Definition> = declared::definitions(language.id, code, Some(name))
        .into_iter()
        .filter(|definition| definition.body)
        .collect();
    if found.is_empty() {
        let closest = declared::closest(language.id, code, name);
        return Some(format!(
            "no function `{name}`: the judge calls `{signature}`; {closest}"
        ));
    }
    // Overloads: the compiler picks one, so the file is refused only when none can be it.
    let differs = |definition: &Definition| match language.id {
        LanguageId::Java => java_parameters_differ(definition, signature),
        LanguageId::Rust => rust_parameters_differ(definition, signature),
        LanguageId::Kotlin => kotlin_parameters_differ(definition, signature),
        _ => None,
    };
    let reasons: Vec<String> = found.iter().filter_map(differs).collect();
    (reasons.len() == found.len())
        .then(|| reasons.join("\n"))
        .filter(|r| !r.is_empty())
}

/// The trimmed parameters from `code[start..]`, just after a `(`, to its `)`, split at
/// top-level commas (not those of `HashMap<i32, i32>` or `(u8, u8)`); a trailing comma adds
/// none.
pub(super) fn parameter_list(code: &str, start: usize) -> Vec<String> {
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

/// Said here because rustc would point at the caller's line.
fn rust_parameters_differ(definition: &Definition, signature: &Signature) -> Option<String> {
    let found = definition.parameters.len();
    let wanted = signature.parameters.len();
    (found != wanted).then(|| {
        format!(
            "line {}: fn {}() takes {found} parameters, but the judge calls it with {wanted} (`{signature}`)",
            definition.line, signature.name
        )
    })
}

/// Types as Programmers' Kotlin templates spell them (`IntArray` for `int[]`).
fn kotlin_parameters_differ(definition: &Definition, signature: &Signature) -> Option<String> {
    let found: Vec<String> = definition
        .parameters
        .iter()
        .map(|parameter| {
            let kind = parameter.split_once(':').map_or("", |(_, kind)| kind);
            unqualified(&kind.split_whitespace().collect::<String>())
        })
        .collect();
    types_differ((definition.line, found), signature, kotlin_type)
}

/// What to say when the parameter types `found` (on `line`) are not those the judge passes,
/// spelled by `spell`.
fn types_differ(
    (line, found): (usize, Vec<String>),
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
            "line {line}: {}({}) is declared, but the judge calls {}({}) (`{signature}`)",
            signature.name,
            found.join(", "),
            signature.name,
            wanted.join(", ")
        )
    })
}

/// In any form its language allows.
pub fn defines(language: &Language, code: &str, name: &str) -> bool {
    declared::definitions(language.id, code, Some(name))
        .iter()
        .any(|definition| definition.body)
}

/// Said here because javac's message would name the caller's line, not the user's method.
fn java_parameters_differ(definition: &Definition, signature: &Signature) -> Option<String> {
    let found: Vec<String> = (definition.parameters.iter())
        .map(|parameter| java_parameter_type(parameter))
        .collect();
    types_differ((definition.line, found), signature, java_type)
}

/// A Java parameter's type as javac reads it, spaces out: `final`, annotations and the name
/// left out, brackets after the name (`int a[]`) and varargs (`int... a`, which takes an
/// array) as array brackets, and packages left out (`java.lang.String`).
fn java_parameter_type(parameter: &str) -> String {
    let mut text = String::new();
    let mut rest = parameter;
    // `@Name` and its `(...)`, if any.
    while let Some(at) = rest.find('@') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_end = (after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')))
            .unwrap_or(after.len());
        rest = &after[name_end..];
        if let Some(arguments) = rest.trim_start().strip_prefix('(') {
            rest = arguments.split_once(')').map_or("", |(_, after)| after);
        }
    }
    text.push_str(rest);
    let words: Vec<&str> = text.split_whitespace().filter(|w| *w != "final").collect();
    let text = words.join(" ").replace("...", "[]");
    // The brackets after the name belong to the type.
    let mut body = text.trim_end();
    let mut dims = String::new();
    while let Some(before) = body
        .strip_suffix(']')
        .and_then(|b| b.trim_end().strip_suffix('['))
    {
        dims.push_str("[]");
        body = before.trim_end();
    }
    let name_start = (body.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')))
        .map_or(0, |at| at + 1);
    let kind: String = body[..name_start].split_whitespace().collect();
    unqualified(&(kind + &dims))
}

/// `kind` with each name's qualifier left out: `java.util.List<java.lang.Integer>` is
/// `List<Integer>`, `kotlin.Array<kotlin.String>` `Array<String>`.
fn unqualified(kind: &str) -> String {
    let mut out = String::with_capacity(kind.len());
    for character in kind.chars() {
        if character == '.' {
            let name_start =
                (out.rfind(|c: char| !(c.is_alphanumeric() || c == '_'))).map_or(0, |at| at + 1);
            out.truncate(name_start);
        } else {
            out.push(character);
        }
    }
    out
}

/// The caller's source for `language`, calling the function of `user_file` (text `code`).
/// The C++ and Rust callers fork a child per call only where the file may keep state between
/// calls (`state::may_keep_state`): a fork costs far more than most calls.
pub fn source(
    language: &Language,
    signature: &Signature,
    user_file: &str,
    code: &str,
) -> Option<String> {
    let fork_each_call = || state::may_keep_state(language.id, code);
    Some(match language.id {
        LanguageId::Python3 => script(PYTHON, signature, user_file),
        LanguageId::JavaScript => script(JAVASCRIPT, signature, user_file),
        LanguageId::Java => java(signature),
        LanguageId::Cpp => cpp(signature, fork_each_call()),
        LanguageId::C => c(signature),
        LanguageId::Kotlin => kotlin(signature),
        LanguageId::Rust => rust(signature, fork_each_call()),
        _ => return None,
    })
}

/// `template` with placeholders replaced in one pass, so that a value (a user's file name)
/// is never searched for placeholders. Placeholders are identifiers or comments, so the
/// template stays valid source in its language. Every template names the function and
/// marks the call times.
fn fill(template: &str, signature: &Signature, values: &[(&str, &str)]) -> String {
    let common = [
        ("FUNCTION_NAME", signature.name.as_str()),
        ("CALL_TIMES_MARKER", CALL_TIMES),
    ];
    let mut filled = String::with_capacity(template.len());
    let mut rest = template;
    loop {
        let next = common
            .iter()
            .chain(values)
            .filter_map(|&(placeholder, value)| Some((rest.find(placeholder)?, placeholder, value)))
            .min_by_key(|&(at, _, _)| at);
        let Some((at, placeholder, value)) = next else {
            break;
        };
        filled.push_str(&rest[..at]);
        filled.push_str(value);
        rest = &rest[at + placeholder.len()..];
    }
    filled.push_str(rest);
    filled
}

/// Replaced, newline and all, by one read per parameter.
const READ_ARGUMENTS: &str = "        // READ_ARGUMENTS\n";

/// The Python and JavaScript callers, which run the user's file themselves.
fn script(template: &str, signature: &Signature, user_file: &str) -> String {
    // Python's only: which parameters take a float.
    let doubles: Vec<&str> = signature
        .parameters
        .iter()
        .map(|(_, kind)| match kind.depth().1 {
            Type::Double => "True",
            _ => "False",
        })
        .collect();
    fill(
        template,
        signature,
        &[
            ("USER_FILE", &string_literal(user_file)),
            ("PARAMETER_COUNT", &signature.parameters.len().to_string()),
            ("CALLED_SIGNATURE", &signature.to_string()),
            ("DOUBLE_FLAGS", &doubles.join(", ")),
        ],
    )
}

const PYTHON: &str = include_str!("harness/judge_call.py");
const JAVASCRIPT: &str = include_str!("harness/judge_call.js");

/// A string literal Python and JavaScript both read (JSON: Rust's `{:?}` writes `\u{2005}`,
/// which Python refuses).
fn string_literal(text: &str) -> String {
    serde_json::to_string(text).expect("a string is always JSON")
}
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

/// A Java expression converting the parsed literal `value` to `kind`.
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
    // Boxed primitives: the cast from `Object` unboxes, and javac still picks among
    // overloads as for the primitive.
    let invoked: Vec<String> = signature
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| {
            let boxed = match kind {
                Type::Int => "Integer".into(),
                Type::Long => "Long".into(),
                Type::Double => "Double".into(),
                Type::Boolean => "Boolean".into(),
                other => java_type(other),
            };
            format!("({boxed}) a[{i}]")
        })
        .collect();
    fill(
        JAVA,
        signature,
        &[
            ("CALL_ARGUMENTS", &arguments.join(", ")),
            ("INVOKE_ARGUMENTS", &invoked.join(", ")),
            ("    // CONVERSION_HELPERS", &helpers.concat()),
        ],
    )
}

const JAVA: &str = include_str!("harness/JudgeCall.java");

/// By value, as Programmers' C++ templates take parameters.
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

fn cpp(signature: &Signature, fork_each_call: bool) -> String {
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
    forking(CPP, signature, &reads, fork_each_call)
}

/// The C++ and Rust callers: `reads` binds the arguments `a0`, `a1`, ..., passed as lvalues
/// (they bind to a parameter taken by value, by `const&` or by `&`).
fn forking(template: &str, signature: &Signature, reads: &str, fork_each_call: bool) -> String {
    let arguments: Vec<String> = (0..signature.parameters.len())
        .map(|i| format!("a{i}"))
        .collect();
    fill(
        template,
        signature,
        &[
            ("FORK_EACH_CALL", &fork_each_call.to_string()),
            (READ_ARGUMENTS, reads),
            ("CALL_ARGUMENTS", &arguments.join(", ")),
        ],
    )
}

const CPP: &str = include_str!("harness/judge_call.cpp");

/// A scalar as Programmers' C templates spell it, and the caller's reader of one.
fn c_scalar(kind: &Type) -> (&'static str, &'static str) {
    match kind {
        Type::Int => ("int", "int"),
        Type::Long => ("long long", "long"),
        Type::Double => ("double", "double"),
        Type::Boolean => ("bool", "bool"),
        Type::String => ("char*", "string"),
        Type::Array(_) => unreachable!("depth() ends at a scalar"),
    }
}

/// Passes arguments as Programmers does (an array with its `_len`, a table with `_rows` and
/// `_cols`); a signature C cannot be called with becomes an `#error` saying so.
fn c(signature: &Signature) -> String {
    let mut reads = String::new();
    let mut arguments = Vec::new();
    let unsupported = |what: &str| {
        format!(
            "#error \"the judge has no C caller for {what}: Programmers' C template passes \
             arrays with their lengths, and returns an array whose length only its grader knows\"\n"
        )
    };
    if matches!(signature.returns, Type::Array(_)) {
        return unsupported("a function that returns an array");
    }
    for (i, (_, kind)) in signature.parameters.iter().enumerate() {
        let (depth, scalar) = kind.depth();
        let (c_type, reader) = c_scalar(scalar);
        let read = format!("&c, sizeof({c_type}), judge_call_read_{reader}");
        match depth {
            0 => {
                reads +=
                    &format!("            {c_type} a{i}; judge_call_read_{reader}(&c, &a{i});\n");
                arguments.push(format!("a{i}"));
            }
            1 => {
                reads += &format!(
                    "            size_t a{i}_len; void* a{i} = judge_call_list({read}, &a{i}_len);\n"
                );
                arguments.push(format!("a{i}, a{i}_len"));
            }
            2 => {
                reads += &format!(
                    "            size_t a{i}_rows, a{i}_cols;\n            \
                     void* a{i} = judge_call_table({read}, &a{i}_rows, &a{i}_cols);\n"
                );
                arguments.push(format!("a{i}, a{i}_rows, a{i}_cols"));
            }
            _ => return unsupported("an array of more than two dimensions"),
        }
        reads += "            judge_call_comma(&c);\n";
    }
    fill(
        C,
        signature,
        &[
            (READ_ARGUMENTS, &reads),
            ("CALL_ARGUMENTS", &arguments.join(", ")),
        ],
    )
}

const C: &str = include_str!("harness/judge_call.c");

/// As Programmers' Kotlin templates spell it (`IntArray` for `int[]`).
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

/// A Kotlin expression converting the parsed literal `value` (`Any?`) to `kind`.
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
    // Converted before the call, by the caller's own classes; the call only casts back.
    let invoked: Vec<String> = signature
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| format!("a[{i}] as {}", kotlin_type(kind)))
        .collect();
    fill(
        KOTLIN,
        signature,
        &[
            ("CALL_ARGUMENTS", &arguments.join(", ")),
            ("INVOKE_ARGUMENTS", &invoked.join(", ")),
        ],
    )
}

const KOTLIN: &str = include_str!("harness/JudgeCall.kt");

fn rust(signature: &Signature, fork_each_call: bool) -> String {
    let reads: String = (0..signature.parameters.len())
        .map(|i| {
            format!("        let a{i} = judge_call::Read::read(&mut c);\n        c.comma();\n")
        })
        .collect();
    forking(RUST, signature, &reads, fork_each_call)
}

/// Appended after the user's last line; each argument's type is inferred from the parameter.
const RUST: &str = include_str!("harness/judge_call.rs.txt");

#[cfg(test)]
pub(crate) mod builds;

#[cfg(test)]
mod tests {
    use super::*;

    fn language(id: LanguageId) -> &'static Language {
        super::super::language::LANGUAGES
            .iter()
            .find(|l| l.id == id)
            .unwrap()
    }

    #[test]
    fn the_cpp_and_rust_callers_fork_only_for_a_file_that_may_keep_state() {
        let signature = Signature::parse("solution(n: int) -> int").unwrap();
        let caller = |id, code: &str| source(language(id), &signature, "f", code).unwrap();
        let cpp = "int solution(int n) { return n; }";
        assert!(caller(LanguageId::Cpp, cpp).contains("if (!false)"));
        let cpp = "int calls;\nint solution(int n) { return calls++; }";
        assert!(caller(LanguageId::Cpp, cpp).contains("if (!true)"));
        let rust = "fn solution(n: i32) -> i32 { n }";
        assert!(caller(LanguageId::Rust, rust).contains("if !false"));
        let rust = "static mut CALLS: i32 = 0;\nfn solution(n: i32) -> i32 { n }";
        assert!(caller(LanguageId::Rust, rust).contains("if !true"));
    }

    #[test]
    fn a_rust_parameter_list_is_counted_at_its_top_level() {
        let signature = Signature::parse("solution(a: int[], b: int) -> int").unwrap();
        let differs =
            |code: &str| missing_function(language(LanguageId::Rust), code, &signature).is_some();
        assert!(!differs("fn solution(a: Vec<i64>, b: i64) -> i64 { 0 }"));
        assert!(!differs(
            "fn solution(\n    a: HashMap<i32, (u8, u8)>,\n    b: [u8; 3],\n) -> i64 {"
        ));
        assert!(differs("fn solution(a: HashMap<i32, i32>) -> i64 { 0 }"));
        assert!(differs("fn solution() -> i64 { 0 }"));
        assert!(differs("fn solution(a: i32, b: i32, c: i32) -> i64 { 0 }"));
    }

    #[test]
    fn a_file_has_its_own_entry_only_where_it_declares_or_reads_one() {
        let cpp = language(LanguageId::Cpp);
        assert!(needs_caller(
            cpp,
            "int remain(int x) { return x % 3; }\nint solution(int n) { return remain(n); }",
            "solution"
        ));
        assert!(!needs_caller(
            cpp,
            "int solution(int n) { return n; }\nsigned\nmain() { int n; std::cin >> n; }",
            "solution"
        ));
        // A `main` that reads nothing is kept for trying the file: renamed, and called past.
        let tried = "int solution(int n) { return n; }\nint main() { return solution(3) != 3; }";
        assert!(needs_caller(cpp, tried, "solution"));
        assert!(prelude(cpp, tried).is_some());
        let scans = "int solution(int n) { return n; }\nint main() { int n; scanf(\"%d\", &n); }";
        assert!(!needs_caller(language(LanguageId::C), scans, "solution"));
        let parses =
            "int solution(int n) { return n; }\nint main() { int n; sscanf(\"3\", \"%d\", &n); }";
        assert!(needs_caller(language(LanguageId::C), parses, "solution"));
        let python = language(LanguageId::Python3);
        assert!(needs_caller(
            python,
            "def user_input(x):\n    return x\n\ndef solution(b):\n    return user_input(b)\n",
            "solution"
        ));
        assert!(!needs_caller(python, "n = int(input())\n", "solution"));
        let tried_at_home = "def solution(b):\n    return b\n\nif __name__ == \"__main__\":\n    print(solution(1))\n";
        assert!(needs_caller(python, tried_at_home, "solution"));
        let adapter = "def solution(b):\n    return b\n\nif __name__ == \"__main__\":\n    print(solution(input()))\n";
        assert!(!needs_caller(python, adapter, "solution"));
        // Naming `sys.stdin` reads nothing; reading it does.
        let aliased = "import sys\ninput = sys.stdin.readline\n\ndef solution(b):\n    return b\n";
        assert!(needs_caller(python, aliased, "solution"));
        for reads in [
            "sys.stdin.read()",
            "sys.stdin.readline()",
            "[l for l in sys.stdin]",
        ] {
            let program =
                format!("import sys\ndef solution(b):\n    return b\nprint(solution({reads}))\n");
            assert!(!needs_caller(python, &program, "solution"), "{reads}");
        }
        assert!(!needs_caller(
            python,
            "print(len(open(0).read()))\n",
            "solution"
        ));
        let rust = language(LanguageId::Rust);
        assert!(needs_caller(
            rust,
            "fn domain(x: i64) -> i64 { x }\nfn solution(n: i64) -> i64 { domain(n) }",
            "solution"
        ));
        assert!(!needs_caller(rust, "fn main() {\n}\n", "solution"));
        // Programmers starts its own caller: a `main` beside the function is not the program.
        let java = language(LanguageId::Java);
        let both = "class Solution {\n    public int solution(int n) { return n; }\n    \
                    public static void main(String[] a) { System.out.println(1); }\n}\n";
        assert!(needs_caller(java, both, "solution"));
        assert!(!needs_caller(java, both, "answer"));
    }

    #[test]
    fn the_java_caller_declares_the_class_the_jvm_starts() {
        assert!(JAVA.contains(&format!("\npublic class {JAVA_CLASS} {{\n")));
    }

    #[test]
    fn a_java_parameters_type_is_read_as_javac_reads_it() {
        for parameter in [
            "String[] words",
            "String []words",
            "String words[]",
            "String[]words",
            "String words [ ]",
            "String... words",
            "java.lang.String[] words",
            "final String[] words",
            "@Deprecated String[] words",
            "@SuppressWarnings(\"unused\") final String words[]",
        ] {
            assert_eq!(java_parameter_type(parameter), "String[]", "{parameter}");
        }
        assert_eq!(java_parameter_type("int[] a[]"), "int[][]");
        assert_eq!(
            java_parameter_type("java.util.List<java.lang.Integer> a"),
            "List<Integer>"
        );
        let signature = Signature::parse("solution(words: string[]) -> int").unwrap();
        let differs = |code: &str| missing_function(language(LanguageId::Java), code, &signature);
        assert_eq!(
            differs("class Solution { int solution(String words[]) { return 0; } }"),
            None
        );
        assert_eq!(
            differs("class Solution { int solution(String words) { return 0; } }").unwrap(),
            "line 1: solution(String) is declared, but the judge calls solution(String[]) \
             (`solution(words: string[]) -> int`)"
        );
    }

    #[test]
    fn kotlin_parameter_types_are_compared_as_programmers_spells_them() {
        let signature = Signature::parse("solution(a: int[], b: string[][]) -> int").unwrap();
        let differs = |code: &str| missing_function(language(LanguageId::Kotlin), code, &signature);
        assert_eq!(
            differs("fun solution(a: IntArray, b: Array<Array<String>>): Int {"),
            None
        );
        let qualified =
            "fun solution(a: kotlin.IntArray, b: kotlin.Array<Array<kotlin.String>>) = 0";
        assert_eq!(differs(qualified), None);
        assert_eq!(
            differs("fun solution(a: Array<Int>, b: Array<Array<String>>): Int {").unwrap(),
            "line 1: solution(Array<Int>, Array<Array<String>>) is declared, but the judge calls \
             solution(IntArray, Array<Array<String>>) (`solution(a: int[], b: string[][]) -> int`)"
        );
    }
}
