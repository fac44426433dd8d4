//! Codeforces Polygon packages (a folder holding `problem.xml`), judged where they lie.
//! `problem_xml` reads the description; this module makes the problem of the `tests`
//! testset, with the package's own testlib checker and `main` solution.

mod pattern;
mod problem_xml;

use std::path::{Component, Path};

use crate::error::{Error, Result};
use crate::problem::checker_spec::Mode;
use crate::problem::layout::{POLYGON_FILE, SAMPLE_GROUPS};
use crate::problem::{CheckerSpec, FileIo, Problem, Profile, TestCase};
use crate::problem::{Scoring, Subtask};
use crate::toolchain::language::LanguageId;
use crate::toolchain::Limits;

use problem_xml::{Description, ListedSolution, SourceRef};
pub use problem_xml::{ExtraTag, Tag};

/// How many numbers past a self-test testset's count are looked at for its files, for the
/// gaps deleted tests leave.
const SELF_TEST_GAPS: usize = 100;

/// Standard output kept per case, as for our problems.
const OUTPUT_BYTES: u64 = 64 << 20;

fn read(dir: &Path) -> Result<(std::path::PathBuf, Description)> {
    let xml = dir.join(POLYGON_FILE);
    let text = std::fs::read_to_string(&xml).map_err(|error| Error::io(&xml, error))?;
    let description = problem_xml::parse(&xml, &text)?;
    Ok((xml, description))
}

/// The description, checked against the files it names, and the cases.
pub fn load_package(dir: &Path, id: String) -> Result<Problem> {
    let (path, description) = read(dir)?;
    let cases = cases(dir, &path, &description)?;
    problem_of(dir, &path, id, &description, cases)
}

/// A solution the package lists, with its tag.
pub struct TaggedSolution {
    pub path: std::path::PathBuf,
    /// What it must get on the `tests` testset.
    pub tag: Tag,
    /// What it must get on parts of the tests (`<extra-tags>`).
    pub extra_tags: Vec<PartTag>,
    /// `Err` says why it cannot be judged here (a source type this judge does not build).
    pub judged: std::result::Result<(), String>,
}

/// An extra tag with the cases it concerns.
pub struct PartTag {
    pub tag: ExtraTag,
    /// `None` for another testset than `tests` (`pretests`), which is not judged.
    pub cases: Option<Vec<String>>,
}

/// Every solution `problem.xml` lists, in its order. A source that is missing or leaves the
/// package is a fault, as is an extra tag on a group no test is in; one in a language this
/// judge does not build (Pascal, ...) is only not judged.
pub fn solutions(dir: &Path) -> Result<Vec<TaggedSolution>> {
    let (xml, description) = read(dir)?;
    let tests = tests(dir, &xml, &description)?;
    let part = |tag: ExtraTag| -> Result<PartTag> {
        if tag.testset != "tests" {
            return Ok(PartTag { tag, cases: None });
        }
        let in_group = |test: &&PackageTest| tag.group.is_none() || test.group == tag.group;
        let cases: Vec<String> = tests
            .iter()
            .filter(in_group)
            .map(|t| t.name.clone())
            .collect();
        if cases.is_empty() {
            let group = tag.group.as_deref().unwrap_or_default();
            let message = format!("<extra-tag group=\"{group}\">: no test is in that group");
            return Err(Error::parse(&xml, Some(tag.line), message));
        }
        Ok(PartTag {
            tag,
            cases: Some(cases),
        })
    };
    let solution = |listed: ListedSolution| {
        let judged = match language_of(&listed.source.kind) {
            Some(_) => Ok(()),
            None => Err(format!(
                "its source type `{}` is not one this judge builds",
                listed.source.kind
            )),
        };
        Ok(TaggedSolution {
            path: source_in(dir, &xml, &listed.source, "solution")?,
            tag: listed.tag,
            extra_tags: listed
                .extra_tags
                .into_iter()
                .map(part)
                .collect::<Result<_>>()?,
            judged,
        })
    };
    description.solutions.into_iter().map(solution).collect()
}

