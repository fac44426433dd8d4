//! Finding the function the judge calls in a user's file, in any form its language allows
//! (`auto f(...) -> T`, `const f = (...) =>`, `f = lambda`, Kotlin's expression bodies, ...).
//! Only where it is and its parameters' text are found; the compiler (or, for Python and
//! JavaScript, the caller at run time) decides the call itself.

use crate::toolchain::language::{without_comments, LanguageId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    /// From 1.
    pub line: usize,
    pub parameters: Vec<String>,
    /// `false` for a prototype (C++ `int f(int);`), which defines nothing.
    pub body: bool,
}

/// Every definition (and, in C++, declaration) of a function named `wanted`, or of every
/// function when `None`.
pub fn definitions(id: LanguageId, code: &str, wanted: Option<&str>) -> Vec<Definition> {
    let code = match id {
        LanguageId::Python3 => code.to_owned(),
        _ => without_comments(code),
    };
    match id {
        LanguageId::Python3 => python(&code, wanted),
        LanguageId::JavaScript => javascript(&code, wanted),
        _ => c_family(id, &code, wanted),
    }
}

fn is_identifier(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

fn identifiers(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &code[at..];
        let start = at + rest.find(|c: char| is_identifier(c))?;
        let length = code[start..]
            .find(|c: char| !is_identifier(c))
            .unwrap_or(code.len() - start);
        at = start + length;
        Some((start, &code[start..at]))
    })
    .filter(|(start, _)| !code[..*start].ends_with(|c: char| c.is_ascii_digit()))
}

