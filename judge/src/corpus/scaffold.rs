//! `judge new`: a new problem folder and solution file from templates that already work
//! together (a placeholder task, sums of integers, in the profile's convention), so that
//! `add --from-reference`, `run` and `stress` work before any file is edited by hand.
//!
//! Running it again after an interruption finishes the job: the folder is built under a
//! hidden name and renamed into place last; a solution file and `[[bin]]` entry an
//! interrupted run made are recognised (byte for byte, by path) and kept.

use std::path::{Path, PathBuf};

use crate::atomic_write::{self, create_new, write_atomically, Replace};
use crate::error::{if_exists, Error, Result};
use crate::problem::layout::{
    GENERATOR_FILE, METADATA_FILE, RECIPE_FILE, REFERENCE_FILE, SOLUTIONS_DIR, STATEMENT_FILE,
    TESTS_DIR, VALIDATOR_STEM,
};
use crate::problem::Repository;
use crate::problem::{FileIo, Profile};
use crate::runner::interrupt::Deferred;
use crate::toolchain::language::LanguageId;
use crate::toolchain::online_judges::ScaffoldKind;

const STATEMENT: &str = include_str!("scaffold/statement.md");
const REFERENCE: &str = include_str!("scaffold/reference.rs.txt");
const GENERATOR: &str = include_str!("scaffold/gen.rs.txt");
const VALIDATOR: &str = include_str!("scaffold/validator.rs.txt");

/// The `[[generate]]` entry starts commented out: its cases would come from the placeholder
/// generator and reference, and a recipe whose cases were never generated fails `gen --check`
/// (and with it `cargo test`) for a problem that has only its samples and a solution.
const RECIPE: &str = include_str!("scaffold/generators.toml");

/// The placeholder task in the profile's convention, as its solution templates read and write
/// it, so that the reference, the generator and `judge stress` agree with them.
struct Placeholder {
    task: &'static str,
    input: &'static str,
    /// The bodies of the programs' `main` (`scaffold/placeholder_*.rs.txt`): the reference's
    /// after `input` (the whole input) is read, the generator's after `next` (a random u64)
    /// and `count`, the validator's after `lines` (the input's lines, its final newline
    /// checked), which holds the placeholder's constraints.
    reference: String,
    generator: String,
    validator: String,
    /// The `[stress]` layout, so that a failing input is cut down to one of its cases.
    layout: &'static str,
}

fn placeholder(kind: ScaffoldKind) -> Placeholder {
    let (task, input, bodies, layout) = match kind {
        ScaffoldKind::SingleTest => (
            "print the sum of all integers in the input",
            "N integers",
            include_str!("scaffold/placeholder_single.rs.txt").to_owned(),
            "layout = \"single\"",
        ),
        ScaffoldKind::NumberedTests | ScaffoldKind::CountedTests => {
            let (case, answer) = match kind {
                ScaffoldKind::NumberedTests => ("case", "println!(\"#{case} {sum}\")"),
                _ => ("_", "println!(\"{sum}\")"),
            };
            (
                "T cases, each a count n and n integers; print each case's sum",
                "the count of cases, then for each a line with n and a line of n integers",
                include_str!("scaffold/placeholder_counted.rs.txt")
                    .replace("CASE", case)
                    .replace("ANSWER", answer),
                "layout = \"counted\"\nlines_per_case = 2",
            )
        }
        // The judge calls `solution(numbers: int[]) -> int`: one call per line.
        ScaffoldKind::Function => (
            "solution(numbers) returns the sum of the integers of its array",
            "one call per line, its argument as the judge's page writes it: [1, 2, 3]",
            include_str!("scaffold/placeholder_function.rs.txt").to_owned(),
            "layout = \"lines\"",
        ),
    };
    Placeholder {
        task,
        input,
        reference: body(&bodies, "REFERENCE"),
        generator: body(&bodies, "GENERATOR"),
        validator: body(&bodies, "VALIDATOR"),
        layout,
    }
}

/// The lines after `// <program>` in a placeholder file, up to the next such line.
fn body(bodies: &str, program: &str) -> String {
    let marker = format!("// {program}\n");
    let after = &bodies[bodies.find(&marker).expect("every program's body") + marker.len()..];
    let end = after.find("\n// ").map_or(after.len(), |at| at + 1);
    after[..end].to_owned()
}