fn problem_of(
    dir: &Path,
    xml: &Path,
    id: String,
    description: &Description,
    cases: Vec<TestCase>,
) -> Result<Problem> {
    let at = |line: usize, message: String| Error::parse(xml, Some(line), message);
    let file_io = |file: &Option<(String, usize)>| -> Result<Option<String>> {
        match file {
            Some((name, _)) if FileIo::is_plain_name(name) => Ok(Some(name.clone())),
            Some((name, line)) => Err(at(
                *line,
                format!("<judging>: `{name}` is not a plain file name in the program's folder"),
            )),
            None => Ok(None),
        }
    };
    let files = FileIo {
        input: file_io(&description.input_file)?,
        output: file_io(&description.output_file)?,
    };
    let (checker, tout_checker) = checkers(dir, xml, description)?;
    let solution = match &description.main_solution {
        Some(main) => program_file(dir, xml, main, "main solution")?,
        // `--solution` may still name one; without it the run says none was found.
        None => dir.join("solutions").join("main"),
    };
    let memory_bytes = description.memory_bytes;
    let limits = Limits {
        cpu_time: std::time::Duration::from_millis(description.time_limit_ms),
        memory_bytes,
        output_bytes: OUTPUT_BYTES,
        // Codeforces gives the stack the whole memory limit.
        stack_bytes: memory_bytes,
        decided_at: None,
    };
    let profile = Profile::Codeforces;
    Ok(Problem {
        name: description.name.clone().unwrap_or_else(|| id.clone()),
        source_url: None,
        submit_url: None,
        picture: Default::default(),
        java_class: None,
        tout_checker,
        solution_languages: solution_languages(dir, xml, description),
        profile,
        solution,
        limits,
        compare: profile.online_judge().compare,
        checker: Some(checker),
        scoring: scoring(xml, description, &cases)?,
        cases,
        subtasks: Vec::new(),
        dir: dir.to_path_buf(),
        id,
        function: None,
        validator_args: Default::default(),
        files,
        package: None,
    })
}

/// Each listed solution's language as its source type says it (a `.py` of type `python.2`
/// is Python 2), and the main solution's.
fn solution_languages(
    dir: &Path,
    xml: &Path,
    description: &Description,
) -> std::collections::BTreeMap<std::path::PathBuf, super::NamedLanguage> {
    let listed = description.solutions.iter().map(|listed| &listed.source);
    (listed.chain(&description.main_solution))
        .filter_map(|source| {
            let named = super::NamedLanguage {
                id: language_of(&source.kind)?,
                least: least_version(&source.kind),
                pypy: source.kind.contains("pypy"),
                standard: cpp_standard(&source.kind),
            };
            Some((source_in(dir, xml, source, "solution").ok()?, named))
        })
        .collect()
}

/// The least version a source type asks for: `kotlin17` Kotlin 1.7, `java21` Java 21.
fn least_version(kind: &str) -> Option<(u32, u32)> {
    if let Some(digits) = kind.strip_prefix("java") {
        return Some((digits.parse().ok()?, 0));
    }
    let digits = kind.strip_prefix("kotlin")?;
    Some((
        digits.get(..1)?.parse().ok()?,
        digits.get(1..)?.parse().ok()?,
    ))
}

