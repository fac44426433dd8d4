//! The report for people. By default a problem whose cases are all accepted is one line,
//! every other case is shown in full (reason, input file, a bounded diff, stderr), and the run
//! ends with the failures again, each with the command that judges it alone (`Detail`).
//! Colour only where the terminal takes it (`NO_COLOR` is respected).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};
use indicatif::{ProgressBar, ProgressStyle};

use super::RunSummary;
use super::{plural, subcase, Detail, Reporter};
use super::{ProgramOrigin, Stopped};
use crate::compare::diff::{DiffLine, Side};
use crate::error::Error;
use crate::judging::checker::{first_error, with_colon};
use crate::judging::scorecard::{format_score, ScoreError, Scorecard};
use crate::judging::verdict::Verdict;
use crate::judging::{format_bytes, CaseResult, Tally};
use crate::problem::Problem;
use crate::problem::Repository;

/// Lines of a compiler message shown under CE.
const COMPILE_MESSAGE_LINES: usize = 40;

/// Runs with at least this many cases get a progress bar on a terminal.
const PROGRESS_BAR_CASES: usize = 50;

/// The verdict column: wide enough for `TLE (confirmed)`.
const VERDICT_WIDTH: usize = 16;

pub struct HumanReporter {
    out: AutoStream<std::io::Stdout>,
    err: AutoStream<std::io::Stderr>,
    /// Paths are shown relative to its root; rerun commands are made by it.
    repository: Repository,
    detail: Detail,
    progress: Option<ProgressBar>,
    /// The problem being judged: its first line waits until a case shows it is needed.
    current: Option<Current>,
    /// Every failure of the run, for the list at its end: (verdict, problem, case, command).
    failures: Vec<(String, String, String, String)>,
}

struct Current {
    /// The problem's first line, until printed.
    heading: Option<String>,
    solution: PathBuf,
    build: &'static str,
    /// The case column: as wide as the problem's longest case name.
    name_width: usize,
    /// A scored problem's score line, printed under its summary line.
    score: Option<String>,
}

impl HumanReporter {
    pub fn new(color: ColorChoice, repository: Repository, detail: Detail) -> Self {
        HumanReporter {
            out: AutoStream::new(std::io::stdout(), color),
            err: AutoStream::new(std::io::stderr(), color),
            repository,
            detail,
            progress: None,
            current: None,
            failures: Vec::new(),
        }
    }

