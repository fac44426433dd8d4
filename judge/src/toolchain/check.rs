//! `judge check`: will this one file work on the online judge as it is? Static checks of the
//! source (here); the build alone in an empty folder and the cases are run by the command.

use crate::toolchain::language::{java_main_class, without_comments, Language, LanguageId};
use crate::problem::profile::Profile;

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
pub fn problems_with(source: &str, language: &Language, profile: Profile) -> Vec<String> {
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
            let judge = crate::toolchain::online_judges::Judge::of(profile);
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
    use std::path::Path;

    use super::*;

    fn check(file: &str, source: &str, profile: Profile) -> Vec<String> {
        problems_with(source, Language::of(Path::new(file)).unwrap(), profile)
    }

    #[test]
    fn rust_needs_main_and_std_only() {
        assert!(check("a.rs", "use std::io::Read;\nfn main() {}\n", Profile::Boj).is_empty());
        let found = check(
            "a.rs",
            "use regex::Regex;\nextern crate rand;\nuse std::io;\n",
            Profile::Boj,
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("no `fn main`"));
        assert!(found[1].contains("`regex`") && found[2].contains("`rand`"));
        assert!(
            check("a.rs", "// use regex::Regex;\nfn main() {}\n", Profile::Boj).is_empty(),
            "comments do not count"
        );
    }

    #[test]
    fn java_class_must_be_main_on_baekjoon() {
        let source = "public class Solution { public static void main(String[] a) {} }";
        assert_eq!(check("A.java", source, Profile::Boj).len(), 1);
        assert!(check("A.java", source, Profile::Kattis).is_empty());
        assert!(check(
            "A.java",
            "public class Main { public static void main(String[] a) {} }",
            Profile::Boj
        )
        .is_empty());
    }

    #[test]
    fn c_needs_main() {
        assert!(check("a.c", "int main(void) { return 0; }", Profile::Boj).is_empty());
        assert_eq!(
            check("a.cpp", "int solve() { return 0; }", Profile::Boj).len(),
            1
        );
    }
}
