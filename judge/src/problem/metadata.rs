//! `problem.toml` (every key optional; the judge profile gives the defaults), validated into
//! a `Problem` with errors that name file, line and key; and the reading of every TOML file a
//! user writes (`parse_toml`, `Located`), whose errors name the file and line, and a bad
//! value its key.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::checker_spec::{CheckerSpec, Mode, Protocol};
use super::layout::METADATA_FILE;
use super::SubtaskSpec;
use super::{FileIo, Picture, Problem, ANY_GROUP};
use super::{Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};
use crate::compare::CompareMode;
use crate::error::{if_exists, Error, Result};
use crate::toolchain::signature::{Signature, Type};
use crate::toolchain::Limits;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Metadata {
    name: Option<String>,
    source: Option<String>,
    /// The submit page, where the profile cannot make one.
    submit: Option<String>,
    profile: Option<Profile>,
    time_limit_ms: Option<Spanned<u64>>,
    memory_limit_mib: Option<Spanned<u64>>,
    output_limit_mib: Option<Spanned<u64>>,
    stack_limit_mib: Option<Spanned<u64>>,
    compare: Option<CompareName>,
    float_absolute_tolerance: Option<Spanned<f64>>,
    float_relative_tolerance: Option<Spanned<f64>>,
    // Paths are relative to the problem folder, and inside it.
    solution: Option<Spanned<String>>,
    checker: Option<Spanned<String>>,
    checker_protocol: Option<Protocol>,
    /// Testlib protocol.
    interactor: Option<Spanned<String>>,
    /// `solution(board: string[]) -> int`.
    function: Option<Spanned<String>>,
    #[serde(default)]
    subtasks: Vec<Spanned<SubtaskToml>>,
    /// A list for every case, or a table from group to list (`"*"` for the others).
    validator_args: Option<ValidatorArgsToml>,
    /// `input.txt`, as some judges give it.
    input_file: Option<Spanned<String>>,
    /// `output.txt`; standard output is then not judged.
    output_file: Option<Spanned<String>>,
    picture: Option<Spanned<PictureToml>>,
    /// Where it is not the profile's.
    java_class: Option<Spanned<String>>,
}

/// `rows` and `cols` together or neither.
fn picture(metadata: &Metadata, file: &Located) -> Result<Picture> {
    let Some(spanned) = &metadata.picture else {
        return Ok(Picture::default());
    };
    let picture = spanned.get_ref();
    let flat = match (picture.rows, picture.cols) {
        (Some(rows), Some(cols)) if rows > 0 && cols > 0 => Some((rows, cols)),
        (None, None) => None,
        _ => {
            return Err(file.error(
                spanned.span(),
                "picture",
                "needs both `rows` and `cols` (at least 1 each), or neither",
            ))
        }
    };
    Ok(Picture {
        flat,
        answer_cell: picture.answer_cell,
    })
}