    fn shown<'a>(&self, path: &'a Path) -> std::path::Display<'a> {
        self.repository.relative(path).display()
    }

    fn line(&mut self, text: std::fmt::Arguments) {
        self.write(format!("{text}\n").as_bytes());
    }

    /// Prints the problem's first line if it has not been printed yet.
    fn heading(&mut self) {
        if let Some(heading) = self.current.as_mut().and_then(|c| c.heading.take()) {
            self.line(format_args!("{heading}"));
        }
    }

    /// Writes above the progress bar, if any. Errors are ignored: a closed stdout
    /// (`judge | head`) must not panic.
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

    /// Remembers a failure for the list at the end; `case` is `None` for a compile error.
    fn failed(&mut self, problem: &Problem, verdict: String, case: Option<&str>) {
        let solution = self
            .current
            .as_ref()
            .map_or(problem.solution.clone(), |c| c.solution.clone());
        let command = super::rerun::rerun_command(&self.repository, problem, &solution, case);
        self.failures.push((
            verdict,
            problem.id.clone(),
            case.unwrap_or_default().to_owned(),
            command,
        ));
    }

    /// What a merged report was made of, and what its hosts may have changed.
    fn merge_note(&mut self, note: &super::MergeNote) {
        let shards = &note.record.shards;
        let mut hosts: Vec<&str> = shards.iter().map(|s| s.host.name.as_str()).collect();
        hosts.sort_unstable();
        hosts.dedup();
        let total = shards.len() + note.record.missing.len();
        if self.detail != Detail::Quiet {
            self.line(format_args!(
                "{DIM}Merged from {} of {total} shards, judged on {}{DIM:#}",
                shards.len(),
                hosts.join(", ")
            ));
        }
        if !note.record.missing.is_empty() {
            let missing: Vec<String> = note
                .record
                .missing
                .iter()
                .map(|k| format!("{k}/{total}"))
                .collect();
            self.line(format_args!(
                "{YELLOW}Partial{YELLOW:#}: shard {} missing: its cases are not in this report",
                missing.join(", ")
            ));
        }
        if note.hosts_differ && !note.near_limit.is_empty() {
            self.line(format_args!(
                "{YELLOW}Hosts differ in speed{YELLOW:#} (the slowest ran the calibration loop {:.2}x as long): \
                 these verdicts near the time limit could depend on the host:",
                note.record.speed_ratio.unwrap_or(1.0)
            ));
            for line in &note.near_limit {
                self.line(format_args!("  {line}"));
            }
        } else if !note.near_limit.is_empty() {
            self.line(format_args!(
                "{DIM}Near the time limit: {}{DIM:#}",
                note.near_limit.join("; ")
            ));
        }
    }

    /// The case's row: verdict, name, CPU time, peak memory, and `cached` at its end where
    /// an earlier run's result was reused (the columns stay where scripts read them).
    fn row(&mut self, result: &CaseResult) {
        let width = self.current.as_ref().map_or(0, |c| c.name_width);
        let style = verdict_style(result.verdict);
        self.line(format_args!(
            "  {style}{:<VERDICT_WIDTH$}{style:#} {:<width$} {:>6} ms {:>10}{DIM}{}{DIM:#}",
            verdict_text(result),
            result.name,
            result.cpu_time.as_millis(),
            format_bytes(result.peak_memory_bytes),
            if result.cached { "  cached" } else { "" },
        ));
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

/// The verdict, and whether a re-run alone confirmed it.
fn verdict_text(result: &CaseResult) -> String {
    match result.confirmed {
        true => format!("{} (confirmed)", result.verdict),
        false => result.verdict.to_string(),
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

    fn cases_unjudged(&mut self, cases: usize) {
        if let Some(bar) = &self.progress {
            bar.dec_length(cases as u64);
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

    fn problem_started(
        &mut self,
        problem: &Problem,
        solution: &Path,
        built: Option<ProgramOrigin>,
    ) {
        let build = super::built_note(built);
        let shown = self.shown(solution).to_string();
        let heading = format!(
            "{BOLD}{}{BOLD:#} {DIM}· {} · {shown}{build}{DIM:#}",
            problem.id, problem.name
        );
        let name_width = problem
            .cases
            .iter()
            .map(|case| case.name.chars().count())
            .max()
            .unwrap_or(0);
        self.current = Some(Current {
            heading: Some(heading),
            solution: solution.to_path_buf(),
            build,
            name_width,
            score: None,
        });
        if self.detail == Detail::Verbose {
            self.heading();
        }
    }

    fn compile_error(&mut self, problem: &Problem, message: &str) {
        let style = verdict_style(Verdict::CompileError);
        self.failed(problem, "CE".into(), None);
        if self.detail == Detail::Quiet {
            // One line: which file, and the compiler's first error.
            let file = (self.current.as_ref()).map(|current| current.solution.clone());
            let shown = file.map(|file| format!(" {}", self.shown(&file)));
            let first = first_error(message);
            self.line(format_args!(
                "{style}CE{style:#}  {}: the solution{} does not compile{}",
                problem.id,
                shown.unwrap_or_default(),
                with_colon(&first)
            ));
            return;
        }
        self.heading();
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
        // No case follows, and no problem line: the blank line that ends a problem.
        self.line(format_args!(""));
    }

    fn case_finished(&mut self, problem: &Problem, result: &CaseResult) {
        if let Some(bar) = &self.progress {
            bar.inc(1);
        }
        let Some(failure) = &result.failure else {
            if self.detail == Detail::Verbose {
                self.row(result);
            }
            return;
        };
        self.failed(problem, verdict_text(result), Some(&result.name));
        if self.detail == Detail::Quiet {
            let style = verdict_style(result.verdict);
            self.line(format_args!(
                "{style}{}{style:#}  {} {}: {}",
                verdict_text(result),
                problem.id,
                result.name,
                failure.message
            ));
            return;
        }
        self.heading();
        self.row(result);
        self.line(format_args!("      {}", failure.message));
        if let Some(case) = problem.cases.iter().find(|case| case.name == result.name) {
            let input = self.shown(&case.input).to_string();
            self.line(format_args!("      {DIM}input:{DIM:#} {input}"));
            let sub_case = failure
                .mismatch
                .as_ref()
                .and_then(|mismatch| subcase::locate(&problem.dir, &case.input, mismatch));
            if let Some(sub_case) = sub_case {
                self.line(format_args!(
                    "      {DIM}case {} of the input, from its line {}:{DIM:#}",
                    sub_case.number, sub_case.first_line
                ));
                for line in &sub_case.lines {
                    self.line(format_args!("      {DIM}│{DIM:#} {line}"));
                }
            }
        }
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

    fn problem_scored(&mut self, _problem: &Problem, score: &Result<Scorecard, ScoreError>) {
        if let Some(current) = self.current.as_mut() {
            current.score = Some(score_line(score));
        }
    }

    fn problem_finished(&mut self, problem: &Problem, tally: &Tally) {
        let Some(current) = self.current.take() else {
            return;
        };
        // The score is the result of a scored problem: shown at every level of detail.
        let score_line = current.score.clone();
        let all_accepted = tally.accepted() == tally.cases;
        // Nothing of this problem was printed yet: it is one line.
        let one_line = self.detail == Detail::Default && current.heading.is_some() && all_accepted;
        let figures = format!(
            "max {} ms, {}",
            tally.max_cpu_time.as_millis(),
            format_bytes(tally.max_peak_memory_bytes)
        );
        match self.detail {
            Detail::Quiet => {}
            Detail::Default if one_line => {
                let shown = self.shown(&current.solution).to_string();
                self.line(format_args!(
                    "{GREEN}AC{GREEN:#}  {BOLD}{}{BOLD:#}: {n}/{n} accepted {DIM}· {} · {shown}{}{DIM:#} · {figures}",
                    problem.id,
                    problem.name,
                    current.build,
                    n = tally.cases,
                ));
            }
            _ => {
                let style = if all_accepted { GREEN } else { RED };
                self.line(format_args!(
                    "  {style}{}: {}/{} accepted{style:#} ({}) · {figures}",
                    problem.id,
                    tally.accepted(),
                    tally.cases,
                    counts(tally),
                ));
            }
        }
        if let Some(line) = score_line {
            let indent = if self.detail == Detail::Quiet {
                ""
            } else {
                "  "
            };
            self.line(format_args!("{indent}{BOLD}{}{BOLD:#}: {line}", problem.id));
        }
        // A problem shown case by case ends with a blank line.
        if self.detail != Detail::Quiet && !one_line {
            self.line(format_args!(""));
        }
    }

    fn problem_stopped(&mut self, stopped: &Stopped) {
        // Shown case by case already (its heading printed): its line ends the problem.
        let shown_cases = self.current.take().is_some_and(|c| c.heading.is_none());
        let judged = stopped.judged.map_or_else(
            || "nothing judged".to_owned(),
            |tally| format!("{} judged ({})", plural(tally.cases, "case"), counts(tally)),
        );
        let unfinished = stopped.unfinished;
        let mut names = unfinished
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if unfinished.len() > 5 {
            names.push_str(&format!(", … {} more", unfinished.len() - 5));
        }
        let solution = self.shown(stopped.solution).to_string();
        let indent = if shown_cases { "  " } else { "" };
        let mark = if shown_cases { "" } else { "--  " };
        self.line(format_args!(
            "{indent}{YELLOW}{mark}{}: not finished{YELLOW:#}: {judged}; not judged ({}): {names} {DIM}· {solution}{DIM:#}",
            stopped.problem.id,
            unfinished.len(),
        ));
        if shown_cases {
            self.line(format_args!(""));
        }
    }

    fn run_finished(&mut self, summary: &RunSummary) {
        let style = match summary.outcome() {
            crate::error::Outcome::Accepted => GREEN,
            _ => RED,
        };
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
        if self.detail != Detail::Quiet && !self.failures.is_empty() {
            let failures = std::mem::take(&mut self.failures);
            let mut table = super::Table::new(&[
                ("", false),
                ("problem", false),
                ("case", false),
                ("judge it again with", false),
            ]);
            for (verdict, problem, case, command) in failures {
                table.row(vec![verdict, problem, case, command]);
            }
            let text = table.render("  ");
            let (header, rows) = text.split_once('\n').unwrap_or_default();
            self.line(format_args!("{RED}Not accepted{RED:#}:"));
            self.line(format_args!("{DIM}{header}{DIM:#}"));
            self.write(rows.as_bytes());
            self.line(format_args!(""));
        }
        let mut parts = summary_parts(summary);
        parts.push(format!("{:.2} s", summary.wall_time.as_secs_f64()));
        self.line(format_args!(
            "{style}Summary{style:#}: {}",
            parts.join(" · ")
        ));
        if let Some(note) = &summary.merged {
            self.merge_note(note);
        }
        for dropped in summary.result_cache.iter().flat_map(|cache| &cache.dropped) {
            self.line(format_args!("{YELLOW}Result cache{YELLOW:#}: {dropped}"));
        }
        if let Some(containment) = summary.containment.filter(|held| !held.is_full()) {
            // Said only when the figures or the safety are less than everywhere else.
            self.line(format_args!(
                "{YELLOW}Contained by {}{YELLOW:#}: {} (`judge doctor` says why and how to get more)",
                containment.level(),
                containment.weaker().join("; ")
            ));
        }
        let _ = self.out.flush();
    }
}

/// The summary line's parts before its time: the counts, the stop, the builds, the cache.
fn summary_parts(summary: &RunSummary) -> Vec<String> {
    let mut parts = vec![format!(
        "{}, {}: {}",
        plural(summary.problems, "problem"),
        plural(summary.tally.cases, "case"),
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
        parts.push(plural(summary.errors, "error"));
    }
    if summary.skipped > 0 {
        parts.push(format!("{} skipped after a failure", summary.skipped));
    }
    if let Some(signal) = summary.interrupted {
        parts.push(format!(
            "stopped by {}: {} not finished",
            crate::sandbox::Termination::Signaled(signal),
            plural(summary.not_finished, "case"),
        ));
    }
    parts.push(format!(
        "compiled {}, cached {}",
        summary.compiled, summary.cached
    ));
    if let Some(cache) = summary
        .result_cache
        .as_ref()
        .filter(|c| c.reused + c.sampled > 0)
    {
        parts.push(format!(
            "{} kept, {} of them judged again (sample seed {})",
            plural(cache.reused + cache.sampled, "result"),
            cache.sampled,
            cache.seed
        ));
    }
    parts
}

/// A diff as indented lines, `-` for `old` and `+` for `new`, coloured (the stream drops the
/// colour where the terminal takes none).
pub fn render_diff(lines: &[DiffLine], old: &str, new: &str) -> String {
    let mut text = format!("      {DIM}diff: - {old}, + {new}{DIM:#}\n");
    for line in lines {
        let (sign, _) = super::diff_mark(line.side);
        let style = match line.side {
            Side::Both => DIM,
            Side::Expected => RED,
            Side::Actual => GREEN,
        };
        text.push_str(&format!(
            "      {style}{sign} {:>5} │ {}{style:#}\n",
            line.number, line.text
        ));
    }
    text
}

/// `score 30 / 100 (small 30/30, large 0/70)`, or why there is none.
fn score_line(score: &Result<Scorecard, ScoreError>) -> String {
    let card = match score {
        Ok(card) => card,
        Err(error) => return format!("{RED}no score{RED:#}: judge error in scoring: {error}"),
    };
    let of = |max: Option<f64>| {
        max.map(|max| format!("/{}", format_score(max)))
            .unwrap_or_default()
    };
    let mut line = format!(
        "score {}{}",
        format_score(card.score),
        of(card.max_score).replace('/', " / ")
    );
    if let Some(verdict) = card.verdict {
        line.push_str(&format!(", verdict {}", verdict.code()));
    }
    if !card.parts.is_empty() {
        let parts: Vec<String> = card
            .parts
            .iter()
            .map(|part| {
                format!(
                    "{} {}{}",
                    part.name,
                    format_score(part.score),
                    of(part.max_score)
                )
            })
            .collect();
        line.push_str(&format!(" ({})", parts.join(", ")));
    }
    line
}

/// `AC 10, WA 2`.
pub fn counts(tally: &Tally) -> String {
    tally
        .by_verdict()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}