const SOLUTION: &str = include_str!("scaffold/solution.rs.txt");

/// A SW Expert Academy program: the number of cases T, then `#t answer` for each.
const SOLUTION_SWEA: &str = include_str!("scaffold/solution_swea.rs.txt");

/// A Codeforces program: the number of test cases t, then an answer line for each.
const SOLUTION_CODEFORCES: &str = include_str!("scaffold/solution_codeforces.rs.txt");

/// A Programmers function: the judge calls `solution`; the adapter below the marker lets
/// `judge` run it on the cases (one call per line) and is not pasted (Programmers takes no
/// Rust; the Python file is the one to hand in).
const SOLUTION_PROGRAMMERS: &str = include_str!("scaffold/solution_programmers.rs.txt");

/// The solution template in a judge's convention (Baekjoon and Kattis: a plain program).
fn solution_template(kind: ScaffoldKind) -> &'static str {
    match kind {
        ScaffoldKind::NumberedTests => SOLUTION_SWEA,
        ScaffoldKind::Function => SOLUTION_PROGRAMMERS,
        ScaffoldKind::CountedTests => SOLUTION_CODEFORCES,
        ScaffoldKind::SingleTest => SOLUTION,
    }
}

/// SW Expert Academy in Python, which it takes (Rust it does not).
const PYTHON_SWEA: &str = include_str!("scaffold/solution_swea.py");

/// Programmers in Python, which it takes: the function alone, as its editor starts it; the
/// judge calls it (`function` in problem.toml).
const PYTHON_PROGRAMMERS: &str = include_str!("scaffold/solution_programmers.py");

/// A second template, in Python, for the judges that take no Rust: it is the file to submit.
pub fn python_template(profile: Profile) -> Option<&'static str> {
    if profile.online_judge().accepts(LanguageId::Rust) {
        return None;
    }
    match profile.online_judge().scaffold {
        ScaffoldKind::NumberedTests => Some(PYTHON_SWEA),
        ScaffoldKind::Function => Some(PYTHON_PROGRAMMERS),
        ScaffoldKind::SingleTest | ScaffoldKind::CountedTests => None,
    }
}

/// A problem taken from a judge's page (`judge listen`, `judge new --from`): its own
/// metadata and samples instead of the placeholder corpus.
#[derive(Debug)]
pub struct Imported {
    pub metadata: String,
    pub statement: String,
    /// (input, expected output) of `tests/sample/1`, `2`, ...
    pub samples: Vec<(String, String)>,
    /// The page says its input is a count of tests, then each (Competitive Companion's
    /// `multiNumber`): the solution template reads them so.
    pub counted: bool,
    /// The files the page names for its input and answer: the solution template reads and
    /// writes them.
    pub files: FileIo,
}

#[derive(Debug)]
pub struct Scaffolded {
    pub files: Vec<String>,
    /// `solutions/Cargo.toml` got a `[[bin]]` entry for the new solution.
    pub registered_bin: bool,
}

/// Creates `problems/<id>/` and `solutions/<id>.rs` (with a judge's page's metadata and
/// samples when `imported`) and registers the solution in `solutions/Cargo.toml`; refuses if
/// the problem folder exists, or the solution file or a `[[bin]]` of that name is the user's.
pub fn new_problem(
    repository: &Repository,
    id: &str,
    profile: Profile,
    imported: Option<&Imported>,
) -> Result<Scaffolded> {
    let _signals = Deferred::new();
    let (dir, staging) = new_problem_folder(repository, id)?;
    let manifest_path = repository.root.join(SOLUTIONS_DIR).join("Cargo.toml");
    let solutions = solution_files(repository, id, profile, imported);
    let to_write = solutions_to_write(&solutions)?;
    let manifest = if_exists(&manifest_path, std::fs::read_to_string)?
        .map(|text| register_bin(&manifest_path, &text, id))
        .transpose()?;
    let files = problem_files(id, profile, imported);
    let samples = staging.join(TESTS_DIR).join("sample");
    std::fs::create_dir_all(&samples).map_err(|e| Error::io(&samples, e))?;
    let mut made = Vec::new();
    for (file, contents) in &files {
        create_new(&staging.join(file), contents.as_bytes())?;
        made.push(repository.relative(&dir.join(file)).display().to_string());
    }
    for (path, template) in to_write {
        create_new(path, template.as_bytes())?;
    }
    for (path, _) in &solutions {
        made.push(repository.relative(path).display().to_string());
    }
    let registered_bin = match manifest {
        Some(Some(text)) => {
            write_atomically(&manifest_path, text.as_bytes())?;
            true
        }
        Some(None) => true,
        None => false,
    };
    // The commit point: the problem appears whole. Never over a folder made meanwhile.
    atomic_write::place(&staging, &dir, Replace::No)?;
    Ok(Scaffolded {
        files: made,
        registered_bin,
    })
}

