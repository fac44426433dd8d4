//! `judge gen` on a Polygon package: each generated test's input made again by its `cmd` with
//! the package's own generator, and each missing answer by its main solution. A file the
//! package holds is only compared, never replaced: one that differs is a finding (a generator
//! that is not reproducible). What is missing is written in one transaction.

use std::path::{Path, PathBuf};

use super::transaction::{Session, Transaction};
use super::{in_parallel, run_tool, run_tool_with, Tool};
use crate::error::{if_exists, Error, Result};
use crate::judging::checker::first_error;
use crate::problem::polygon::{self, PackageTest};
use crate::problem::{FileIo, Problem};
use crate::toolchain::sources::Sources;
use crate::toolchain::Compiler;

type Written = Vec<(PathBuf, Vec<u8>)>;

/// What `judge gen` did to a package, or with `check`, would do.
#[derive(Debug, Default)]
pub struct PackageGen {
    pub tests: usize,
    /// Files written (with `check`: missing, that gen would write), relative to the package.
    pub written: Vec<String>,
    /// Generated inputs the package holds that came out byte for byte the same.
    pub reproduced: usize,
    /// Generated inputs that came out differently from the package's file: what differs.
    pub differing: Vec<String>,
    /// Generated inputs the package holds that could not be made again, and why.
    pub not_made: Vec<String>,
}

/// Makes what the package in `dir` (known as `id`) lacks, and compares what it holds.
pub fn generate_package(
    dir: &Path,
    id: String,
    compiler: &Compiler,
    jobs: usize,
    check: bool,
) -> Result<PackageGen> {
    // Before anything is read: an interrupted command's change is completed first.
    let session = if check {
        None
    } else {
        Some(Session::begin(dir)?)
    };
    let generation = polygon::generation(dir, id)?;
    let problem = &generation.problem;
    let (generators, unbuilt) = generators_called(&generation, compiler)?;
    let inputs = in_parallel(jobs, &generation.tests, |test| {
        let Some(command) = &test.command else {
            return Ok(None);
        };
        let Some(generator) = generators.get(&command[0]) else {
            return Ok(None);
        };
        let context = format!("`{}` (test {})", command.join(" "), test.number);
        match &test.from_file {
            None => run_tool(generator, &command[1..], b"", problem, &context).map(Some),
            Some(file) => written_file(generator, &command[1..], file, problem, &context),
        }
    })?;
    let mut report = PackageGen {
        tests: generation.tests.len(),
        ..PackageGen::default()
    };
    let shown = |path: &Path| path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let tests = &generation.tests;
    let (mut inputs, made) = take_inputs(&generation, inputs, &unbuilt, &mut report, &shown)?;
    let unanswered: Vec<usize> = (0..tests.len())
        .filter(|&index| !tests[index].answer.is_file())
        .collect();
    let to_write = (made.iter().map(|&index| &tests[index].input))
        .chain(unanswered.iter().map(|&index| &tests[index].answer));
    report.written = to_write.map(|path| shown(path)).collect();
    // With --check, what is missing is said, and nothing is made for it.
    let Some(session) = session else {
        return Ok(report);
    };
    let answers = answers(tests, &unanswered, &inputs, problem, compiler, jobs)?;
    let mut writes: Written = (made.iter())
        .map(|&index| {
            (
                tests[index].input.clone(),
                std::mem::take(&mut inputs[index]),
            )
        })
        .collect();
    writes.extend(answers);
    let mut transaction = Transaction::new(&session);
    for (path, bytes) in &writes {
        transaction.write(path, bytes, None)?;
    }
    for path in transaction.commit()? {
        // The lock keeps other judge commands out: a person made this file meanwhile.
        report.written.retain(|written| *written != shown(&path));
    }
    Ok(report)
}