/// The checker, or with an interactor, the interactor and then the checker of what it wrote:
/// testlib programs, called with `-appes` as Polygon calls them.
fn checkers(
    dir: &Path,
    xml: &Path,
    description: &Description,
) -> Result<(CheckerSpec, Option<CheckerSpec>)> {
    let checker_source = description.checker.as_ref().ok_or_else(|| {
        Error::parse(
            xml,
            Some(description.assets_line),
            "no <checker> in <assets>: a Polygon package always has one",
        )
    })?;
    let testlib = |source, mode| CheckerSpec {
        appes: true,
        ..CheckerSpec::testlib(source, mode)
    };
    let twice = description.runs_twice;
    let mode = Mode {
        interactive: description.interactor.is_some(),
        passes: if twice.is_some() { 2 } else { 1 },
        twice,
    };
    let checker_source = program_file(dir, xml, checker_source, "checker")?;
    Ok(match &description.interactor {
        Some(interactor) => {
            let source = program_file(dir, xml, interactor, "interactor")?;
            let checker = testlib(checker_source, Mode::AFTER_RUN);
            (testlib(source, mode), Some(checker))
        }
        None => {
            let mut checker = testlib(checker_source, mode);
            if twice.is_some() {
                // What it prints after the first run is the second run's input.
                checker.limits.output_bytes = OUTPUT_BYTES;
            }
            (checker, None)
        }
    })
}

/// When tests or groups have points: a `complete-group` group is one subtask worth the
/// group's points (else its tests' sum), won when every test passes; in an `each-test` group,
/// or in none, each test is a subtask worth its points. A group counts only when the groups
/// it depends on pass whole.
fn scoring(xml: &Path, description: &Description, cases: &[TestCase]) -> Result<Option<Scoring>> {
    let tests = &description.tests;
    // Groups alone (for validators, say) score nothing.
    let positive = |points: Option<f64>| points.is_some_and(|points| points > 0.0);
    let scored = tests.iter().any(|test| positive(test.points))
        || description
            .groups
            .iter()
            .any(|group| positive(group.points));
    if !scored || cases.len() != tests.len() {
        return Ok(None);
    }
    let group_of = |name: &str| description.groups.iter().find(|group| group.name == name);
    for group in &description.groups {
        if let Some(unknown) = group.dependencies.iter().find(|d| group_of(d).is_none()) {
            return Err(Error::parse(
                xml,
                Some(group.line),
                format!(
                    "group `{}` depends on `{unknown}`, which is not a group",
                    group.name
                ),
            ));
        }
    }
    let mut subtasks: Vec<Subtask> = Vec::new();
    for (test, case) in tests.iter().zip(cases) {
        let group = test.group.as_deref().map(|name| (name, group_of(name)));
        let dependencies = (group.and_then(|(_, entry)| entry))
            .map(|entry| entry.dependencies.clone())
            .unwrap_or_default();
        let points = test.points.unwrap_or(0.0);
        match group {
            // Its group's one subtask, made at its first test.
            Some((name, entry)) if !entry.is_some_and(|entry| entry.each_test) => {
                match subtasks.iter_mut().find(|subtask| subtask.name == name) {
                    Some(subtask) => {
                        subtask.cases.push(case.name.clone());
                        if entry.and_then(|entry| entry.points).is_none() {
                            subtask.points += points;
                        }
                    }
                    None => subtasks.push(Subtask {
                        name: name.to_owned(),
                        points: entry.and_then(|entry| entry.points).unwrap_or(points),
                        cases: vec![case.name.clone()],
                        dependencies,
                        checker_points: None,
                    }),
                }
            }
            _ => subtasks.push(Subtask {
                name: group
                    .map_or(case.name.as_str(), |(name, _)| name)
                    .to_owned(),
                points,
                cases: vec![case.name.clone()],
                dependencies,
                // A checker's points as they are, or as a percentage of the test's.
                checker_points: Some(match description.points_as_percent {
                    true => points / 100.0,
                    false => 1.0,
                }),
            }),
        }
    }
    Ok(Some(Scoring::Subtasks(subtasks)))
}

/// A program `problem.xml` names: inside the package, present, of a type this judge builds.
fn program_file(
    dir: &Path,
    xml: &Path,
    source: &SourceRef,
    what: &str,
) -> Result<std::path::PathBuf> {
    let at = |message: String| Error::parse(xml, Some(source.line), message);
    if language_of(&source.kind).is_none() {
        return Err(at(format!(
            "the {what}'s source type `{}` is not one this judge builds \
             (c.*, cpp.*, java*, kotlin*, python.*, pypy*, rust*, go*, csharp*, js*)",
            source.kind
        )));
    }
    source_in(dir, xml, source, what)
}

