//! Handing one file in to an online judge as it is: static checks of what the judge would
//! refuse (a missing `main`, a crate it does not have, a class of the wrong name), the build
//! its own published command makes, and, for judges that call a function (Programmers'
//! `solution`), the form of that function and the text to paste. `judge check` prints what
//! these find; what each judge takes is `online_judges`.
//!
//! A function-form file keeps a small stdin adapter so that `judge` can run it on the cases;
//! the judge's harness never runs it. The adapter sits below a marker comment line, and
//! everything above that line is what gets pasted.

use std::path::Path;
use std::process::Command;

use super::language::{java_main_class, without_comments, Language, LanguageId, MainClass};
use super::online_judges::{CallForm, Offered, OnlineJudge};
use crate::error::{Error, Result};

/// A comment line holding this text starts the stdin adapter (`# --- stdin adapter ...` in
/// Python, `// --- stdin adapter ...` in the C family and Rust).
pub const ADAPTER_MARKER: &str = "--- stdin adapter";

/// Why a judge's own command did not build a file.
#[derive(Debug, thiserror::Error)]
pub enum JudgeBuildFailure {
    /// The compiler rejected the file; its message.
    #[error("{0}")]
    Rejected(String),
    /// The compiler could not be started.
    #[error("cannot run `{tool}`: {error}")]
    NotRun {
        /// The compiler's command.
        tool: String,
        /// What the system said.
        error: std::io::Error,
    },
}

/// Builds `file` alone in an empty folder with a judge's published command; why it did not
/// build when it does not. Not sandboxed: it is a compiler, as in `compiler`.
pub fn build_as(
    offer: &Offered,
    file: &Path,
    language: &Language,
) -> Result<Result<(), JudgeBuildFailure>> {
    let Some(command) = offer.compile else {
        return Ok(Ok(()));
    };
    let source = std::fs::read(file).map_err(|error| Error::io(file, error))?;
    let dir = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    // The judges compile a fixed file name: Main.<ext>, or the Java class's name.
    let extension = language.extensions[0];
    let file_name = match language.main_class == MainClass::JavaClass {
        true => format!(
            "{}.java",
            java_main_class(&String::from_utf8_lossy(&source)).unwrap_or_else(|| "Main".into())
        ),
        false => format!("Main.{extension}"),
    };
    let copy = dir.path().join(&file_name);
    std::fs::write(&copy, &source).map_err(|error| Error::io(&copy, error))?;
    let argv: Vec<String> = command
        .iter()
        .map(|part| {
            part.replace("{source}", &file_name)
                .replace("{exe}", "Main")
        })
        .collect();
    let output = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(dir.path())
        .output();
    Ok(match output {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(JudgeBuildFailure::Rejected(
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )),
        Err(error) => Err(JudgeBuildFailure::NotRun {
            tool: argv[0].clone(),
            error,
        }),
    })
}

/// The command of an offer as the user would type it, for messages.
pub fn shown_command(offer: &Offered, language: &Language) -> String {
    offer.compile.map_or_else(
        || "(no build step)".to_owned(),
        |command| {
            command
                .join(" ")
                .replace("{source}", &format!("Main.{}", language.extensions[0]))
                .replace("{exe}", "Main")
        },
    )
}

/// What the judge's harness would not find in a function-form file, one line each.
pub fn function_form_problems(source: &str, language: &Language, entry: CallForm) -> Vec<String> {
    let CallForm::Function { name } = entry else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let paste = pasted_part(source);
    let defines = match language.name {
        "Python 3" => paste.lines().any(|line| {
            line.strip_prefix("def ")
                .and_then(|rest| rest.trim_start().strip_prefix(name))
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        }),
        "Rust" => paste.contains(&format!("fn {name}(")),
        // C, C++, Java: a definition is the name, its parameters and a body.
        _ => paste.contains(&format!(" {name}(")),
    };
    if !defines {
        found.push(format!(
            "no `{name}` function above the adapter: the judge calls `{name}(...)`"
        ));
    } else if language.name == "Python 3" && paste.contains(&format!("def {name}()")) {
        found.push(format!(
            "`{name}` takes no parameter: the judge passes the test's arguments"
        ));
    }
    if !source.lines().any(is_marker) {
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

/// The text above the adapter's marker line (the whole source without one), trimmed at its
/// end: exactly what goes in the judge's editor.
pub fn pasted_part(source: &str) -> String {
    let mut kept = String::new();
    for line in source.lines() {
        if is_marker(line) {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    let end = kept.trim_end().len();
    kept.truncate(end);
    kept.push('\n');
    kept
}

fn is_marker(line: &str) -> bool {
    let line = line.trim_start();
    (line.starts_with('#') || line.starts_with("//")) && line.contains(ADAPTER_MARKER)
}

/// Crates every Rust judge has: the standard library's own.
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
        LanguageId::C | LanguageId::Cpp if !code.contains("main(") && !code.contains("main (") => {
            found.push("no `main` function".into());
        }
        LanguageId::Java => {
            if !has_words(&code, &["static", "void", "main"]) {
                found.push("no `public static void main`".into());
            }
            let class = java_main_class(&code);
            if let Some(wanted) = judge
                .java_class
                .filter(|wanted| class.as_deref() != Some(wanted))
            {
                found.push(format!(
                    "the class is `{}`: {} compiles {wanted}.java, so the class must be `public class {wanted}`",
                    class.as_deref().unwrap_or("?"),
                    judge.name,
                ));
            }
        }
        _ => {}
    }
    found
}

/// Whether `words` appear in this order, next to each other (whitespace between).
fn has_words(code: &str, words: &[&str]) -> bool {
    let tokens: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect();
    tokens.windows(words.len()).any(|window| window == words)
}

/// Crates named by `use NAME::`, `extern crate NAME` or a path `NAME::` at the start of an
/// item, that are not the standard library's.
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
    fn java_class_must_be_main_on_baekjoon() {
        let source = "public class Solution { public static void main(String[] a) {} }";
        assert_eq!(check("A.java", source, &BAEKJOON).len(), 1);
        assert!(check("A.java", source, &KATTIS).is_empty());
        assert!(check(
            "A.java",
            "public class Main { public static void main(String[] a) {} }",
            &BAEKJOON
        )
        .is_empty());
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
