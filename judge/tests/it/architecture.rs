//! The plan of `judge/src` (docs/architecture.md) as a test: its parts are folders, imports
//! between them flow one way, and the rules of which part may not use which hold. Read from
//! the `crate::` paths of the sources, test code left out; a failure names the files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The parts, each a folder of `judge/src`.
const PARTS: [&str; 9] = [
    "app",
    "problem",
    "toolchain",
    "sandbox",
    "judging",
    "compare",
    "runner",
    "report",
    "corpus",
];

/// Besides the parts, `main.rs`, `lib.rs`, `cli.rs`, `error.rs` and a few small shared
/// modules: at most this many entries in `judge/src`.
const MAX_ENTRIES: usize = 14;

/// Which top-level module may never import which.
const NEVER: &[(&str, &[&str])] = &[
    (
        "sandbox",
        &[
            "problem",
            "judging",
            "report",
            "runner",
            "app",
            "corpus",
            "toolchain",
            "cli",
        ],
    ),
    (
        "compare",
        &[
            "sandbox", "problem", "judging", "report", "runner", "app", "cli",
        ],
    ),
    ("judging", &["report", "runner", "app", "cli", "corpus"]),
    (
        "problem",
        &[
            "judging", "runner", "report", "app", "cli", "corpus", "sandbox",
        ],
    ),
    ("report", &["runner", "app"]),
    ("toolchain", &["runner", "report", "app", "judging", "cli"]),
];

/// One import of a top-level module by another: where it is, and the path as written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Import {
    from: String,
    to: String,
    file: String,
    line: usize,
    path: String,
}

#[test]
fn the_source_folder_holds_the_parts_and_little_else() {
    let src = source_dir();
    let mut entries: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    for part in PARTS {
        assert!(
            src.join(part).join("mod.rs").is_file(),
            "judge/src/{part}/ (with its mod.rs) is missing; judge/src holds {entries:?}"
        );
    }
    assert!(
        entries.len() <= MAX_ENTRIES,
        "judge/src holds {} entries, at most {MAX_ENTRIES} are planned: {entries:?}",
        entries.len()
    );
}

#[test]
fn imports_between_parts_flow_one_way_and_keep_the_rules() {
    let imports = imports_of(&source_dir());
    let faults = faults(&imports);
    assert!(
        faults.is_empty(),
        "the plan of judge/src is broken (docs/architecture.md):\n{}",
        faults.join("\n")
    );
}

#[test]
fn the_check_finds_a_circle_and_a_broken_rule() {
    // The check itself, on a tree made to break the plan: it must not pass a bad one.
    let dir = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| {
        let path = dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod report;\npub mod runner;\npub mod sandbox;\n",
    );
    write(
        "report/mod.rs",
        "//! crate::app in a comment\nuse crate::runner::Settings;\nfn f() -> &'static str { \"crate::app\" }\n",
    );
    write(
        "runner/mod.rs",
        "use crate::{report::{self, Reporter}, error};\nconst T: &str = r#\"crate::corpus\"#;\n",
    );
    write(
        "sandbox/mod.rs",
        "mod run;\n#[cfg(test)]\nmod tests {\n    use crate::app::Context;\n}\n",
    );
    write(
        "sandbox/run.rs",
        "// crate::corpus in a comment\nfn f() { super::super::problem::load(); let c = '{'; }\n",
    );
    let imports = imports_of(dir.path());
    let found: BTreeSet<(&str, &str)> = imports
        .iter()
        .map(|import| (import.from.as_str(), import.to.as_str()))
        .collect();
    assert_eq!(
        found,
        BTreeSet::from([
            ("report", "runner"),
            ("runner", "error"),
            ("runner", "report"),
            ("sandbox", "problem"),
        ])
    );
    let faults = faults(&imports).join("\n");
    assert!(
        faults.contains("circle: report -> runner -> report")
            && faults.contains("report/mod.rs:2 `crate::runner::Settings`")
            && faults.contains("runner/mod.rs:1 `crate::report`"),
        "{faults}"
    );
    assert!(
        faults
            .contains("report/mod.rs:2: report must not import runner (`crate::runner::Settings`)"),
        "{faults}"
    );
    assert!(
        faults.contains(
            "sandbox/run.rs:2: sandbox must not import problem (`super::super::problem::load`)"
        ),
        "{faults}"
    );
}

/// A function longer than this is split: past a screen, a reader loses its thread.
const MAX_FUNCTION_LINES: usize = 80;