/// A source `problem.xml` names: inside the package, present.
fn source_in(dir: &Path, xml: &Path, source: &SourceRef, what: &str) -> Result<std::path::PathBuf> {
    let at = |message: String| Error::parse(xml, Some(source.line), message);
    let inside = Path::new(&source.path)
        .components()
        .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
    if !inside {
        return Err(at(format!(
            "the {what}'s source `{}` leaves the package folder",
            source.path
        )));
    }
    let path = dir.join(&source.path);
    if !path.is_file() {
        return Err(at(format!(
            "the {what}'s source `{}` is not in the package",
            source.path
        )));
    }
    Ok(path)
}

/// The C++ standard a source type names, as g++'s flag: `cpp.g++11`, `cpp.msys2-mingw64-9-g++17`
/// and `cpp.gcc11-64-winlibs-g++20` by the number after their last `g++`, the long form
/// `cpp=17.gcc` or `cpp=gnu-17` by the version. `cpp.g++` names none.
fn cpp_standard(kind: &str) -> Option<&'static str> {
    let version = match kind.strip_prefix("cpp=") {
        Some(long) => long.split('.').next()?,
        None => kind.strip_prefix("cpp.")?.rsplit_once("g++")?.1,
    };
    Some(match version {
        "98" => "-std=c++98",
        "03" => "-std=c++03",
        "11" => "-std=c++11",
        "14" => "-std=c++14",
        "17" => "-std=c++17",
        "20" => "-std=c++20",
        "23" => "-std=c++23",
        "gnu-11" => "-std=gnu++11",
        "gnu-14" => "-std=gnu++14",
        "gnu-17" => "-std=gnu++17",
        "gnu-20" => "-std=gnu++20",
        "gnu-23" => "-std=gnu++23",
        _ => return None,
    })
}

/// By the source type's family (`cpp.g++17`, `python.3`, `java11`).
fn language_of(kind: &str) -> Option<LanguageId> {
    // `python.3`, `pypy2`, `java11`, or the long form `python=3.cpython`, `python^2`.
    let head = kind.split('.').next().unwrap_or_default();
    let family = (head.split(['=', '^']).next().unwrap_or_default())
        .trim_end_matches(|c: char| c.is_ascii_digit());
    let python2 = kind.ends_with('2') || head.ends_with('2') || head.contains("^2");
    Some(match family {
        "c" => LanguageId::C,
        "cpp" => LanguageId::Cpp,
        "java" => LanguageId::Java,
        "kotlin" => LanguageId::Kotlin,
        "python" | "pypy" if python2 => LanguageId::Python2,
        "python" | "pypy" => LanguageId::Python3,
        "rust" => LanguageId::Rust,
        "go" => LanguageId::Go,
        "csharp" => LanguageId::CSharp,
        "js" | "javascript" | "nodejs" => LanguageId::JavaScript,
        _ => return None,
    })
}

/// One test of the testset; its files may be missing.
pub struct PackageTest {
    /// 1 to `test-count`.
    pub number: usize,
    /// The number as the input pattern writes it (`01`), a sample's below `sample/`.
    pub name: String,
    pub input: std::path::PathBuf,
    pub answer: std::path::PathBuf,
    /// `cmd` of a generated test: the generator's name, then its arguments.
    pub command: Option<Vec<String>>,
    /// The file the generator writes this input to (`doall.sh`'s `gen-input-via-file.sh` and
    /// `gen-input-via-files.sh`); `None`: its standard output.
    pub from_file: Option<String>,
    pub group: Option<String>,
    /// Of its `<test>`.
    pub line: usize,
}