/// Each test's input as it will be: the package's where it holds one (compared with what its
/// generator made, when that could run), else the one made. Every input, and the tests whose
/// input was made (to be written).
fn take_inputs(
    generation: &polygon::Generation,
    inputs: Vec<Option<Vec<u8>>>,
    unbuilt: &Unbuilt,
    report: &mut PackageGen,
    shown: &dyn Fn(&Path) -> String,
) -> Result<(Vec<Vec<u8>>, Vec<usize>)> {
    let mut made_here = Vec::new();
    let mut inputs_now = Vec::new();
    for (index, (test, made)) in generation.tests.iter().zip(inputs).enumerate() {
        let shipped = if_exists(&test.input, std::fs::read)?;
        match (shipped, made) {
            (Some(shipped), Some(made)) => {
                // A Windows download's generated files have CRLF ends, from the same generator.
                let same_lines = || polygon::with_lf_ends(&shipped) == polygon::with_lf_ends(&made);
                match first_difference(&shipped, &made) {
                    None => report.reproduced += 1,
                    Some(_) if same_lines() => report.reproduced += 1,
                    Some(at) => report.differing.push(format!(
                        "test {} (`{}`): `{}` differs from the package's file at byte {at} \
                         ({} bytes made, {} shipped)",
                        test.number,
                        shown(&test.input),
                        test.command.as_deref().unwrap_or_default().join(" "),
                        made.len(),
                        shipped.len()
                    )),
                }
                inputs_now.push(shipped);
            }
            (Some(shipped), None) => {
                if let Some(command) = &test.command {
                    let why = match unbuilt.get(&command[0]) {
                        Some((_, message)) => format!(
                            "test {}: `{}`: its generator does not compile here: {}",
                            test.number,
                            command.join(" "),
                            first_error(message)
                        ),
                        None => unlisted(test, command),
                    };
                    report.not_made.push(why);
                }
                inputs_now.push(shipped);
            }
            (None, Some(made)) => {
                made_here.push(index);
                inputs_now.push(made);
            }
            (None, None) => {
                let command = test.command.as_ref();
                if let Some((path, message)) = command.and_then(|c| unbuilt.get(&c[0])) {
                    return Err(Error::DoesNotCompile {
                        path: path.clone(),
                        message: message.clone(),
                    });
                }
                let why = match &test.command {
                    Some(command) => unlisted(test, command),
                    None => format!(
                        "test {}: `{}` is not in the package, and it is a manual test: \
                         nothing makes it",
                        test.number,
                        shown(&test.input)
                    ),
                };
                return Err(Error::parse(&generation.xml, Some(test.line), why));
            }
        }
    }
    Ok((inputs_now, made_here))
}

/// The file `file` that the generator writes in its folder, run with `args`: named as it is,
/// or with one or two zeros before it, as Polygon's `gen-input-via-files.sh` looks for it.
fn written_file(
    generator: &Tool,
    args: &[String],
    file: &str,
    problem: &Problem,
    context: &str,
) -> Result<Option<Vec<u8>>> {
    for name in [file.to_owned(), format!("0{file}"), format!("00{file}")] {
        let files = FileIo {
            input: None,
            output: Some(name.clone()),
        };
        let run = run_tool_with(generator, args, b"", problem, context, Some(&files))?;
        if files.output_written(&run.stderr) {
            return Ok(Some(run.stdout));
        }
    }
    Err(Error::ToolFailed {
        path: generator.path.clone(),
        message: format!("{context} wrote no file `{file}` in its folder"),
    })
}

/// Generators that do not compile here, by name: their source and the compiler's message.
type Unbuilt = std::collections::HashMap<String, (PathBuf, String)>;

/// Every generator a test's command calls that the package lists, built, by its name; and
/// those that do not compile here, which matters only for an input the package lacks (a
/// download's generators may have been built by another compiler).
fn generators_called(
    generation: &polygon::Generation,
    compiler: &Compiler,
) -> Result<(std::collections::HashMap<String, Tool>, Unbuilt)> {
    let mut built = std::collections::HashMap::new();
    let mut unbuilt = Unbuilt::new();
    for test in &generation.tests {
        let Some(name) = test.command.as_ref().and_then(|command| command.first()) else {
            continue;
        };
        if built.contains_key(name) || unbuilt.contains_key(name) {
            continue;
        }
        // Named as listed, or with its extension (`gen.py` for files/gen.py): §12.3.
        let stem = Path::new(name).file_stem().and_then(|stem| stem.to_str());
        let listed = (generation.generators.iter())
            .find(|(known, _)| known == name)
            .or_else(|| {
                (generation.generators.iter()).find(|(known, _)| Some(known.as_str()) == stem)
            });
        if let Some((_, source)) = listed {
            // A tool of the package: its testlib.h on the include path.
            let problem = &generation.problem;
            let sources = problem.own_program_sources(source)?;
            match build(compiler, problem, source, sources) {
                Ok(tool) => _ = built.insert(name.clone(), tool),
                Err(Error::DoesNotCompile { path, message }) => {
                    unbuilt.insert(name.clone(), (path, message));
                }
                Err(error) => return Err(error),
            }
        }
    }
    Ok((built, unbuilt))
}