/// The folder of the new problem `id`, refused where the id is not one or the folder exists,
/// and the hidden folder it is made in until it is whole (emptied of an interrupted run's).
pub(super) fn new_problem_folder(repository: &Repository, id: &str) -> Result<(PathBuf, PathBuf)> {
    check_id(id)?;
    let problems = repository.problems_dir();
    let dir = problems.join(id);
    if dir.symlink_metadata().is_ok() {
        return Err(Error::exists(&dir));
    }
    // Hidden from discovery (a dot name) until it is complete; an interrupted run's is ours.
    let staging = problems.join(format!(".judge-new-{id}.tmp"));
    if_exists(&staging, std::fs::remove_dir_all)?;
    Ok((dir, staging))
}

/// A problem id is lowercase letters, digits and `_`: it names a folder and a Rust binary.
fn check_id(id: &str) -> Result<()> {
    let valid = !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    match valid {
        true => Ok(()),
        false => Err(Error::usage(format!(
            "problem id `{id}`: use lowercase letters, digits and `_` (like `boj_1000`)"
        ))),
    }
}

/// The solution files a new problem gets, with their templates: Rust, and Python where the
/// judge takes no Rust.
fn solution_files(
    repository: &Repository,
    id: &str,
    profile: Profile,
    imported: Option<&Imported>,
) -> Vec<(PathBuf, String)> {
    let solutions_dir = repository.root.join(SOLUTIONS_DIR);
    let counted = imported.is_some_and(|imported| imported.counted);
    // A count of tests first: Codeforces' template reads them, where the profile's reads one.
    let template = match (counted, profile.online_judge().scaffold) {
        (true, ScaffoldKind::SingleTest) => solution_template(ScaffoldKind::CountedTests),
        (_, kind) => solution_template(kind),
    };
    let template = match imported {
        Some(imported) => with_files(template, &imported.files),
        None => template.to_owned(),
    };
    let mut solutions = vec![(solutions_dir.join(format!("{id}.rs")), template)];
    if let Some(python) = python_template(profile) {
        solutions.push((solutions_dir.join(format!("{id}.py")), python.to_owned()));
    }
    solutions
}

/// A Rust template reading and writing the files a page names instead of its standard
/// streams, as that judge's program must.
fn with_files(template: &str, files: &FileIo) -> String {
    let mut template = template.to_owned();
    if let Some(input) = &files.input {
        template = template
            .replace("use std::io::{self, Read, Write};", "use std::io::{self, Write};")
            .replace(
                "let mut input = String::new();\n    io::stdin().read_to_string(&mut input).unwrap();",
                &format!("let input = std::fs::read_to_string({input:?}).unwrap();"),
            );
    }
    if let Some(output) = &files.output {
        template = template.replace(
            "io::BufWriter::new(io::stdout().lock())",
            &format!("io::BufWriter::new(std::fs::File::create({output:?}).unwrap())"),
        );
    }
    template
}

/// Of `solutions`, those to write: each is made now, or recognised as made by an interrupted
/// run; any other file there is the user's, and stops the command.
fn solutions_to_write(solutions: &[(PathBuf, String)]) -> Result<Vec<(&PathBuf, &str)>> {
    let mut to_write = Vec::new();
    for (path, template) in solutions {
        match if_exists(path, std::fs::read)? {
            Some(bytes) if bytes == template.as_bytes() => {}
            Some(_) => return Err(Error::exists(path)),
            None => to_write.push((path, template.as_str())),
        }
    }
    Ok(to_write)
}