/// Numbered 1 to `test-count`, whether their files are there or not; a count that the
/// `<tests>` list contradicts is an error.
fn tests(dir: &Path, xml: &Path, description: &Description) -> Result<Vec<PackageTest>> {
    let (count, count_line) = description.test_count;
    let at = |line: usize, message: String| Error::parse(xml, Some(line), message);
    if description.tests.len() != count {
        return Err(at(
            count_line,
            format!(
                "<test-count> is {count}, but <tests> lists {} tests",
                description.tests.len()
            ),
        ));
    }
    if count == 0 {
        return Err(at(count_line, "the testset has no tests".to_owned()));
    }
    // Older packages mark every test manual; their doall.sh still holds each command.
    let scripted = doall_commands(dir);
    let tests = description.tests.iter().enumerate().map(|(index, test)| {
        let number = index + 1;
        let shown = description.input_pattern.number(number);
        PackageTest {
            number,
            name: match test.sample {
                true => format!("{}/{shown}", SAMPLE_GROUPS[0]),
                false => shown,
            },
            input: dir.join(description.input_pattern.path(number)),
            answer: dir.join(description.answer_pattern.path(number)),
            command: (test.generated.as_deref())
                .map(command_words)
                .or_else(|| scripted.get(&number).map(|made| made.command.clone())),
            from_file: scripted
                .get(&number)
                .and_then(|made| made.from_file.clone()),
            group: test.group.clone(),
            line: test.line,
        }
    });
    Ok(tests.collect())
}

/// How `doall.sh` makes a test: the generator command as a test's `cmd` reads it, and the
/// file it writes the input to, if not standard output.
#[derive(Debug, PartialEq)]
struct Scripted {
    command: Vec<String>,
    from_file: Option<String>,
}

/// Each test `doall.sh` (or `doall.bat`) makes, by number, from the lines of Polygon's three
/// scripts: `gen-input-via-stdout.sh "CMD" "tests/NN" N`, `gen-input-via-file.sh "CMD"
/// "tests/NN" FILE` and `gen-input-via-files.sh "CMD" "tests/NN:tests/MM" "N:M"`, the last
/// two running the generator in an empty folder and taking the files it writes there.
fn doall_commands(dir: &Path) -> std::collections::HashMap<usize, Scripted> {
    // A Windows download may have only `doall.bat`: `call scripts\gen-input-via-stdout.bat ...`.
    let text = ["doall.sh", "doall.bat"]
        .iter()
        .find_map(|script| std::fs::read_to_string(dir.join(script)).ok())
        .unwrap_or_default();
    let mut made = std::collections::HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        let line = line
            .strip_prefix("call ")
            .unwrap_or(line)
            .replace('\\', "/");
        let Some((script, rest)) =
            (line.strip_prefix("scripts/gen-input-via-")).and_then(|rest| rest.split_once(' '))
        else {
            continue;
        };
        let script = script.trim_end_matches(".sh").trim_end_matches(".bat");
        let words: Vec<&str> = (rest.split('"').map(str::trim))
            .filter(|word| !word.is_empty())
            .collect();
        let [cmd, paths, third] = words[..] else {
            continue;
        };
        let Some(command) = generator_command(cmd) else {
            continue;
        };
        let number = |path: &str| -> Option<usize> {
            let name = Path::new(path).file_name()?.to_str()?;
            name.trim_start_matches('0').parse().ok()
        };
        let tests: Vec<(Option<usize>, Option<String>)> = match script {
            "stdout" => vec![(third.parse().ok(), None)],
            "file" => vec![(number(paths), Some(third.to_owned()))],
            "files" => (paths.split(':').zip(third.split(':')))
                .map(|(path, index)| (number(path), Some(index.to_owned())))
                .collect(),
            _ => continue,
        };
        for (test, from_file) in tests {
            let command = command.clone();
            made.extend(test.map(|test| (test, Scripted { command, from_file })));
        }
    }
    made
}