/// The answers of the tests `unanswered` (by index), each made by the main solution from its
/// test's input.
fn answers(
    tests: &[PackageTest],
    unanswered: &[usize],
    inputs: &[Vec<u8>],
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
) -> Result<Written> {
    if unanswered.is_empty() {
        return Ok(Vec::new());
    }
    let missing: Vec<(&PackageTest, &Vec<u8>)> = (unanswered.iter())
        .map(|&index| (&tests[index], &inputs[index]))
        .collect();
    // Built and run as the judge runs a solution (Codeforces' commands, the language its
    // source type names): the answers are what that run prints.
    let sources = problem.solution_sources(&problem.solution)?;
    let main = build(compiler, problem, &problem.solution, sources)?;
    if let Some(spec) = problem.interaction() {
        return interaction_answers(problem, compiler, jobs, (&main, spec), &missing);
    }
    // A solution that reads and writes named files answers in its output file.
    let files = &problem.files;
    let named = (files.input.is_some() || files.output.is_some()).then_some(files);
    in_parallel(jobs, &missing, |(test, input)| {
        let context = format!("test {}, as the main solution answers it", test.number);
        let run = run_tool_with(&main, &[], input, problem, &context, named)?;
        if !files.output_written(&run.stderr) {
            let output = files.output.as_deref().unwrap_or_default();
            return Err(Error::ToolFailed {
                path: main.path.clone(),
                message: format!("{context}: it wrote no file `{output}` in its folder"),
            });
        }
        Ok((test.answer.clone(), run.stdout))
    })
}

/// Answers of an interactive or run-twice package, as Polygon makes them: the main solution
/// judged with an empty answer file, up to the file the last check would read (what the
/// interactor wrote, or the second run's output).
fn interaction_answers(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
    (main, spec): (&Tool, &crate::problem::CheckerSpec),
    missing: &[(&PackageTest, &Vec<u8>)],
) -> Result<Written> {
    use crate::judging::checker::{build_checker, build_own_program};
    let validator = build_checker(compiler, problem)?.expect("an interaction has its program");
    let after = match &problem.tout_checker {
        Some(spec) => Some((build_own_program(compiler, problem, &spec.source)?, spec)),
        None => None,
    };
    let limits = problem.limits_for(main.program.language);
    let scratch = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
    let empty = scratch.path().join("empty.a");
    std::fs::write(&empty, b"").map_err(|error| Error::io(&empty, error))?;
    in_parallel(jobs, missing, |(test, input)| {
        let path = scratch.path().join(format!("{}.in", test.number));
        let case = crate::problem::TestCase::new(test.name.clone(), path, empty.clone());
        std::fs::write(&case.input, input).map_err(|error| Error::io(&case.input, error))?;
        let programs = (
            &validator,
            after.as_ref().map(|(program, spec)| (program, *spec)),
        );
        let answered =
            crate::judging::interactive::answer(&main.program, limits, programs, spec, &case)
                .map_err(|error| Error::io(&main.path, error))?;
        let answer = answered.map_err(|why| Error::ToolFailed {
            path: main.path.clone(),
            message: format!(
                "test {}, as the main solution answers it: {why}",
                test.number
            ),
        })?;
        Ok((test.answer.clone(), answer))
    })
}

/// `source` of the package built from `sources`, named by its path in the package.
fn build(compiler: &Compiler, problem: &Problem, source: &Path, sources: Sources) -> Result<Tool> {
    let shown = source.strip_prefix(&problem.dir).unwrap_or(source);
    let shown = shown.display().to_string();
    super::tool_built_from(compiler, source.to_path_buf(), shown, sources)
}

/// The first byte at which `a` and `b` differ, if they do.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (common < a.len().max(b.len())).then_some(common)
}

/// Why a generated test's input cannot be made: its command calls no program listed.
fn unlisted(test: &PackageTest, command: &[String]) -> String {
    format!(
        "test {}: `{}` calls `{}`, which is not a program of <files><executables> that this \
         judge builds",
        test.number,
        command.join(" "),
        command[0]
    )
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn the_first_difference_is_where_the_bytes_part() {
        assert_eq!(first_difference(b"1 2\n", b"1 2\n"), None);
        assert_eq!(first_difference(b"1 2\n", b"1 3\n"), Some(2));
        assert_eq!(first_difference(b"1 2\n", b"1 2\n3\n"), Some(4));
        assert_eq!(first_difference(b"", b"x"), Some(0));
    }
}