/// The files of the new problem's folder, relative to it, with their contents: the
/// templates filled in for `id`, or what was imported (metadata, statement, samples).
fn problem_files(id: &str, profile: Profile, imported: Option<&Imported>) -> Vec<(String, String)> {
    let limits = profile.online_judge().limits();
    let metadata = format!(
        "name = \"{id}\"\n# source = \"https://...\"\nprofile = \"{profile}\"\ntime_limit_ms = {}\nmemory_limit_mib = {}\ncompare = \"{}\"\n",
        limits.cpu_time.as_millis(),
        limits.memory_bytes >> 20,
        profile.online_judge().compare.name(),
    );
    // Programmers calls a function: the placeholder's, or (from a page, which does not say
    // its types) one for the user to declare.
    let kind = profile.online_judge().scaffold;
    let (metadata, imported_metadata) = match kind {
        ScaffoldKind::Function => (
            format!("{metadata}function = \"solution(numbers: int[]) -> int\"\n"),
            imported.map(|i| {
                format!(
                    "{}# The judge calls a function: declare it as the page shows it, e.g.\n\
                     # function = \"solution(board: string[]) -> int\"\n",
                    i.metadata
                )
            }),
        ),
        ScaffoldKind::SingleTest | ScaffoldKind::NumberedTests | ScaffoldKind::CountedTests => {
            (metadata, imported.map(|i| i.metadata.clone()))
        }
    };
    let placeholder = placeholder(kind);
    // A placeholder is an identifier in a comment, or a whole comment line where a body of
    // code goes, so that each template (`scaffold/`) stays a valid file of its language.
    let fill = |template: &str| {
        template
            .replace("PROBLEM_ID", id)
            .replace("PLACEHOLDER_TASK", placeholder.task)
            .replace("PLACEHOLDER_INPUT", placeholder.input)
            .replace("    // REFERENCE_BODY\n", &placeholder.reference)
            .replace("    // GENERATOR_BODY\n", &placeholder.generator)
            .replace("    // VALIDATOR_BODY\n", &placeholder.validator)
            .replace("# STRESS_LAYOUT", placeholder.layout)
    };
    let mut files = match imported {
        None => vec![
            (METADATA_FILE.to_owned(), metadata),
            (STATEMENT_FILE.to_owned(), fill(STATEMENT)),
            (REFERENCE_FILE.to_owned(), fill(REFERENCE)),
            (GENERATOR_FILE.to_owned(), fill(GENERATOR)),
            (format!("{VALIDATOR_STEM}.rs"), fill(VALIDATOR)),
            (RECIPE_FILE.to_owned(), fill(RECIPE)),
        ],
        Some(imported) => vec![
            (
                METADATA_FILE.to_owned(),
                imported_metadata.unwrap_or_default(),
            ),
            (STATEMENT_FILE.to_owned(), imported.statement.clone()),
        ],
    };
    for (number, (input, output)) in imported.map_or(&[][..], |i| &i.samples).iter().enumerate() {
        files.push((
            format!("{TESTS_DIR}/sample/{}.in", number + 1),
            input.clone(),
        ));
        files.push((
            format!("{TESTS_DIR}/sample/{}.out", number + 1),
            output.clone(),
        ));
    }
    files
}