/// A test's `cmd` as a shell splits it: words apart at blanks, a quoted one (`"5 6"`, `'x'`)
/// whole and without its quotes, as problem-xml-specs §12.3 allows.
fn command_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => word.get_or_insert_default().push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, _) if c.is_whitespace() => words.extend(word.take()),
            (None, _) => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    words
}

/// `wine files/gen.exe ARGS` (Polygon runs a Windows build) or `files/gen ARGS` as a test's
/// `cmd` reads: `gen ARGS`.
fn generator_command(cmd: &str) -> Option<Vec<String>> {
    let mut words = cmd.split_whitespace().skip_while(|word| *word == "wine");
    let program = Path::new(words.next()?)
        .file_stem()?
        .to_string_lossy()
        .into_owned();
    Some(
        std::iter::once(program)
            .chain(words.map(str::to_owned))
            .collect(),
    )
}

/// A file past the last test (`tests/64` when `test-count` is 63): the count is wrong.
fn nothing_beyond(dir: &Path, xml: &Path, description: &Description) -> Result<()> {
    let (count, count_line) = description.test_count;
    let extra = description.input_pattern.path(count + 1);
    match dir.join(&extra).is_file() {
        true => Err(Error::parse(
            xml,
            Some(count_line),
            format!("<test-count> is {count}, but the package also holds `{extra}`"),
        )),
        false => Ok(()),
    }
}

/// A missing input or answer is an error that says how `judge gen` makes it.
fn cases(dir: &Path, xml: &Path, description: &Description) -> Result<Vec<TestCase>> {
    let mut cases = Vec::new();
    for test in tests(dir, xml, description)? {
        for file in [&test.input, &test.answer] {
            if file.is_file() {
                continue;
            }
            let why = match &test.command {
                Some(command) if file == &test.input => format!(
                    "it is generated (`{}`): `judge gen` makes it with the package's generator",
                    command.join(" ")
                ),
                _ if file == &test.answer => {
                    "`judge gen` makes it with the main solution".to_owned()
                }
                _ => "it is a manual test".to_owned(),
            };
            let shown = file.strip_prefix(dir).unwrap_or(file).display().to_string();
            return Err(Error::parse(
                xml,
                Some(test.line),
                format!(
                    "test {}: `{shown}` is not in the package: {why}",
                    test.number
                ),
            ));
        }
        cases.push(TestCase::new(test.name, test.input, test.answer));
    }
    nothing_beyond(dir, xml, description)?;
    Ok(cases)
}

/// A self-test of the checker or a validator; its files may be missing from the download.
pub struct SelfTest {
    /// The number its files are named by.
    pub number: usize,
    pub input: std::path::PathBuf,
    /// A checker test's.
    pub output_and_answer: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// `valid` or `invalid` for a validator; `ok`, `wrong-answer`, `presentation-error`, ...
    /// for the checker.
    pub verdict: String,
}

/// What `verify` checks of a package beside its solutions: its tests through each
/// validator, the validators' self-tests and the checker's.
pub struct SelfChecks {
    pub tests: Vec<PackageTest>,
    /// Each validator this judge builds, with its self-tests.
    pub validators: Vec<(std::path::PathBuf, Vec<SelfTest>)>,
    pub checker_tests: Vec<SelfTest>,
}

