//! The report for people: a row per case with a fixed verdict column, CPU time and peak
//! memory; the reason, a bounded diff and stderr under a failed case; a summary per problem
//! and for the run. Colour only where the terminal takes it (`NO_COLOR` is respected).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};
use indicatif::{ProgressBar, ProgressStyle};

use super::Reporter;
use super::{format_bytes, CaseResult, RunSummary, Tally};
use crate::compile::Program;
use crate::diff::{DiffLine, Side};
use crate::error::Error;
use crate::problem::Problem;
use crate::verdict::Verdict;

/// Lines of a compiler message shown under CE.
const COMPILE_MESSAGE_LINES: usize = 40;

/// Runs with at least this many cases get a progress bar on a terminal.
const PROGRESS_BAR_CASES: usize = 50;

pub struct HumanReporter {
    out: AutoStream<std::io::Stdout>,
    err: AutoStream<std::io::Stderr>,
    /// Paths are shown relative to this folder.
    base: PathBuf,
    progress: Option<ProgressBar>,
}

impl HumanReporter {
    pub fn new(color: ColorChoice, base: PathBuf) -> Self {
        HumanReporter {
            out: AutoStream::new(std::io::stdout(), color),
            err: AutoStream::new(std::io::stderr(), color),
            base,
            progress: None,
        }
    }

    fn shown<'a>(&self, path: &'a Path) -> std::path::Display<'a> {
        path.strip_prefix(&self.base).unwrap_or(path).display()
    }

    fn line(&mut self, text: std::fmt::Arguments) {
        self.write(format!("{text}\n").as_bytes());
    }

    /// Writes above the progress bar, if there is one. A closed stdout (`judge | head`) must
    /// not turn into a panic, so write errors are ignored.
    fn write(&mut self, bytes: &[u8]) {
        let out = &mut self.out;
        match &self.progress {
            Some(bar) => bar.suspend(|| {
                let _ = out.write_all(bytes);
                let _ = out.flush();
            }),
            None => {
                let _ = out.write_all(bytes);
            }
        }
    }
}

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const GREEN: Style = AnsiColor::Green.on_default();
const RED: Style = AnsiColor::Red.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();
const MAGENTA: Style = AnsiColor::Magenta.on_default();

fn verdict_style(verdict: Verdict) -> Style {
    match verdict {
        Verdict::Accepted => GREEN,
        Verdict::WrongAnswer => RED,
        Verdict::TimeLimitExceeded
        | Verdict::MemoryLimitExceeded
        | Verdict::OutputLimitExceeded => YELLOW,
        Verdict::RuntimeError(_) => MAGENTA,
        Verdict::CompileError | Verdict::JudgeError => RED.bold(),
    }
}

fn verdict_text(result: &CaseResult) -> String {
    if result.confirmed {
        format!("{} (confirmed)", result.verdict)
    } else {
        result.verdict.to_string()
    }
}

