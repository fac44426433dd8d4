//! Static checks, for `judge check`, of what an online judge would refuse in a file handed
//! in as it is (no `main`, a crate it lacks, a wrongly named class), and for function-form
//! judges the function and the text to paste.
//!
//! A function-form file may end in a stdin adapter for local runs, below a marker comment
//! line; only what is above the marker gets pasted.

use super::language::{java_main_class, without_comments, Language, LanguageId};
use super::online_judges::{CallForm, OnlineJudge};

/// A `#` or `//` comment line holding this starts the stdin adapter.
pub const ADAPTER_MARKER: &str = "--- stdin adapter";

/// What the judge's harness would not find in a function-form file, one line each.
pub fn function_form_problems(source: &str, language: &Language, entry: CallForm) -> Vec<String> {
    let CallForm::Function { name } = entry else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let paste = pasted_part(source);
    if !super::harness::defines(language, &paste, name) {
        found.push(format!(
            "no `{name}` function above the adapter: the judge calls `{name}(...)`"
        ));
    } else if language.name == "Python 3" && paste.contains(&format!("def {name}()")) {
        found.push(format!(
            "`{name}` takes no parameter: the judge passes the test's arguments"
        ));
    }
    // A file of the function alone needs no marker: `judge` calls it itself.
    let function_alone = super::harness::needs_caller(language, source, name);
    if !source.lines().any(is_marker) && !function_alone {
        found.push(format!(
            "no `{ADAPTER_MARKER}` comment line: everything would be pasted, the stdin \
             adapter too"
        ));
    }
    let reads_stdin = [
        "input(",
        "sys.stdin",
        "System.in",
        "stdin()",
        "scanf",
        "cin >>",
    ];
    if let Some(call) = reads_stdin.iter().find(|call| paste.contains(*call)) {
        found.push(format!(
            "the part to paste reads stdin (`{call}`): the judge gives no input, it calls \
             `{name}`"
        ));
    }
    found
}

/// What goes in the judge's editor: the text above the marker line (all without one),
/// trimmed at its end.
pub fn pasted_part(source: &str) -> String {
    let kept: Vec<&str> = source.lines().take_while(|line| !is_marker(line)).collect();
    format!("{}\n", kept.join("\n").trim_end())
}

fn is_marker(line: &str) -> bool {
    let line = line.trim_start();
    (line.starts_with('#') || line.starts_with("//")) && line.contains(ADAPTER_MARKER)
}

/// Path roots every Rust judge has: the standard library's.
const STD_CRATES: &[&str] = &[
    "std",
    "core",
    "alloc",
    "crate",
    "self",
    "super",
    "proc_macro",
];

/// What will not work on the judge, one line each; empty when nothing was found.
pub fn problems_with(source: &str, language: &Language, judge: &OnlineJudge) -> Vec<String> {
    let mut found = Vec::new();
    let code = without_comments(source);
    // A judge that calls a function needs no entry point: the function alone is the file.
    let function_form = judge.entry != CallForm::Program;
    match language.id {
        LanguageId::Rust => {
            if !has_words(&code, &["fn", "main"]) {
                found.push(
                    "no `fn main`: the judge runs the program, it does not call a function".into(),
                );
            }
            for name in external_crates(&code) {
                found.push(format!("uses the crate `{name}`, which the judge does not have (standard library only)"));
            }
        }
        LanguageId::C | LanguageId::Cpp
            if !function_form && !code.contains("main(") && !code.contains("main (") =>
        {
            found.push("no `main` function".into());
        }
        LanguageId::Java => {
            if !function_form && !has_words(&code, &["static", "void", "main"]) {
                found.push("no `public static void main`".into());
            }
            // A program's file rules are checked by its build (`Sources::refused`).
            if let Some(class) = judge.java_class.filter(|_| function_form) {
                found.extend(java_file_problems(&code, class, judge.name, true));
            }
        }
        _ => {}
    }
    found
}

/// Why a judge that compiles `<class>.java` and runs `class` (or, when it `calls` a function,
/// calls a method of `class`) refuses a Java file: a public class of another name (a javac
/// error), no class `class`, or a `package` line (the class would not be found where the
/// judge looks for it).
pub fn java_file_problems(source: &str, class: &str, judge: &str, calls: bool) -> Vec<String> {
    let code = without_comments(source);
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|word| !word.is_empty())
        .collect();
    let mut found = Vec::new();
    if let Some(line) = code
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("package ") && line.ends_with(';'))
    {
        found.push(format!(
            "`{line}`: {judge} compiles {class}.java in no package, so a package line is a \
             compile error there (remove it)"
        ));
    }
    let public_classes = words
        .windows(3)
        .filter(|three| three[0] == "public" && three[1] == "class")
        .map(|three| three[2]);
    if let Some(other) = public_classes.into_iter().find(|name| *name != class) {
        found.push(format!(
            "the public class is `{other}`: {judge} compiles {class}.java, so the class must \
             be `{class}`"
        ));
    } else if !words.windows(2).any(|two| two == ["class", class]) {
        let declared = java_main_class(&code).unwrap_or_else(|| "none".into());
        let how = match calls {
            true => format!("calls the function on a new `{class}`"),
            false => format!("runs `java {class}`"),
        };
        found.push(format!(
            "no class `{class}` (the class is `{declared}`): {judge} {how}"
        ));
    }
    found
}