pub fn self_checks(dir: &Path) -> Result<SelfChecks> {
    let (xml, description) = read(dir)?;
    let self_tests = |tests: &Option<problem_xml::SelfTests>| -> Vec<SelfTest> {
        let Some(tests) = tests else {
            return Vec::new();
        };
        let files = |number| {
            let output = tests.output.as_ref()?.path(number);
            let answer = tests.answer.as_ref()?.path(number);
            Some((dir.join(output), dir.join(answer)))
        };
        // Polygon numbers self-tests by id, where a deleted test leaves a gap: the tests, in
        // order, are the files there are; a test past them is missing.
        let count = tests.verdicts.len();
        let mut numbers: Vec<usize> = (1..=count + SELF_TEST_GAPS)
            .filter(|number| dir.join(tests.input.path(*number)).is_file())
            .take(count)
            .collect();
        let mut next = numbers.last().copied().unwrap_or(0);
        while numbers.len() < count {
            next += 1;
            numbers.push(next);
        }
        (tests.verdicts.iter().zip(numbers))
            .map(|((verdict, _), number)| SelfTest {
                number,
                input: dir.join(tests.input.path(number)),
                output_and_answer: files(number),
                verdict: verdict.clone(),
            })
            .collect()
    };
    let mut validators = Vec::new();
    for (source, tests) in &description.validators {
        if language_of(&source.kind).is_some() {
            validators.push((
                source_in(dir, &xml, source, "validator")?,
                self_tests(tests),
            ));
        }
    }
    Ok(SelfChecks {
        tests: tests(dir, &xml, &description)?,
        validators,
        checker_tests: self_tests(&description.checker_tests),
    })
}

/// What `judge gen` needs of a package, whose tests may lack their files.
pub struct Generation {
    /// With no cases: its limits and main solution.
    pub problem: Problem,
    pub tests: Vec<PackageTest>,
    /// `<executables>`' sources that `judge` builds, by the name a command calls them
    /// (`files/gen.cpp` is `gen`).
    pub generators: Vec<(String, std::path::PathBuf)>,
    /// For the faults gen finds to name.
    pub xml: std::path::PathBuf,
}

pub fn generation(dir: &Path, id: String) -> Result<Generation> {
    let (xml, description) = read(dir)?;
    let generators = (description.executables.iter())
        .filter(|source| language_of(&source.kind).is_some())
        .map(|source| {
            let path = source_in(dir, &xml, source, "executable")?;
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            Ok((name.into_owned(), path))
        })
        .collect::<Result<Vec<_>>>()?;
    let tests = tests(dir, &xml, &description)?;
    nothing_beyond(dir, &xml, &description)?;
    Ok(Generation {
        problem: problem_of(dir, &xml, id, &description, Vec::new())?,
        tests,
        generators,
        xml,
    })
}

