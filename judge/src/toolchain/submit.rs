//! Submitting to a judge as it is: the builds a judge's own commands make, and, for judges
//! that call a function (Programmers' `solution`), the form of that function and the text
//! to paste. `judge check` prints what these find; the table of what each judge takes is
//! `judges`.
//!
//! A function-form file keeps a small stdin adapter so that `judge` can run it on the cases;
//! the judge's harness never runs it. The adapter sits below a marker comment line, and
//! everything above that line is what gets pasted.

use std::path::Path;
use std::process::Command;

use crate::error::{Error, Result};
use crate::toolchain::online_judges::{Entry, Offered};
use crate::toolchain::language::{java_main_class, Language};

/// A comment line holding this text starts the stdin adapter (`# --- stdin adapter ...` in
/// Python, `// --- stdin adapter ...` in the C family and Rust).
pub const ADAPTER_MARKER: &str = "--- stdin adapter";

/// Builds `file` alone in an empty folder with a judge's published command; the compiler's
/// message when it fails. Not sandboxed: it is a compiler, as in `compile`.
pub fn build_as(offer: &Offered, file: &Path, language: &Language) -> Result<Result<(), String>> {
    let Some(command) = offer.compile else {
        return Ok(Ok(()));
    };
    let source = std::fs::read(file).map_err(|error| Error::io(file, error))?;
    let dir = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    // The judges compile a fixed file name: Main.<ext>, or the Java class's name.
    let extension = language.extensions[0];
    let file_name = match language.main_class == crate::toolchain::language::MainClass::JavaClass {
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
        Ok(output) => Err(String::from_utf8_lossy(&output.stderr).into_owned()),
        Err(error) => Err(format!("cannot run `{}`: {error}", argv[0])),
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
pub fn function_form_problems(source: &str, language: &Language, entry: Entry) -> Vec<String> {
    let Entry::Function { name } = entry else {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let entry = Entry::Function { name: "solution" };
        assert!(function_form_problems(GOOD, python(), entry).is_empty());
    }

    #[test]
    fn a_program_is_not_a_function() {
        let entry = Entry::Function { name: "solution" };
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
        assert!(function_form_problems("", python(), Entry::Program).is_empty());
    }
}