impl Reporter for HumanReporter {
    fn run_started(&mut self, cases: usize) {
        // A bar only where a person watches: on a terminal, for a run long enough to need it.
        let terminal = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
        if cases >= PROGRESS_BAR_CASES && terminal {
            let bar = ProgressBar::new(cases as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} cases · {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.progress = Some(bar);
        }
    }

    fn problem_error(&mut self, error: &Error) {
        let _ = self.out.flush();
        let err = &mut self.err;
        let mut write = || {
            let _ = writeln!(err, "{RED}error{RED:#}: {error}");
        };
        match &self.progress {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    fn problem_started(&mut self, problem: &Problem, solution: &Path, program: Option<&Program>) {
        let build = match program {
            Some(program) if program.cached => " (cached)",
            Some(_) => " (compiled)",
            None => "",
        };
        let solution = self.shown(solution).to_string();
        self.line(format_args!(
            "{BOLD}{}{BOLD:#} {DIM}· {} · {solution}{build}{DIM:#}",
            problem.id, problem.name
        ));
    }

    fn compile_error(&mut self, _problem: &Problem, message: &str) {
        let style = verdict_style(Verdict::CompileError);
        self.line(format_args!(
            "  {style}CE{style:#}  the solution does not compile:"
        ));
        let lines: Vec<&str> = message.trim_end().lines().collect();
        for line in lines.iter().take(COMPILE_MESSAGE_LINES) {
            self.line(format_args!("      {line}"));
        }
        if lines.len() > COMPILE_MESSAGE_LINES {
            let more = lines.len() - COMPILE_MESSAGE_LINES;
            self.line(format_args!("      {DIM}… {more} more lines{DIM:#}"));
        }
    }

    fn case_finished(&mut self, _problem: &Problem, result: &CaseResult) {
        if let Some(bar) = &self.progress {
            bar.inc(1);
        }
        let style = verdict_style(result.verdict);
        self.line(format_args!(
            "  {style}{:<16}{style:#} {:<28} {:>6} ms {:>10}",
            verdict_text(result),
            result.name,
            result.cpu_time.as_millis(),
            format_bytes(result.peak_memory_bytes),
        ));
        let Some(failure) = &result.failure else {
            return;
        };
        self.line(format_args!("      {}", failure.message));
        if !failure.diff.is_empty() {
            let diff = render_diff(&failure.diff, "expected", "actual");
            self.write(diff.as_bytes());
        }
        if !failure.stderr.is_empty() {
            self.line(format_args!("      {DIM}stderr:{DIM:#}"));
            for line in failure.stderr.lines() {
                self.line(format_args!("      {DIM}│ {line}{DIM:#}"));
            }
        }
    }

    fn problem_finished(&mut self, problem: &Problem, tally: &Tally) {
        let style = if tally.accepted() == tally.cases {
            GREEN
        } else {
            RED
        };
        self.line(format_args!(
            "  {style}{}: {}/{} accepted{style:#} ({}) · max {} ms, {}\n",
            problem.id,
            tally.accepted(),
            tally.cases,
            counts(tally),
            tally.max_cpu_time.as_millis(),
            format_bytes(tally.max_peak_memory_bytes),
        ));
    }

    fn run_finished(&mut self, summary: &RunSummary) {
        let style = match summary.outcome() {
            crate::error::Outcome::Accepted => GREEN,
            _ => RED,
        };
        let mut parts = vec![format!(
            "{} problems, {} cases: {}",
            summary.problems,
            summary.tally.cases,
            if summary.tally.cases == 0 {
                "none run".to_owned()
            } else {
                counts(&summary.tally)
            }
        )];
        if summary.compile_errors > 0 {
            parts.push(format!("{} CE", summary.compile_errors));
        }
        if summary.errors > 0 {
            parts.push(format!("{} errors", summary.errors));
        }
        if summary.skipped > 0 {
            parts.push(format!("{} skipped after a failure", summary.skipped));
        }
        parts.push(format!(
            "compiled {}, cached {}",
            summary.compiled, summary.cached
        ));
        parts.push(format!("{:.2} s", summary.wall_time.as_secs_f64()));
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
        self.line(format_args!(
            "{style}Summary{style:#}: {}",
            parts.join(" · ")
        ));
        let _ = self.out.flush();
    }
}

/// A diff as indented lines, `-` for `old` and `+` for `new`, coloured (the stream drops the
/// colour where the terminal takes none).
pub fn render_diff(lines: &[DiffLine], old: &str, new: &str) -> String {
    let mut text = format!("      {DIM}diff: - {old}, + {new}{DIM:#}\n");
    for line in lines {
        let (sign, style) = match line.side {
            Side::Both => (' ', DIM),
            Side::Expected => ('-', RED),
            Side::Actual => ('+', GREEN),
        };
        text.push_str(&format!(
            "      {style}{sign} {:>5} │ {}{style:#}\n",
            line.number, line.text
        ));
    }
    text
}

/// `AC 10, WA 2`.
fn counts(tally: &Tally) -> String {
    tally
        .by_verdict()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}