/// Whether `words` appear in this order, next to each other.
fn has_words(code: &str, words: &[&str]) -> bool {
    let tokens: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect();
    tokens.windows(words.len()).any(|window| window == words)
}

/// Crates other than the standard library's named by `use NAME::` or `extern crate NAME`.
fn external_crates(code: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in code.lines().map(str::trim) {
        let named = line
            .strip_prefix("use ")
            .or_else(|| line.strip_prefix("pub use "))
            .map(|rest| rest.trim_start_matches("::"))
            .and_then(|rest| {
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
            })
            .or_else(|| {
                line.strip_prefix("extern crate ").map(|rest| {
                    rest.trim_end_matches(';')
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                })
            });
        if let Some(name) = named.filter(|name| !name.is_empty() && !STD_CRATES.contains(name)) {
            if !names.iter().any(|known| known == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::online_judges::{BAEKJOON, KATTIS};
    use std::path::Path;

    fn check(file: &str, source: &str, judge: &OnlineJudge) -> Vec<String> {
        problems_with(source, Language::of(Path::new(file)).unwrap(), judge)
    }

    #[test]
    fn rust_needs_main_and_std_only() {
        assert!(check("a.rs", "use std::io::Read;\nfn main() {}\n", &BAEKJOON).is_empty());
        let found = check(
            "a.rs",
            "use regex::Regex;\nextern crate rand;\nuse std::io;\n",
            &BAEKJOON,
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("no `fn main`"));
        assert!(found[1].contains("`regex`") && found[2].contains("`rand`"));
        assert!(
            check("a.rs", "// use regex::Regex;\nfn main() {}\n", &BAEKJOON).is_empty(),
            "comments do not count"
        );
    }

    #[test]
    fn java_files_must_be_the_class_the_judge_runs() {
        let found = |source: &str| java_file_problems(source, "Main", "Baekjoon", false);
        let main = "import java.util.*;\nclass Helper {}\npublic class Main {\n  static class Node {}\n  public static void main(String[] a) {}\n}\n";
        assert!(found(main).is_empty(), "{:?}", found(main));
        assert!(found("class Main { public static void main(String[] a) {} }").is_empty());
        let other = found("public class Solution { public static void main(String[] a) {} }");
        assert_eq!(other.len(), 1);
        assert!(other[0].contains("public class is `Solution`"), "{other:?}");
        let unnamed = found("class Solution { public static void main(String[] a) {} }");
        assert!(unnamed[0].contains("no class `Main`"), "{unnamed:?}");
        let packaged = found(&format!("package boj;\n{main}"));
        assert_eq!(packaged.len(), 1);
        assert!(packaged[0].starts_with("`package boj;`"), "{packaged:?}");
        assert!(found(&format!("// package boj;\n{main}")).is_empty());
        let source = "public class Solution { public static void main(String[] a) {} }";
        assert!(check("A.java", source, &KATTIS).is_empty());
    }

    #[test]
    fn c_needs_main() {
        assert!(check("a.c", "int main(void) { return 0; }", &BAEKJOON).is_empty());
        assert_eq!(
            check("a.cpp", "int solve() { return 0; }", &BAEKJOON).len(),
            1
        );
    }

    const GOOD: &str = "def solution(board):\n    return len(board)\n\n\n# --- stdin adapter: not submitted\nimport sys\nprint(solution(sys.stdin.read().split()))\n";

    fn python() -> &'static Language {
        Language::of(Path::new("a.py")).unwrap()
    }

    #[test]
    fn the_paste_stops_at_the_marker() {
        assert_eq!(
            pasted_part(GOOD),
            "def solution(board):\n    return len(board)\n"
        );
        let entry = CallForm::Function { name: "solution" };
        assert!(function_form_problems(GOOD, python(), entry).is_empty());
    }

    #[test]
    fn a_program_is_not_a_function() {
        let entry = CallForm::Function { name: "solution" };
        let found =
            function_form_problems("import sys\nprint(sys.stdin.read())\n", python(), entry);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("no `solution` function"));
        assert!(found[1].contains(ADAPTER_MARKER));
        assert!(found[2].contains("sys.stdin"));
        let no_parameter = GOOD.replace("solution(board)", "solution()");
        assert_eq!(
            function_form_problems(&no_parameter, python(), entry).len(),
            1
        );
        assert!(function_form_problems("", python(), CallForm::Program).is_empty());
    }
}