/// `[picture]`: boards written flat, `rows * cols` cells on one line; the answer's line that
/// names a cell (`row col`, from 1), to mark it on the board.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PictureToml {
    rows: Option<usize>,
    cols: Option<usize>,
    answer_cell: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ValidatorArgsToml {
    Every(Vec<String>),
    ByGroup(std::collections::BTreeMap<String, Vec<String>>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SubtaskToml {
    name: Option<String>,
    points: Spanned<f64>,
    /// As `--case` takes them (`small/*`).
    cases: Vec<Spanned<String>>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum CompareName {
    Exact,
    Lines,
    Baekjoon,
    Tokens,
    Float,
}

const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

impl Problem {
    /// A missing `problem.toml` means all defaults; `cases` is left for
    /// `Repository::load_problem` to fill.
    pub fn load(dir: &Path, default_solution: PathBuf) -> Result<Problem> {
        let id = dir
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or_else(|| Error::not_utf8(dir, "problem folder name"))?
            .to_owned();
        let path = dir.join(METADATA_FILE);
        let text = if_exists(&path, std::fs::read_to_string)?.unwrap_or_default();
        Problem::parse(id, dir, &text, default_solution)
    }

    pub fn parse(id: String, dir: &Path, text: &str, default_solution: PathBuf) -> Result<Problem> {
        let path = dir.join(METADATA_FILE);
        let metadata = parse_toml::<Metadata>(&path, text)?;
        let file = Located { path: &path, text };
        Problem::from_metadata(id, dir, metadata, default_solution, &file)
    }

    fn from_metadata(
        id: String,
        dir: &Path,
        metadata: Metadata,
        default_solution: PathBuf,
        file: &Located,
    ) -> Result<Problem> {
        let profile = metadata.profile.unwrap_or(Profile::Boj);
        let picture = picture(&metadata, file)?;
        let function = match &metadata.function {
            Some(text) => Some(
                Signature::parse(text.get_ref())
                    .map_err(|why| file.error(text.span(), "function", &why))?,
            ),
            None => None,
        };
        Ok(Problem {
            limits: limits(&metadata, profile, file)?,
            compare: compare_mode(&metadata, (profile, function.as_ref()), file)?,
            checker: checker(&metadata, dir, file)?,
            tout_checker: tout_checker(&metadata, dir, file)?,
            solution_languages: Default::default(),
            subtasks: subtasks(&metadata, file)?,
            name: metadata.name.unwrap_or_else(|| id.clone()),
            source_url: metadata.source,
            submit_url: metadata.submit,
            picture,
            java_class: name(&metadata.java_class, "java_class", JAVA_CLASS, file)?,
            profile,
            solution: match &metadata.solution {
                Some(solution) => file.inside(dir, solution, "solution")?,
                None => default_solution,
            },
            cases: Vec::new(),
            scoring: None,
            dir: dir.to_path_buf(),
            id,
            package: None,
            files: FileIo {
                input: name(&metadata.input_file, "input_file", FILE_NAME, file)?,
                output: name(&metadata.output_file, "output_file", FILE_NAME, file)?,
            },
            validator_args: match metadata.validator_args {
                None => Default::default(),
                Some(ValidatorArgsToml::Every(args)) => [(ANY_GROUP.to_owned(), args)].into(),
                Some(ValidatorArgsToml::ByGroup(groups)) => groups,
            },
            function,
        })
    }
}

/// A kind of name a key takes: what tells one, and what the error says it must be.
type NameRule = (fn(&str) -> bool, &'static str);

/// A plain name in the run's folder.
const FILE_NAME: NameRule = (
    FileIo::is_plain_name,
    "must be a file name in the program's folder, like `input.txt`",
);

const JAVA_CLASS: NameRule = (
    crate::toolchain::language::is_java_identifier,
    "must be a Java class name, like `Main` (no package, no `.java`)",
);

/// The name `value` gives, if it is of the `rule`'s kind.
fn name(
    value: &Option<Spanned<String>>,
    key: &str,
    rule: NameRule,
    file: &Located,
) -> Result<Option<String>> {
    let Some(name) = value else {
        return Ok(None);
    };
    let (is_valid, must) = rule;
    match is_valid(name.get_ref()) {
        true => Ok(Some(name.get_ref().clone())),
        false => Err(file.error(name.span(), key, must)),
    }
}

/// Each in its documented range; the profile's where not given.
fn limits(metadata: &Metadata, profile: Profile, file: &Located) -> Result<Limits> {
    let defaults = profile.online_judge().limits();
    let mib = |value: &Option<Spanned<u64>>, key: &str, default: u64| match value {
        Some(mib) => file
            .in_range(mib, key, &SIZE_LIMIT_MIB)
            .map(|mib| mib << 20),
        None => Ok(default),
    };
    let memory_bytes = mib(
        &metadata.memory_limit_mib,
        "memory_limit_mib",
        defaults.memory_bytes,
    )?;
    Ok(Limits {
        cpu_time: match &metadata.time_limit_ms {
            Some(ms) => {
                Duration::from_millis(file.in_range(ms, "time_limit_ms", &TIME_LIMIT_MS)?)
            }
            None => defaults.cpu_time,
        },
        memory_bytes,
        output_bytes: mib(
            &metadata.output_limit_mib,
            "output_limit_mib",
            defaults.output_bytes,
        )?,
        decided_at: None,
        stack_bytes: mib(
            &metadata.stack_limit_mib,
            "stack_limit_mib",
            profile.online_judge().stack_bytes(memory_bytes),
        )?,
    })
}

/// The checker of an interactor's `tout` (testlib's), when both are named.
fn tout_checker(metadata: &Metadata, dir: &Path, file: &Located) -> Result<Option<CheckerSpec>> {
    match (&metadata.checker, &metadata.interactor) {
        (Some(source), Some(_)) => Ok(Some(CheckerSpec::testlib(
            file.inside(dir, source, "checker")?,
            Mode::AFTER_RUN,
        ))),
        _ => Ok(None),
    }
}

fn checker(metadata: &Metadata, dir: &Path, file: &Located) -> Result<Option<CheckerSpec>> {
    Ok(
        match (
            &metadata.checker,
            metadata.checker_protocol,
            &metadata.interactor,
        ) {
            // With a checker, the interactor talks and the checker reads what it wrote.
            (None, None, Some(source))
            | (Some(_), None | Some(Protocol::Testlib), Some(source)) => {
                let interactive = Mode {
                    interactive: true,
                    ..Mode::AFTER_RUN
                };
                let source = file.inside(dir, source, "interactor")?;
                Some(CheckerSpec::testlib(source, interactive))
            }
            (_, _, Some(source)) => {
                return Err(file.error(
                    source.span(),
                    "interactor",
                    "talks in the testlib protocol: the checker that reads what it wrote is a \
                     testlib checker too (no other `checker_protocol`)",
                ))
            }
            (Some(source), protocol, None) => Some(CheckerSpec {
                protocol: protocol.unwrap_or(Protocol::Testlib),
                ..CheckerSpec::testlib(file.inside(dir, source, "checker")?, Mode::AFTER_RUN)
            }),
            (None, Some(_), None) => {
                return Err(Error::parse(
                    file.path,
                    None,
                    "`checker_protocol` needs `checker`",
                ))
            }
            (None, None, None) => None,
        },
    )
}

/// Each needs points (0 or more) and at least one case pattern.
fn subtasks(metadata: &Metadata, file: &Located) -> Result<Vec<SubtaskSpec>> {
    let mut subtasks = Vec::new();
    for (index, subtask) in metadata.subtasks.iter().enumerate() {
        let subtask = subtask.get_ref();
        let points = *subtask.points.get_ref();
        if !(points.is_finite() && points >= 0.0) {
            return Err(file.error(
                subtask.points.span(),
                "points",
                &format!("= {points}: expected a number of points, 0 or more"),
            ));
        }
        let mut patterns = Vec::new();
        for pattern in &subtask.cases {
            let line = line_at(file.text, pattern.span().start);
            if pattern.get_ref().is_empty() {
                return Err(file.error(pattern.span(), "cases", "has an empty pattern"));
            }
            patterns.push((pattern.get_ref().clone(), line));
        }
        if patterns.is_empty() {
            let span = subtask.points.span();
            return Err(file.error(span, "cases", "is missing or empty: a subtask needs cases"));
        }
        subtasks.push(SubtaskSpec {
            name: subtask
                .name
                .clone()
                .unwrap_or_else(|| format!("subtask {}", index + 1)),
            points,
            patterns,
        });
    }
    Ok(subtasks)
}

/// A function's results are compared as values (`CompareMode::Values`), a `double` among
/// them within the float tolerance.
fn compare_mode(
    metadata: &Metadata,
    (profile, function): (Profile, Option<&Signature>),
    file: &Located,
) -> Result<CompareMode> {
    let tolerance = |value: &Option<Spanned<f64>>, key: &str| match value {
        Some(t) if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) => {
            Err(file.error(t.span(), key, "must be a non-negative number"))
        }
        Some(t) => Ok(*t.get_ref()),
        None => Ok(DEFAULT_FLOAT_TOLERANCE),
    };
    let (absolute, relative) = (
        &metadata.float_absolute_tolerance,
        &metadata.float_relative_tolerance,
    );
    let abs = tolerance(absolute, "float_absolute_tolerance")?;
    let rel = tolerance(relative, "float_relative_tolerance")?;
    let has_tolerance = absolute.is_some() || relative.is_some();
    let doubles = function.is_some_and(|f| *f.returns.depth().1 == Type::Double);
    Ok(match metadata.compare {
        None | Some(CompareName::Float) if function.is_some() => CompareMode::Values {
            tolerance: (has_tolerance || doubles || metadata.compare.is_some())
                .then_some((abs, rel)),
        },
        None if has_tolerance => CompareMode::Float { abs, rel },
        None => profile.online_judge().compare,
        Some(CompareName::Float) => CompareMode::Float { abs, rel },
        Some(_) if has_tolerance => {
            let given = absolute.as_ref().or(relative.as_ref());
            let span = given.map_or(0..0, |t| t.span());
            return Err(Error::parse(
                file.path,
                Some(line_at(file.text, span.start)),
                "float tolerances need `compare = \"float\"`",
            ));
        }
        Some(CompareName::Exact) => CompareMode::Exact,
        Some(CompareName::Lines) => CompareMode::Lines,
        Some(CompareName::Baekjoon) => CompareMode::Baekjoon,
        Some(CompareName::Tokens) => CompareMode::Tokens,
    })
}

pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|error| {
        let line = error.span().map(|span| line_at(text, span.start));
        Error::parse(path, line, error.message())
    })
}

/// The line (from 1) of byte `offset`.
pub fn line_at(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A TOML file being validated, for errors that name file, line and key.
pub struct Located<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl Located<'_> {
    pub fn error(&self, span: std::ops::Range<usize>, key: &str, message: &str) -> Error {
        let line = line_at(self.text, span.start);
        Error::parse(self.path, Some(line), format!("`{key}` {message}"))
    }

    pub fn in_range(
        &self,
        value: &Spanned<u64>,
        key: &str,
        range: &std::ops::RangeInclusive<u64>,
    ) -> Result<u64> {
        let number = *value.get_ref();
        if range.contains(&number) {
            return Ok(number);
        }
        Err(self.error(
            value.span(),
            key,
            &format!(
                "= {number} is out of range: expected {} to {}",
                range.start(),
                range.end()
            ),
        ))
    }

    /// `dir/relative` when it stays inside the problem folder `dir`.
    pub fn inside(&self, dir: &Path, relative: &Spanned<String>, key: &str) -> Result<PathBuf> {
        crate::problem::confine::inside(dir, relative.get_ref())
            .map_err(|reason| self.error(relative.span(), key, &reason.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Problem> {
        let path = Path::new("problems/p/problem.toml");
        let metadata = parse_toml::<Metadata>(path, text)?;
        Problem::from_metadata(
            "p".into(),
            Path::new("problems/p"),
            metadata,
            "s.rs".into(),
            &Located { path, text },
        )
    }

    fn error(text: &str) -> String {
        load(text).expect_err("should be rejected").to_string()
    }

    #[test]
    fn empty_file_takes_the_boj_defaults() {
        let problem = load("").unwrap();
        assert_eq!(problem.profile, Profile::Boj);
        assert_eq!(problem.limits, Profile::Boj.online_judge().limits());
        assert_eq!(problem.compare, CompareMode::Baekjoon);
        assert_eq!(problem.name, "p");
        assert_eq!(problem.solution, PathBuf::from("s.rs"));
    }

    #[test]
    fn keys_override_the_profile() {
        let problem = load(
            "name = \"Omok\"\nprofile = \"swea\"\ntime_limit_ms = 1500\nmemory_limit_mib = 128\n\
             compare = \"tokens\"\nsolution = \"alt.rs\"\n",
        )
        .unwrap();
        assert_eq!(problem.name, "Omok");
        assert_eq!(problem.limits.cpu_time, Duration::from_millis(1500));
        assert_eq!(problem.limits.memory_bytes, 128 << 20);
        assert_eq!(
            problem.limits.stack_bytes,
            1 << 20,
            "SWEA's stack stays 1 MiB"
        );
        let boj = load("memory_limit_mib = 128\n").unwrap();
        assert_eq!(
            boj.limits.stack_bytes,
            112 << 20,
            "Baekjoon's stack follows the memory limit"
        );
        assert_eq!(problem.compare, CompareMode::Tokens);
        assert_eq!(problem.solution, Path::new("problems/p/alt.rs"));
    }

    #[test]
    fn the_java_class_is_a_class_name() {
        let problem = load("java_class = \"Solution\"\n").unwrap();
        assert_eq!(problem.java_class.as_deref(), Some("Solution"));
        assert_eq!(load("").unwrap().java_class, None);
        assert_eq!(
            error("name = \"x\"\njava_class = \"Solution.java\"\n"),
            "problems/p/problem.toml: line 2: `java_class` must be a Java class name, like `Main` (no package, no `.java`)"
        );
    }

    #[test]
    fn io_files_are_plain_names_of_the_programs_folder() {
        let problem = load("input_file = \"input.txt\"\noutput_file = \"output.txt\"\n").unwrap();
        assert_eq!(problem.files.input.as_deref(), Some("input.txt"));
        assert_eq!(problem.files.output.as_deref(), Some("output.txt"));
        assert_eq!(load("").unwrap().files, FileIo::default());
        assert_eq!(
            error("name = \"x\"\ninput_file = \"../input.txt\"\n"),
            "problems/p/problem.toml: line 2: `input_file` must be a file name in the program's folder, like `input.txt`"
        );
    }

    #[test]
    fn float_tolerances_imply_float_mode() {
        let problem = load("float_absolute_tolerance = 1e-4\n").unwrap();
        assert_eq!(
            problem.compare,
            CompareMode::Float {
                abs: 1e-4,
                rel: 1e-6
            }
        );
        assert!(
            error("compare = \"lines\"\nfloat_relative_tolerance = 0.1\n")
                .contains("line 2: float tolerances need `compare = \"float\"`")
        );
        assert!(error("name = \"x\"\nfloat_relative_tolerance = -1.0\n")
            .contains("line 2: `float_relative_tolerance` must be a non-negative number"));
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let message = error("name = \"x\"\ntime_limt_ms = 5\n");
        assert!(
            message.starts_with("problems/p/problem.toml: line 2: unknown field `time_limt_ms`"),
            "{message}"
        );
        let message = error("profile = \"atcoder\"\n");
        assert!(
            message.contains("line 1: unknown variant `atcoder`"),
            "{message}"
        );
        let message = error("time_limit_ms = \"fast\"\n");
        assert!(message.contains("line 1: invalid type"), "{message}");
        assert!(error("time_limit_ms = 0\n")
            .contains("line 1: `time_limit_ms` = 0 is out of range: expected 1 to 3600000"));
        let message = error("name = \n");
        assert!(
            message.starts_with("problems/p/problem.toml: line 1: "),
            "{message}"
        );
    }
}