/// `solutions/Cargo.toml` with a `[[bin]]` for `id` added, the user's formatting and comments
/// kept; `None` when an interrupted `judge new` already added exactly that entry.
fn register_bin(path: &Path, text: &str, id: &str) -> Result<Option<String>> {
    let mut document: toml_edit::DocumentMut =
        text.parse().map_err(|error: toml_edit::TomlError| {
            let line = error
                .span()
                .map(|span| crate::problem::line_at(text, span.start));
            Error::parse(path, line, error.message())
        })?;
    let file = format!("{id}.rs");
    let field = |bin: &dyn toml_edit::TableLike, key: &str| {
        bin.get(key)
            .and_then(|value| value.as_str())
            .map(str::to_owned)
    };
    let not_bins = || Error::parse(path, None, "`bin` is not an array of tables");
    let mut bins: Vec<(Option<String>, Option<String>)> = Vec::new();
    match document.get("bin") {
        None => {}
        Some(toml_edit::Item::ArrayOfTables(tables)) => {
            bins.extend(tables.iter().map(|t| (field(t, "name"), field(t, "path"))));
        }
        Some(item) => {
            let array = item.as_array().ok_or_else(not_bins)?;
            for value in array {
                let table = value.as_inline_table().ok_or_else(not_bins)?;
                bins.push((field(table, "name"), field(table, "path")));
            }
        }
    }
    match bins.iter().find(|(name, _)| name.as_deref() == Some(id)) {
        Some((_, bin_path)) if bin_path.as_deref() == Some(file.as_str()) => return Ok(None),
        Some(_) => {
            return Err(Error::parse(
                path,
                None,
                format!("already has a [[bin]] named `{id}` (for another file)"),
            ))
        }
        None => {}
    }
    match document.get_mut("bin") {
        Some(item) if item.is_array() => {
            let array = item.as_array_mut().ok_or_else(not_bins)?;
            let mut bin = toml_edit::InlineTable::new();
            bin.insert("name", id.into());
            bin.insert("path", file.as_str().into());
            array.push(bin);
        }
        _ => {
            let mut bin = toml_edit::Table::new();
            bin.insert("name", toml_edit::value(id));
            bin.insert("path", toml_edit::value(file.as_str()));
            let tables = document
                .entry("bin")
                .or_insert(toml_edit::Item::ArrayOfTables(Default::default()));
            tables
                .as_array_of_tables_mut()
                .ok_or_else(not_bins)?
                .push(bin);
        }
    }
    Ok(Some(document.to_string()))
}

#[cfg(test)]
mod builds;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every plain program's template takes the files a page names: a template whose lines
    /// `with_files` no longer finds would be left reading stdin without a word.
    #[test]
    fn program_templates_read_and_write_the_files_a_page_names() {
        let files = FileIo {
            input: Some("ride.in".into()),
            output: Some("ride.out".into()),
        };
        for kind in [ScaffoldKind::SingleTest, ScaffoldKind::CountedTests] {
            let template = with_files(solution_template(kind), &files);
            assert!(
                template.contains("std::fs::read_to_string(\"ride.in\")")
                    && template.contains("std::fs::File::create(\"ride.out\")")
                    && !template.contains("stdin")
                    && !template.contains("stdout")
                    && !template.contains("Read,"),
                "{kind:?}:\n{template}"
            );
        }
    }

    #[test]
    fn scaffolds_everything_and_refuses_a_second_time() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("problems")).unwrap();
        std::fs::create_dir_all(root.path().join("solutions")).unwrap();
        std::fs::write(
            root.path().join("solutions/Cargo.toml"),
            "[package]\nname = \"solutions\"\n",
        )
        .unwrap();
        let repository = Repository {
            root: root.path().to_path_buf(),
            standalone: false,
        };

        let made = new_problem(&repository, "boj_1000", Profile::Boj, None).unwrap();
        assert_eq!(made.files.len(), 7);
        assert!(made.registered_bin);
        let manifest = std::fs::read_to_string(root.path().join("solutions/Cargo.toml")).unwrap();
        assert!(
            manifest.starts_with("[package]\nname = \"solutions\"\n"),
            "the user's lines are kept"
        );
        assert!(manifest.ends_with("[[bin]]\nname = \"boj_1000\"\npath = \"boj_1000.rs\"\n"));
        let metadata =
            std::fs::read_to_string(root.path().join("problems/boj_1000/problem.toml")).unwrap();
        assert!(
            metadata.contains("profile = \"boj\"\ntime_limit_ms = 1000\nmemory_limit_mib = 256\n")
        );

        std::fs::write(root.path().join("solutions/boj_1000.rs"), "// mine\n").unwrap();
        let error = new_problem(&repository, "boj_1000", Profile::Boj, None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("already exists"), "{error}");
        assert_eq!(
            std::fs::read_to_string(root.path().join("solutions/boj_1000.rs")).unwrap(),
            "// mine\n"
        );
        assert!(new_problem(&repository, "Bad-Name", Profile::Boj, None).is_err());
    }
}
