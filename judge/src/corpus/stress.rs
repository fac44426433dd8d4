//! `judge stress`: the generator with fresh seeds, the solution against the reference, and
//! on the first disagreement a minimised counterexample saved as a new case.
//!
//! Minimising: an input of many cases (the recipe's `layout`) is cut down to the one case the
//! solution gets wrong; a single-case input is regenerated at the smallest size that fails.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::corpus::{
    add_case, build_tool, prebuild_tools, run_tool, Expected, Naming, Tool, Validator,
};
use crate::error::{CorpusFault, Error, Result};
use crate::judging::judge_case;
use crate::judging::verdict::Verdict;
use crate::problem::layout::{GENERATOR_FILE, RECIPE_FILE, REFERENCE_FILE, TESTS_DIR};
use crate::problem::recipe::{split_args, Layout, Recipe, StressRecipe};
use crate::problem::{Problem, TestCase};
use crate::toolchain::{Build, Compiler, Program};

#[derive(Debug, Clone, Copy)]
pub enum Budget {
    Iterations(u64),
    Time(Duration),
}

#[derive(Debug)]
pub enum Found {
    Nothing { runs: u64 },
    Counterexample(Counterexample),
}

#[derive(Debug)]
pub struct Counterexample {
    pub runs: u64,
    /// The generator arguments that first showed the disagreement.
    pub args: String,
    /// The saved case, below `tests/`.
    pub case: String,
    /// The verdict the solution gets on the saved case, and why.
    pub verdict: Verdict,
    pub reason: String,
}

struct Programs<'a> {
    problem: &'a Problem,
    compiler: &'a Compiler,
    generator: Tool,
    reference: Tool,
    validator: Option<Validator>,
    solution: Program,
    checker: Option<Program>,
    recipe: StressRecipe,
}

impl Programs<'_> {
    fn args(&self, seed: u64, size: u64) -> String {
        self.recipe
            .args
            .replace("{seed}", &seed.to_string())
            .replace("{size}", &size.to_string())
    }

    /// The generator's input for `args`; one the validator rejects is the generator's fault,
    /// named so, never run against the solution.
    fn generate(&self, args: &str) -> Result<Vec<u8>> {
        let made_by = format!("`gen {args}`");
        let input = run_tool(
            &self.generator,
            &split_args(args),
            b"",
            self.problem,
            &made_by,
        )?;
        if let Some(validator) = &self.validator {
            let made_by = format!("the generator's input for {made_by}");
            validator.check(&input, self.problem, &made_by, None)?;
        }
        Ok(input)
    }

    /// The solution's verdict on `input`, judged against the reference's output.
    fn judge(&self, input: &[u8]) -> Result<(Verdict, String)> {
        let expected = run_tool(&self.reference, &[], input, self.problem, "a stress input")?;
        let dir = tempfile::tempdir().map_err(|error| Error::io(std::env::temp_dir(), error))?;
        let case = TestCase::new(
            "stress".into(),
            dir.path().join("stress.in"),
            dir.path().join("stress.out"),
        );
        std::fs::write(&case.input, input).map_err(|error| Error::io(&case.input, error))?;
        std::fs::write(&case.expected, &expected)
            .map_err(|error| Error::io(&case.expected, error))?;
        let result = judge_case(
            self.problem,
            &self.solution,
            (self.checker.as_ref(), None),
            &case,
        );
        let reason = result
            .failure
            .map(|failure| failure.message)
            .unwrap_or_default();
        Ok((result.verdict, reason))
    }

    fn fails(&self, input: &[u8]) -> Result<bool> {
        Ok(!self.judge(input)?.0.is_accepted())
    }
}