/// CRLF made LF, for a package downloaded for Windows, as Linux reads and writes its text.
pub fn with_lf_ends(bytes: &[u8]) -> Vec<u8> {
    let crlf = |index: usize| bytes[index] == b'\r' && bytes.get(index + 1) == Some(&b'\n');
    (0..bytes.len())
        .filter(|&index| !crlf(index))
        .map(|index| bytes[index])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_split_as_a_shell_splits_it() {
        assert_eq!(command_words("gen  3\t7"), ["gen", "3", "7"]);
        assert_eq!(
            command_words(r#"gen "5 6" 'a b'c "" x"#),
            ["gen", "5 6", "a bc", "", "x"]
        );
    }

    #[test]
    fn only_a_cr_before_lf_goes() {
        assert_eq!(with_lf_ends(b"a\r\nb\r\r\nc\r"), b"a\nb\r\nc\r");
        assert_eq!(with_lf_ends(b"\r\n\r\n"), b"\n\n");
        assert_eq!(with_lf_ends(b""), b"");
    }

    #[test]
    fn doall_sh_gives_the_commands_of_tests_marked_manual() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("doall.sh"),
            "#!/usr/bin/env bash\nmkdir -p tests\necho \"Generating test #3\"\n\
             scripts/gen-input-via-stdout.sh \"wine files/gen.exe --type=tree 01\" \"tests/03\" 3\n\
             scripts/gen-input-via-stdout.sh \"files/gen2 7\" \"tests/04\" 4\n\
             scripts/gen-input-via-file.sh \"wine files/one.exe 5\" \"tests/05\" \"in.txt\"\n\
             scripts/gen-input-via-files.sh \"wine files/multi.exe 2\" \"tests/06:tests/10\" \"1:2\"\n\
             scripts/gen-answer.sh tests/03 tests/03.a\n",
        )
        .unwrap();
        let commands = doall_commands(dir.path());
        let made = |text: &str, from_file: Option<&str>| Scripted {
            command: text.split(' ').map(str::to_owned).collect(),
            from_file: from_file.map(str::to_owned),
        };
        assert_eq!(commands.len(), 5);
        assert_eq!(commands[&3], made("gen --type=tree 01", None));
        assert_eq!(commands[&4], made("gen2 7", None));
        assert_eq!(commands[&5], made("one 5", Some("in.txt")));
        assert_eq!(commands[&6], made("multi 2", Some("1")));
        assert_eq!(commands[&10], made("multi 2", Some("2")));
        assert!(doall_commands(&dir.path().join("none")).is_empty());
        // A Windows download's `doall.bat` says the same.
        std::fs::remove_file(dir.path().join("doall.sh")).unwrap();
        std::fs::write(
            dir.path().join("doall.bat"),
            "md tests\r\ncall scripts\\gen-input-via-stdout.bat \"files\\gen.exe 9\" \"tests\\07\" 7\r\n",
        )
        .unwrap();
        let commands = doall_commands(dir.path());
        assert_eq!(commands.len(), 1);
        assert_eq!(commands[&7], made("gen 9", None));
    }

    #[test]
    fn source_types_are_told_by_their_family() {
        assert_eq!(language_of("cpp.g++17"), Some(LanguageId::Cpp));
        assert_eq!(
            language_of("cpp.msys2-mingw64-9-g++17"),
            Some(LanguageId::Cpp)
        );
        assert_eq!(language_of("c.gcc"), Some(LanguageId::C));
        assert_eq!(language_of("java11"), Some(LanguageId::Java));
        assert_eq!(language_of("python.3"), Some(LanguageId::Python3));
        assert_eq!(language_of("python.2"), Some(LanguageId::Python2));
        assert_eq!(language_of("python.pypy3"), Some(LanguageId::Python3));
        assert_eq!(language_of("pypy2"), Some(LanguageId::Python2));
        assert_eq!(language_of("python2"), Some(LanguageId::Python2));
        assert_eq!(language_of("python=3.cpython"), Some(LanguageId::Python3));
        assert_eq!(language_of("python^2.pypy"), Some(LanguageId::Python2));
        assert_eq!(language_of("nodejs"), Some(LanguageId::JavaScript));
        assert_eq!(language_of("kotlin16"), Some(LanguageId::Kotlin));
        assert_eq!(language_of("pascal.fpc"), None);
        assert_eq!(cpp_standard("cpp.g++11"), Some("-std=c++11"));
        assert_eq!(
            cpp_standard("cpp.msys2-mingw64-9-g++17"),
            Some("-std=c++17")
        );
        assert_eq!(
            cpp_standard("cpp.gcc13-64-winlibs-g++20"),
            Some("-std=c++20")
        );
        assert_eq!(cpp_standard("cpp=gnu-14.gcc"), Some("-std=gnu++14"));
        assert_eq!(cpp_standard("cpp.g++"), None);
        assert_eq!(cpp_standard("cpp.ms2017"), None);
        assert_eq!(cpp_standard("c.gcc"), None);
        assert_eq!(language_of("delphi.7"), None);
    }

    #[test]
    fn a_source_type_may_ask_for_a_least_version() {
        assert_eq!(least_version("kotlin17"), Some((1, 7)));
        assert_eq!(least_version("kotlin20"), Some((2, 0)));
        assert_eq!(least_version("java8"), Some((8, 0)));
        assert_eq!(least_version("java21"), Some((21, 0)));
        for none in ["kotlin", "java", "cpp.g++17", "python.3", "javascript"] {
            assert_eq!(least_version(none), None, "{none}");
        }
    }
}