fn line_of(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// The offset just past the `)` closing the list that opens at `open` (a `(`).
fn closing(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (offset, c) in code[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Functions in C++, Java, Kotlin and Rust: a name and parameter list, then a body (a `{`,
/// or Kotlin's `=`) before any `;` or `)`, and before the name what a declaration has there
/// (a type, `fn`, `fun`), not an operator or a call's `.`.
fn c_family(id: LanguageId, code: &str, wanted: Option<&str>) -> Vec<Definition> {
    let keyword = match id {
        LanguageId::Rust => Some("fn"),
        LanguageId::Kotlin => Some("fun"),
        _ => None,
    };
    let mut found = Vec::new();
    let mut previous = "";
    for (at, name) in identifiers(code) {
        let before = std::mem::replace(&mut previous, name);
        if wanted.is_some_and(|wanted| wanted != name) {
            continue;
        }
        let after = at + name.len();
        let open = after + code[after..].len() - code[after..].trim_start().len();
        if !code[open..].starts_with('(') {
            continue;
        }
        let declares = match keyword {
            Some(keyword) => before == keyword,
            None => {
                let lead = code[..at].trim_end();
                !["return", "new", "else", "throw", "case", "delete"].contains(&before)
                    && lead.ends_with(|c: char| is_identifier(c) || "<>&*]".contains(c))
            }
        };
        let Some(close) = closing(code, open) else {
            continue;
        };
        if !declares {
            continue;
        }
        let tail = &code[close..];
        let end = tail
            .find(['{', ';', ')', '='])
            .map(|i| (i, tail.as_bytes()[i]));
        let body = match end {
            Some((_, b'{')) => true,
            Some((i, b'=')) if id == LanguageId::Kotlin => !tail[i..].starts_with("=="),
            Some((_, b';')) if matches!(id, LanguageId::Cpp | LanguageId::C) => false,
            _ => continue,
        };
        found.push(Definition {
            name: name.to_owned(),
            line: line_of(code, at),
            parameters: super::parameter_list(code, open + 1),
            body,
        });
    }
    found
}

/// Top-level `def name(` (after any decorators) and `name = lambda` lines.
fn python(code: &str, wanted: Option<&str>) -> Vec<Definition> {
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let rest = line
            .strip_prefix("async def ")
            .or_else(|| line.strip_prefix("def "));
        let (name, parameters) = match rest {
            Some(rest) => {
                let rest = rest.trim_start();
                let length = rest.find(|c: char| !is_identifier(c)).unwrap_or(rest.len());
                let (name, after) = rest.split_at(length);
                let Some(open) = after.trim_start().strip_prefix('(') else {
                    continue;
                };
                (name, super::parameter_list(open, 0))
            }
            None => {
                let Some((name, value)) = line.split_once('=') else {
                    continue;
                };
                let name = name.trim_end();
                let Some(lambda) = value.trim_start().strip_prefix("lambda") else {
                    continue;
                };
                if name.is_empty() || !name.chars().all(is_identifier) {
                    continue;
                }
                let parameters = lambda.split(':').next().unwrap_or("");
                let parameters = parameters
                    .split(',')
                    .map(|p| p.trim().to_owned())
                    .filter(|p| !p.is_empty())
                    .collect();
                (name, parameters)
            }
        };
        if wanted.is_none_or(|wanted| wanted == name) && !name.is_empty() {
            found.push(Definition {
                name: name.to_owned(),
                line: index + 1,
                parameters,
                body: true,
            });
        }
    }
    found
}

/// `function name(` (also `async`, `function*`) and `name = ` an arrow, `function` or
/// `async` (after `const`, `let`, `var` or none).
fn javascript(code: &str, wanted: Option<&str>) -> Vec<Definition> {
    let mut found = Vec::new();
    let mut previous = "";
    for (at, name) in identifiers(code) {
        let before = std::mem::replace(&mut previous, name);
        if wanted.is_some_and(|wanted| wanted != name) || code[..at].ends_with('.') {
            continue;
        }
        let after = code[at + name.len()..].trim_start();
        let declared = if before == "function" || code[..at].trim_end().ends_with("function*") {
            after.starts_with('(')
        } else if let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start();
            !value.starts_with(['=', '>'])
                && (value.starts_with("function")
                    || value.starts_with("async")
                    || value.starts_with('(')
                    || arrow_with_one_parameter(value))
        } else {
            false
        };
        if declared {
            found.push(Definition {
                name: name.to_owned(),
                line: line_of(code, at),
                parameters: Vec::new(),
                body: true,
            });
        }
    }
    found
}

/// `board => ...`.
fn arrow_with_one_parameter(value: &str) -> bool {
    let length = value
        .find(|c: char| !is_identifier(c))
        .unwrap_or(value.len());
    length > 0 && value[length..].trim_start().starts_with("=>")
}

/// What to say when `code` has no function `name`: the closest definition and why it is not
/// the one, or that there is none.
pub fn closest(id: LanguageId, code: &str, name: &str) -> String {
    let all = definitions(id, code, None);
    if let Some(prototype) = all.iter().find(|d| d.name == name && !d.body) {
        return format!(
            "`{name}` at line {} is declared but never defined (it has no body)",
            prototype.line
        );
    }
    if id == LanguageId::Python3 {
        let nested = code.lines().position(|line| {
            let trimmed = line.trim_start();
            trimmed.len() < line.len()
                && trimmed
                    .strip_prefix("def ")
                    .is_some_and(|rest| rest.trim_start().starts_with(&format!("{name}(")))
        });
        if let Some(index) = nested {
            return format!(
                "`{name}` at line {} is inside a class or another function: the judge calls \
                 a function of the file's top level",
                index + 1
            );
        }
    }
    let distance = |other: &str| edit_distance(&other.to_lowercase(), &name.to_lowercase());
    let near = all
        .iter()
        .filter(|d| d.body && d.name != "main")
        .min_by_key(|d| (distance(&d.name), d.line));
    match near {
        Some(near) => format!(
            "the closest is `{}` at line {}: the judge calls the function by its name",
            near.name, near.line
        ),
        None => "the file defines no function the judge could call".to_owned(),
    }
}

/// Levenshtein's distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(id: LanguageId, code: &str) -> Vec<usize> {
        definitions(id, code, Some("solution"))
            .iter()
            .filter(|d| d.body)
            .map(|d| d.line)
            .collect()
    }

    #[test]
    fn cpp_and_java_definitions_are_found_in_every_legal_layout() {
        let cpp = [
            "int\nsolution(vector<string> board) {",
            "int solution(const vector<string>& board)\n{",
            "[[nodiscard]] int /* the answer */ solution(vector<string> board) {",
            "auto solution(vector<string> board) -> int {",
            "std::vector<int>\n  solution (vector<string> b) noexcept {",
            "long long* solution(int n) {",
        ];
        for code in cpp {
            let line = 1 + code[..code.find("solution").unwrap()].matches('\n').count();
            assert_eq!(lines(LanguageId::Cpp, code), [line], "{code}");
        }
        let calls = [
            "int main() { return solution(b); }",
            "int f() { if (solution(b)) { return 1; } }",
            "int x = solution(b);",
            "int f() { obj.solution(b); }",
            "int solution(vector<string> board);",
        ];
        for code in calls {
            assert_eq!(lines(LanguageId::Cpp, code), Vec::<usize>::new(), "{code}");
        }
        let java = "class Solution {\n    public int\n    solution(String[] board)\n        throws Exception {\n        return helper(board);\n    }\n}";
        assert_eq!(lines(LanguageId::Java, java), [3]);
    }

    #[test]
    fn script_definitions_are_found_in_every_legal_form() {
        for code in [
            "function solution(board) {}",
            "const solution = (board) => 1;",
            "let solution= board => 1",
            "var solution = function (board) { return 1; }",
            "solution = async function(board) {}",
            "async function solution(board) {}",
        ] {
            assert_eq!(lines(LanguageId::JavaScript, code), [1], "{code}");
        }
        for code in [
            "x = solution(board);",
            "if (solution == null) {}",
            "a.solution = 1",
        ] {
            assert!(lines(LanguageId::JavaScript, code).is_empty(), "{code}");
        }
        let python = "import functools\n\n@functools.cache\ndef solution(board: list[str]) -> int:\n    return 1\n";
        assert_eq!(lines(LanguageId::Python3, python), [4]);
        assert_eq!(
            lines(LanguageId::Python3, "solution = lambda board: 1\n"),
            [1]
        );
        assert!(lines(
            LanguageId::Python3,
            "class A:\n    def solution(self, b):\n"
        )
        .is_empty());
        let kotlin = "class Solution {\n    fun solution(board: Array<String>): Int =\n        board.size\n}";
        assert_eq!(lines(LanguageId::Kotlin, kotlin), [2]);
    }

    #[test]
    fn the_closest_declaration_is_named_with_why_it_is_not_called() {
        let code = "int main2();\nint solve(vector<string> b) {\n    return 0;\n}\n";
        assert_eq!(
            closest(LanguageId::Cpp, code, "solution"),
            "the closest is `solve` at line 2: the judge calls the function by its name"
        );
        assert_eq!(
            closest(
                LanguageId::Cpp,
                "int solution(vector<string> b);\n",
                "solution"
            ),
            "`solution` at line 1 is declared but never defined (it has no body)"
        );
        assert_eq!(
            closest(LanguageId::Python3, "x = 1\n", "solution"),
            "the file defines no function the judge could call"
        );
    }
}