/// Stresses `solution` on `problem`, with seeds from `first_seed` on, its programs built
/// `jobs` at a time; `progress` is told the number of runs so far after each one.
pub fn stress(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
    solution: &Path,
    budget: Budget,
    first_seed: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<Found> {
    let recipe = Recipe::load(&problem.dir)?
        .and_then(|recipe| recipe.stress)
        .ok_or_else(|| {
            Error::corpus(problem.dir.join(RECIPE_FILE), CorpusFault::NoStressSection)
        })?;
    let checker = problem.checker.iter().map(|spec| {
        let sources = problem.own_program_sources(&spec.source);
        (spec.source.clone(), sources)
    });
    let solution_sources = (solution.to_path_buf(), problem.solution_sources(solution));
    prebuild_tools(
        compiler,
        problem,
        checker.chain([solution_sources]).collect(),
        jobs,
    );
    let solution = match compiler.build_from(solution, problem.solution_sources(solution)?)? {
        Build::Ready(program) => program,
        Build::CompileError(message) => {
            return Err(Error::DoesNotCompile {
                path: solution.to_path_buf(),
                message,
            })
        }
    };
    let programs = Programs {
        problem,
        compiler,
        generator: build_tool(compiler, problem, GENERATOR_FILE)?,
        reference: build_tool(compiler, problem, REFERENCE_FILE)?,
        validator: Validator::of(compiler, problem)?,
        solution,
        checker: crate::judging::checker::build_checker(compiler, problem)?,
        recipe,
    };
    let started = Instant::now();
    let mut runs = 0;
    loop {
        let over = match budget {
            Budget::Iterations(limit) => runs >= limit,
            Budget::Time(limit) => started.elapsed() >= limit,
        };
        if over {
            return Ok(Found::Nothing { runs });
        }
        let seed = first_seed.wrapping_add(runs);
        let args = programs.args(seed, programs.recipe.size);
        let input = programs.generate(&args)?;
        runs += 1;
        let failed = programs.fails(&input)?;
        progress(runs);
        if failed {
            return save_counterexample(&programs, seed, args, input, runs)
                .map(Found::Counterexample);
        }
    }
}

fn save_counterexample(
    programs: &Programs,
    seed: u64,
    args: String,
    input: Vec<u8>,
    runs: u64,
) -> Result<Counterexample> {
    let (input, how) = minimise(programs, seed, &args, input)?;
    let problem = programs.problem;
    // `stress/SEED`, or `stress/SEED-1`, ... when taken: the seed says how to reproduce it.
    let name = |n: u64| match n {
        0 => format!("stress/{seed}"),
        n => format!("stress/{seed}-{n}"),
    };
    let case = add_case(
        problem,
        programs.compiler,
        Naming::Next(&name),
        &input,
        Expected::FromReference,
        Some(how),
    )?
    .name;
    let (verdict, reason) = programs.judge(&input)?;
    if verdict.is_accepted() {
        return Err(Error::corpus(
            problem.dir.join(TESTS_DIR).join(format!("{case}.in")),
            CorpusFault::NotDeterministic,
        ));
    }
    Ok(Counterexample {
        runs,
        args,
        case,
        verdict,
        reason,
    })
}

/// A smaller input that still fails, and how it was made (for provenance).
fn minimise(
    programs: &Programs,
    seed: u64,
    args: &str,
    input: Vec<u8>,
) -> Result<(Vec<u8>, String)> {
    let recipe = &programs.recipe;
    if recipe.layout == Layout::Single {
        for size in 1..recipe.size {
            let smaller_args = programs.args(seed, size);
            let smaller = programs.generate(&smaller_args)?;
            if programs.fails(&smaller)? {
                return Ok((smaller, format!("{GENERATOR_FILE} {smaller_args}")));
            }
        }
    } else {
        // The first case that fails on its own; one that fails only together with others
        // (state kept between cases) leaves the whole input as the counterexample.
        for (index, single) in split_cases(recipe, &input).into_iter().enumerate() {
            if programs.fails(&single)? {
                return Ok((
                    single,
                    format!("case {} of {GENERATOR_FILE} {args}", index + 1),
                ));
            }
        }
    }
    Ok((input, format!("{GENERATOR_FILE} {args}")))
}

/// Each case of a multi-case input, as a complete input of its own.
fn split_cases(recipe: &StressRecipe, input: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(input);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect();
    let cases: Vec<String> = match recipe.layout {
        Layout::Single => Vec::new(),
        Layout::Lines => lines.iter().map(|line| format!("{line}\n")).collect(),
        Layout::Terminated => {
            let terminator = recipe.terminator.as_deref().unwrap_or_default();
            lines
                .iter()
                .take_while(|line| line.trim() != terminator)
                .map(|line| format!("{line}\n{terminator}\n"))
                .collect()
        }
        Layout::Counted => {
            let per_case = recipe.lines_per_case.unwrap_or(1).max(1);
            lines
                .get(1..)
                .unwrap_or_default()
                .chunks(per_case)
                .map(|chunk| format!("1\n{}\n", chunk.join("\n")))
                .collect()
        }
    };
    cases.into_iter().map(String::into_bytes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe(
        layout: Layout,
        terminator: Option<&str>,
        lines_per_case: Option<usize>,
    ) -> StressRecipe {
        StressRecipe {
            args: String::new(),
            size: 1,
            layout,
            terminator: terminator.map(str::to_owned),
            lines_per_case,
        }
    }

    fn split(recipe: &StressRecipe, input: &str) -> Vec<String> {
        split_cases(recipe, input.as_bytes())
            .into_iter()
            .map(|case| String::from_utf8(case).unwrap())
            .collect()
    }

    #[test]
    fn each_layout_splits_into_complete_single_case_inputs() {
        assert_eq!(
            split(&recipe(Layout::Lines, None, None), "a\r\n\nb\n"),
            ["a\n", "b\n"]
        );
        assert_eq!(
            split(
                &recipe(Layout::Terminated, Some("end"), None),
                "XXX\nOOO\nend\n"
            ),
            ["XXX\nend\n", "OOO\nend\n"]
        );
        assert_eq!(
            split(
                &recipe(Layout::Counted, None, Some(2)),
                "2\nab\ncd\n\nef\ngh\n\n"
            ),
            ["1\nab\ncd\n", "1\nef\ngh\n"]
        );
        assert!(split(&recipe(Layout::Single, None, None), "1 2\n").is_empty());
    }
}