#[test]
fn no_function_is_longer_than_a_screen() {
    let src = source_dir();
    let mut long = Vec::new();
    for entry in walkdir::WalkDir::new(&src) {
        let path = entry.unwrap().into_path();
        if path.extension().is_some_and(|e| e == "rs") {
            let code = std::fs::read_to_string(&path).unwrap();
            let relative = path.strip_prefix(&src).unwrap().display().to_string();
            long.extend(
                long_functions(&code)
                    .into_iter()
                    .map(|(line, name, lines)| {
                        format!("{relative}:{line} `{name}`: {lines} lines")
                    }),
            );
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (signature to closing brace):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_check_counts_a_function_from_its_signature_to_its_brace() {
    let body = |lines: usize| "    let x = '}';\n".repeat(lines);
    let code = format!(
        "trait T {{\n    fn declared(&self);\n}}\nfn short() {{\n{}}}\npub(crate) fn long(\n    a: u8,\n) -> u8 {{\n{}    a\n}}\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{}    }}\n}}\n",
        body(78),
        body(76),
        body(100)
    );
    // `long`: its three signature lines, 76 body lines, `a` and the brace.
    assert_eq!(long_functions(&code), vec![(84, "long".to_owned(), 81)]);
}

/// (line, name, lines) of each function outside test code over `MAX_FUNCTION_LINES`.
fn long_functions(code: &str) -> Vec<(usize, String, usize)> {
    let code = outside_tests(&blank_literals(code));
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = code[from..].find("fn ") {
        let start = from + offset;
        from = start + 3;
        if start > 0 && is_word(code.as_bytes()[start - 1]) {
            continue;
        }
        let name: String = code[from..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A declaration without a body ends at `;` before any `{`.
        let Some(open) = code[from..].find(['{', ';']).map(|at| from + at) else {
            break;
        };
        if name.is_empty() || code.as_bytes()[open] == b';' {
            continue;
        }
        let mut depth = 0;
        let close = (code[open..].char_indices())
            .find(|&(_, c)| {
                depth += (c == '{') as i32 - (c == '}') as i32;
                depth == 0
            })
            .map_or(code.len(), |(at, _)| open + at);
        let lines = line_of(close) - line_of(start) + 1;
        if lines > MAX_FUNCTION_LINES {
            found.push((line_of(start), name, lines));
        }
    }
    found
}

fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every rule broken and every circle, one line each (a circle then its imports).
fn faults(imports: &[Import]) -> Vec<String> {
    let mut faults = Vec::new();
    for import in imports {
        let broken = NEVER
            .iter()
            .any(|(from, never)| *from == import.from && never.contains(&import.to.as_str()));
        if broken {
            faults.push(format!(
                "{}:{}: {} must not import {} (`{}`)",
                import.file, import.line, import.from, import.to, import.path
            ));
        }
    }
    for (walk, others) in circles(imports) {
        let mut line = format!("circle: {} -> {}", walk.join(" -> "), walk[0]);
        if !others.is_empty() {
            line += &format!(" (with {} in the same circle)", others.join(", "));
        }
        faults.push(line);
        let circle: Vec<&String> = walk.iter().chain(&others).collect();
        for import in imports {
            if circle.contains(&&import.from) && circle.contains(&&import.to) {
                faults.push(format!(
                    "  {} -> {}: {}:{} `{}`",
                    import.from, import.to, import.file, import.line, import.path
                ));
            }
        }
    }
    faults
}

/// The groups of top-level modules that reach each other (strongly connected, more than one),
/// each as the shortest walk from its first module back to it, and the rest of the group.
fn circles(imports: &[Import]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for import in imports {
        graph.entry(&import.from).or_default().insert(&import.to);
        graph.entry(&import.to).or_default();
    }
    // The shortest walk from `start` to `goal` along imports, both ends included.
    let walk = |start: &str, goal: &str| -> Option<Vec<String>> {
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(node) = queue.pop_front() {
            for &next in &graph[node] {
                if next == goal {
                    let mut path = vec![goal.to_owned(), node.to_owned()];
                    let mut at = node;
                    while at != start {
                        at = came_from[at];
                        path.push(at.to_owned());
                    }
                    path.reverse();
                    return Some(path);
                }
                if next != start && !came_from.contains_key(next) {
                    came_from.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
        None
    };
    let mut placed = BTreeSet::new();
    let mut circles = Vec::new();
    for &node in graph.keys() {
        if placed.contains(node) {
            continue;
        }
        let Some(mut circle) = walk(node, node) else {
            continue;
        };
        circle.pop();
        let group: Vec<&str> = graph
            .keys()
            .copied()
            .filter(|&other| {
                other == node || (walk(node, other).is_some() && walk(other, node).is_some())
            })
            .collect();
        let others = group
            .iter()
            .filter(|other| !circle.iter().any(|name| name == *other))
            .map(|other| other.to_string())
            .collect();
        placed.extend(group);
        circles.push((circle, others));
    }
    circles
}

/// The imports of one top-level module by another in the sources below `src`: `crate::`
/// paths (in `use` groups too) and `super::` paths that climb out of a part, outside test code.
fn imports_of(src: &Path) -> Vec<Import> {
    let mut imports = BTreeSet::new();
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_none_or(|extension| extension != "rs") {
            continue;
        }
        let relative = path.strip_prefix(src).unwrap();
        let module = module_path(relative);
        let Some(own) = module.first().cloned() else {
            continue; // lib.rs and main.rs hold no code of a part
        };
        let code = outside_tests(&blank_literals(&std::fs::read_to_string(path).unwrap()));
        for (line, path, target) in paths_in(&code, &module) {
            if target != own {
                imports.insert(Import {
                    from: own.clone(),
                    to: target,
                    file: relative.display().to_string(),
                    line,
                    path,
                });
            }
        }
    }
    imports.into_iter().collect()
}

/// The module a file is: `problem/kattis/mod.rs` is `problem::kattis`; `lib.rs` the root.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Each path that leaves the file's own part: (line, the path as written, the top-level module
/// it names).
fn paths_in(code: &str, module: &[String]) -> Vec<(usize, String, String)> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let word_start = at == 0 || !is_word(bytes[at - 1]);
        let rest = &code[at..];
        let starts = word_start && (rest.starts_with("crate::") || rest.starts_with("super::"));
        if !starts || (at >= 2 && &code[at - 2..at] == "::") {
            at += 1;
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let (mut depth, mut tail) = (module.len(), rest);
        if let Some(after) = rest.strip_prefix("crate::") {
            (depth, tail) = (0, after);
        }
        // Each `super` climbs one module (a `mod.rs` is its folder's module).
        while let Some(after) = tail.strip_prefix("super::") {
            depth = depth.saturating_sub(1);
            tail = after;
        }
        let written = &rest[..rest.len() - tail.len()];
        let targets: Vec<(String, String)> = if depth == 0 {
            first_names(tail)
                .into_iter()
                .map(|(name, shown)| (name, format!("{written}{shown}")))
                .collect()
        } else {
            vec![(module[0].clone(), String::new())]
        };
        for (target, shown) in targets {
            found.push((line, shown, target));
        }
        at += written.len().max(1);
    }
    found
}

/// The first names of the path that follows `crate::`: one, or each of a `{...}` group, with
/// the path shown for each (up to the end of its segment chain).
fn first_names(tail: &str) -> Vec<(String, String)> {
    let chain = |text: &str| -> String {
        text.chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_' || c == ':')
            .collect::<String>()
            .trim_end_matches(':')
            .to_owned()
    };
    let Some(group) = tail.strip_prefix('{') else {
        let shown = chain(tail);
        let name = shown.split("::").next().unwrap_or_default().to_owned();
        return vec![(name, shown)];
    };
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(group[start..index].trim());
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(group[start..index].trim());
                start = index + 1;
            }
            _ => {}
        }
    }
    names
        .into_iter()
        .filter(|item| !item.is_empty() && *item != "self")
        .map(|item| {
            let shown = chain(item);
            let name = shown.split("::").next().unwrap_or_default().to_owned();
            (name, shown)
        })
        .collect()
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// `code` with every comment, string and character literal turned into spaces (line breaks
/// kept), so that only code is searched.
fn blank_literals(code: &str) -> String {
    let bytes = code.as_bytes();
    let mut out = bytes.to_vec();
    let mut at = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    while at < bytes.len() {
        let rest = &code[at..];
        let after_word = at > 0 && is_word(bytes[at - 1]);
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(bytes.len(), |end| at + end);
            blank(&mut out, at, end);
            at = end;
        } else if rest.starts_with("/*") {
            let (mut depth, mut end) = (0, at);
            while end < bytes.len() {
                if code[end..].starts_with("/*") {
                    depth += 1;
                    end += 2;
                } else if code[end..].starts_with("*/") {
                    depth -= 1;
                    end += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    end += 1;
                }
            }
            blank(&mut out, at, end);
            at = end;
        } else if let Some(hashes) = raw_string_start(rest).filter(|_| !after_word) {
            let open = rest.find('"').unwrap() + 1;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = rest[open..]
                .find(&close)
                .map_or(bytes.len(), |end| at + open + end + close.len());
            blank(&mut out, at, end);
            at = end;
        } else if bytes[at] == b'"' || (rest.starts_with("b\"") && !after_word) {
            let mut end = at + rest.find('"').unwrap() + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, at, (end + 1).min(bytes.len()));
            at = end + 1;
        } else if bytes[at] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let inner = &rest[1..];
            let length = match inner.strip_prefix('\\') {
                Some(escaped) => escaped.find('\'').map(|close| close + 2),
                None => inner
                    .chars()
                    .next()
                    .filter(|c| inner[c.len_utf8()..].starts_with('\''))
                    .map(char::len_utf8),
            };
            let end = length.map_or(at + 1, |length| at + length + 2);
            blank(&mut out, at, end);
            at = end;
        } else {
            at += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// `Some(number of #)` when `text` starts a raw string literal: `r"`, `r#"`, `br##"`, ...
fn raw_string_start(text: &str) -> Option<usize> {
    let text = text.strip_prefix('b').unwrap_or(text);
    let text = text.strip_prefix('r')?;
    let hashes = text.bytes().take_while(|&b| b == b'#').count();
    text[hashes..].starts_with('"').then_some(hashes)
}

/// `code` (literals blanked) without its test items: whatever follows `#[cfg(test)]`, to
/// the end of its block or its `;`.
fn outside_tests(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(found) = code[from..].find("#[cfg(test)]") {
        let start = from + found;
        let mut end = start + "#[cfg(test)]".len();
        let mut depth = 0;
        for (offset, byte) in code[end..].bytes().enumerate() {
            match byte {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end += offset + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end += offset + 1;
                    break;
                }
                _ => {}
            }
        }
        for byte in &mut out[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).unwrap()
}
