//! The report as one self-contained HTML page (`--html FILE`): styles and pictures inline, no
//! script, nothing fetched (a Content-Security-Policy forbids it), so it opens from disk and
//! reads the same in any browser.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::picture;
use super::{ProgramOrigin, Reporter, RunSummary, Stopped};
use crate::compare::diff::Side;
use crate::error::Error;
use crate::judging::scorecard::{format_score, ScoreError, Scorecard};
use crate::judging::{format_bytes, CaseResult, Tally};
use crate::problem::Problem;
use crate::toolchain::language::Language;

/// Lines of an input shown under a failure.
const INPUT_LINES: usize = 60;
/// Inputs larger than this are not read for the page.
const INPUT_BYTES: u64 = 1 << 20;
/// Failures of one solution shown in full (input, boards, diff); the rest get their reason.
const FULL_FAILURES: usize = 25;

#[derive(Default)]
pub struct HtmlReporter {
    path: PathBuf,
    /// Paths are shown relative to it.
    root: PathBuf,
    errors: Vec<String>,
    solutions: Vec<Solution>,
    pub write_error: Option<Error>,
}

/// One solution of one problem, as the page shows it.
#[derive(Default)]
struct Solution {
    problem: String,
    name: String,
    solution: String,
    built: Option<ProgramOrigin>,
    compile_message: Option<String>,
    time_limit_ms: f64,
    memory_limit: u64,
    cases: Vec<Case>,
    /// Failures shown with their input so far (at most `FULL_FAILURES`).
    shown_in_full: usize,
    score: Option<String>,
    tally: Option<String>,
    /// The cases a stop left unjudged.
    not_finished: Vec<String>,
}

struct Case {
    result: CaseResult,
    input_bytes: u64,
    /// The input's first lines and boards, for a failure.
    input: Option<(String, Vec<picture::Board>)>,
    /// The cells the answers name, marked on the boards.
    marked: Vec<picture::Marked>,
}

impl HtmlReporter {
    pub fn new(path: PathBuf, root: PathBuf) -> Self {
        HtmlReporter {
            path,
            root,
            ..HtmlReporter::default()
        }
    }

    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// The cells that line `line` of the expected answer and of the program's answer (as far as
/// the diff shows it) name.
fn answer_cells(
    line: usize,
    expected: &Path,
    failure: &crate::judging::Failure,
) -> Vec<picture::Marked> {
    let expected_line = std::fs::read_to_string(expected)
        .ok()
        .and_then(|text| text.lines().nth(line - 1).map(str::to_owned));
    let given_line = failure
        .diff
        .iter()
        .find(|shown| shown.number == line && shown.side != Side::Expected)
        .map(|shown| shown.text.replace('·', " "));
    let expected = expected_line.as_deref().and_then(picture::named_cell);
    let given = given_line.as_deref().and_then(picture::named_cell);
    let mut marked = Vec::new();
    marked.extend(expected.map(|cell| (cell, picture::CellMark::Expected)));
    marked.extend(given.map(|cell| (cell, picture::CellMark::Given)));
    marked
}

/// `text` with `&`, `<`, `>` and quotes escaped, for HTML text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

impl Reporter for HtmlReporter {
    fn problem_error(&mut self, error: &Error) {
        self.errors.push(error.to_string());
    }

    fn problem_started(
        &mut self,
        problem: &Problem,
        solution: &Path,
        built: Option<ProgramOrigin>,
    ) {
        let limits = Language::of(solution).map(|language| problem.limits_for(language));
        let limits = limits.unwrap_or(problem.limits);
        self.solutions.push(Solution {
            problem: problem.id.clone(),
            name: problem.name.clone(),
            solution: self.shown(solution),
            built,
            time_limit_ms: limits.cpu_time.as_secs_f64() * 1e3,
            memory_limit: limits.memory_bytes,
            ..Solution::default()
        });
    }

    fn compile_error(&mut self, _problem: &Problem, message: &str) {
        if let Some(solution) = self.solutions.last_mut() {
            solution.compile_message = Some(message.to_owned());
        }
    }

    fn case_finished(&mut self, problem: &Problem, result: &CaseResult) {
        // Cases come in the problem's order: the next one is this one, but for a case the
        // runner reports out of it.
        let judged = self
            .solutions
            .last()
            .map_or(0, |solution| solution.cases.len());
        let case = (problem.cases.get(judged))
            .filter(|case| case.name == result.name)
            .or_else(|| problem.cases.iter().find(|case| case.name == result.name));
        let input_bytes = case
            .and_then(|case| std::fs::metadata(&case.input).ok())
            .map_or(0, |metadata| metadata.len());
        let failures = self
            .solutions
            .last()
            .map_or(0, |solution| solution.shown_in_full);
        let input = match (&result.failure, case) {
            (Some(failure), Some(case))
                if input_bytes <= INPUT_BYTES && failures < FULL_FAILURES =>
            {
                // The failing sub-case's own lines, where the input holds many.
                let sub_case = failure
                    .mismatch
                    .as_ref()
                    .and_then(|at| super::subcase::locate(&problem.dir, &case.input, at));
                std::fs::read_to_string(&case.input)
                    .ok()
                    .map(|text| match sub_case {
                        Some(sub_case) => {
                            let lines = sub_case.lines.join("\n");
                            let boards = picture::boards(&lines, problem.picture.flat);
                            let heading = format!(
                                "case {} of the input, from its line {}:\n",
                                sub_case.number, sub_case.first_line
                            );
                            (heading + &lines, boards)
                        }
                        None => {
                            let shown: Vec<&str> = text.lines().take(INPUT_LINES).collect();
                            (
                                shown.join("\n"),
                                picture::boards(&text, problem.picture.flat),
                            )
                        }
                    })
            }
            _ => None,
        };
        let marked = match (problem.picture.answer_cell, case, &result.failure) {
            (Some(line), Some(case), Some(failure)) if input.is_some() => {
                answer_cells(line, &case.expected, failure)
            }
            _ => Vec::new(),
        };
        if let Some(solution) = self.solutions.last_mut() {
            solution.shown_in_full += usize::from(input.is_some());
            solution.cases.push(Case {
                result: result.clone(),
                input_bytes,
                input,
                marked,
            });
        }
    }

    fn problem_scored(&mut self, _problem: &Problem, score: &Result<Scorecard, ScoreError>) {
        if let Some(solution) = self.solutions.last_mut() {
            solution.score = Some(match score {
                Ok(card) => match card.max_score {
                    Some(max) => format!("{} of {}", format_score(card.score), format_score(max)),
                    None => format_score(card.score),
                },
                Err(error) => format!("no score: {error}"),
            });
        }
    }

    fn problem_finished(&mut self, _problem: &Problem, tally: &Tally) {
        if let Some(solution) = self.solutions.last_mut() {
            solution.tally = Some(super::counts(tally));
        }
    }

    fn problem_stopped(&mut self, stopped: &Stopped) {
        if stopped.judged.is_none() {
            self.problem_started(stopped.problem, stopped.solution, None);
        }
        if let Some(solution) = self.solutions.last_mut() {
            let judged = (stopped.judged)
                .map(super::counts)
                .unwrap_or_else(|| "nothing judged".into());
            solution.tally = Some(format!("not finished: {judged}"));
            solution.not_finished = stopped
                .unfinished
                .iter()
                .map(|&name| name.to_owned())
                .collect();
        }
    }

    fn run_finished(&mut self, summary: &RunSummary) {
        let page = self.page(summary);
        self.write_error = crate::atomic_write::write_atomically(&self.path, page.as_bytes()).err();
    }
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}code,pre{font-family:monospace}\
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:24em}\
.grid{display:flex;flex-wrap:wrap;gap:2px;margin:.5em 0}\
.grid a{display:block;width:14px;height:14px;border-radius:2px}\
.AC{background:#2e9d4a}.WA{background:#d6334a}.TLE{background:#e08a00}.MLE{background:#8e44ad}\
.OLE{background:#b8860b}.RE{background:#555}.JE{background:#000}.CE{background:#999}\
.verdict{color:#fff;padding:0 .4em;border-radius:3px;font-weight:bold}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
tr.case{border-top:1px solid #ddd}.bar{width:120px;height:8px;background:#eee;display:inline-block}\
.bar i{display:block;height:8px;background:#2e86c1}.bar i.near{background:#e08a00}\
.diff td{font-family:monospace;white-space:pre;padding:0 6px}.diff .expected{background:#fde2e2}\
.diff .actual{background:#dff5e1}.boards svg{margin:4px 8px 4px 0}.note{color:#666}";

impl HtmlReporter {
    fn page(&self, summary: &RunSummary) -> String {
        let mut out = head("judge report");
        let _ = write!(
            out,
            "<p id=\"summary\">{}, {}: {}{}{} · compiled {}, cached {} · {:.2} s</p>",
            super::plural(summary.problems, "problem"),
            super::plural(summary.tally.cases, "case"),
            escape(&super::counts(&summary.tally)),
            match summary.compile_errors {
                0 => String::new(),
                n => format!(" · {n} CE"),
            },
            match summary.errors {
                0 => String::new(),
                n => format!(" · {}", super::plural(n, "error")),
            },
            summary.compiled,
            summary.cached,
            summary.wall_time.as_secs_f64()
        );
        if let Some(held) = summary.containment {
            let _ = write!(
                out,
                "<p class=\"note\">Contained by {}{}</p>",
                held.level(),
                match held.weaker().as_slice() {
                    [] => String::new(),
                    weaker => format!(": {}", escape(&weaker.join("; "))),
                }
            );
        }
        if let Some(note) = &summary.merged {
            let _ = write!(
                out,
                "<p class=\"note\">Merged from {} shards{}</p>",
                note.record.shards.len(),
                match note.record.missing.as_slice() {
                    [] => String::new(),
                    missing => format!(", partial: shards {missing:?} missing"),
                }
            );
        }
        for error in &self.errors {
            let _ = write!(
                out,
                "<p class=\"error\"><b>error</b>: {}</p>",
                escape(error)
            );
        }
        for (index, solution) in self.solutions.iter().enumerate() {
            solution.render(index, &mut out);
        }
        out.push_str("</body></html>\n");
        out
    }
}

/// One submission of `judge verify`, as its page shows it.
pub struct SubmissionRow {
    pub submission: String,
    /// The folder it is in: what it promises.
    pub expected: String,
    pub got: String,
    /// `kept`, `mismatch`, `skipped` or `error`, with why for the last two.
    pub outcome: String,
    pub cases: Vec<(String, &'static str)>,
}

/// `judge verify --html`: a row per submission, its promise, what it got and a cell per case,
/// then what the package's validators found in its data.
pub fn verify_page(
    package: &str,
    summary: &str,
    rows: &[SubmissionRow],
    data: &[String],
) -> String {
    let mut out = head(&format!("judge verify {package}"));
    let _ = write!(out, "<p id=\"summary\">{}</p><table>", escape(summary));
    out.push_str(
        "<tr><th>submission</th><th>promises</th><th>got</th><th></th><th>cases</th></tr>",
    );
    for (index, row) in rows.iter().enumerate() {
        let class = if row.outcome == "kept" { "AC" } else { "WA" };
        let _ = write!(
            out,
            "<tr class=\"case\" data-outcome=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td>\
             <td><span class=\"verdict {class}\">{}</span></td><td><div class=\"grid\">",
            escape(&row.outcome),
            escape(&row.submission),
            escape(&row.expected),
            escape(&row.got),
            escape(&row.outcome)
        );
        for (at, (name, code)) in row.cases.iter().enumerate() {
            let _ = write!(
                out,
                "<a class=\"cell {code}\" id=\"r{index}c{at}\" title=\"{} {code}\"></a>",
                escape(name)
            );
        }
        out.push_str("</div></td></tr>");
    }
    out.push_str("</table>");
    for line in data {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(line));
    }
    out.push_str("</body></html>\n");
    out
}

fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{0}</title><style>{STYLE}</style>\
         </head><body><h1>{0}</h1>",
        escape(title)
    )
}

impl Solution {
    fn render(&self, index: usize, out: &mut String) {
        let built = super::built_note(self.built);
        let _ = write!(
            out,
            "<section class=\"solution\" id=\"s{index}\"><h2>{} · {} · <code>{}</code>{built}</h2>",
            escape(&self.problem),
            escape(&self.name),
            escape(&self.solution)
        );
        if let Some(message) = &self.compile_message {
            let _ = write!(
                out,
                "<p><span class=\"verdict CE\">CE</span> the solution does not compile:</p><pre>{}</pre></section>",
                escape(message)
            );
            return;
        }
        let _ = write!(
            out,
            "<p>{}{} · limits {:.0} ms, {}</p><div class=\"grid\">",
            escape(self.tally.as_deref().unwrap_or_default()),
            self.score
                .as_ref()
                .map(|score| format!(" · score {}", escape(score)))
                .unwrap_or_default(),
            self.time_limit_ms,
            format_bytes(self.memory_limit)
        );
        for (at, case) in self.cases.iter().enumerate() {
            let code = case.result.verdict.code();
            let _ = write!(
                out,
                "<a class=\"cell {code}\" href=\"#s{index}c{at}\" title=\"{} {code}\"></a>",
                escape(&case.result.name)
            );
        }
        out.push_str("</div>");
        self.chart(out);
        out.push_str(
            "<table><tr><th>verdict</th><th>case</th><th>CPU time</th><th>peak memory</th></tr>",
        );
        for (at, case) in self.cases.iter().enumerate() {
            self.render_case(index, at, case, out);
        }
        for name in &self.not_finished {
            let _ = write!(
                out,
                "<tr class=\"case unfinished\"><td>not finished</td><td>{}</td><td></td><td></td></tr>",
                escape(name)
            );
        }
        out.push_str("</table></section>");
    }

    fn render_case(&self, index: usize, at: usize, case: &Case, out: &mut String) {
        let result = &case.result;
        let cpu_ms = result.cpu_time.as_secs_f64() * 1e3;
        let bar = |used: f64, limit: f64| {
            let share = if limit > 0.0 {
                (used / limit).min(1.0)
            } else {
                0.0
            };
            let near = if share >= 0.8 { " class=\"near\"" } else { "" };
            format!(
                "<span class=\"bar\" title=\"{:.0}% of the limit\"><i{near} style=\"width:{:.1}%\"></i></span>",
                share * 100.0,
                share * 100.0
            )
        };
        let _ = write!(
            out,
            "<tr class=\"case\" id=\"s{index}c{at}\" data-verdict=\"{code}\"><td><span class=\"verdict {code}\">{}</span></td>\
             <td>{}</td><td>{} {:.0} ms</td><td>{} {}</td></tr>",
            escape(&result.verdict.to_string()),
            escape(&result.name),
            bar(cpu_ms, self.time_limit_ms),
            cpu_ms,
            bar(result.peak_memory_bytes as f64, self.memory_limit as f64),
            format_bytes(result.peak_memory_bytes),
            code = result.verdict.code()
        );
        let Some(failure) = &result.failure else {
            return;
        };
        out.push_str("<tr><td></td><td colspan=\"3\">");
        let _ = write!(out, "<p>{}</p>", escape(&failure.message));
        if let Some((text, boards)) = &case.input {
            if !boards.is_empty() {
                out.push_str("<div class=\"boards\">");
                for board in boards {
                    out.push_str(&picture::svg(board, &case.marked));
                }
                out.push_str("</div>");
            }
            let _ = write!(
                out,
                "<details><summary>input</summary><pre>{}</pre></details>",
                escape(text)
            );
        }
        if !failure.diff.is_empty() {
            out.push_str("<table class=\"diff\">");
            for line in &failure.diff {
                let (sign, class) = super::diff_mark(line.side);
                let _ = write!(
                    out,
                    "<tr class=\"{class}\"><td>{sign}</td><td>{}</td><td>{}</td></tr>",
                    line.number,
                    escape(&line.text)
                );
            }
            out.push_str("</table>");
        }
        if !failure.stderr.is_empty() {
            let _ = write!(out, "<p>stderr:</p><pre>{}</pre>", escape(&failure.stderr));
        }
        out.push_str("</td></tr>");
    }

    /// CPU time against input size, with the limit, when the inputs' sizes vary.
    fn chart(&self, out: &mut String) {
        let sizes = self.cases.iter().map(|case| case.input_bytes);
        let (smallest, largest) = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
        if self.cases.len() < 3 || largest < 2 * smallest.max(1) {
            return;
        }
        let (width, height) = (480.0, 160.0);
        let top = self
            .cases
            .iter()
            .map(|case| case.result.cpu_time.as_secs_f64() * 1e3)
            .fold(self.time_limit_ms, f64::max);
        let x = |bytes: u64| {
            let span = ((largest as f64).ln() - (smallest.max(1) as f64).ln()).max(1e-9);
            ((bytes.max(1) as f64).ln() - (smallest.max(1) as f64).ln()) / span * (width - 20.0)
                + 10.0
        };
        let y = |ms: f64| height - 10.0 - ms / top * (height - 20.0);
        let _ = write!(
            out,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             role=\"img\" aria-label=\"CPU time against input size\"><rect width=\"{width}\" height=\"{height}\" \
             fill=\"#fafafa\" stroke=\"#ccc\"/><line x1=\"0\" x2=\"{width}\" y1=\"{ly:.1}\" y2=\"{ly:.1}\" \
             stroke=\"#d6334a\" stroke-dasharray=\"4 3\"><title>time limit {:.0} ms</title></line>",
            self.time_limit_ms,
            ly = y(self.time_limit_ms)
        );
        for case in &self.cases {
            let ms = case.result.cpu_time.as_secs_f64() * 1e3;
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" class=\"{}\" fill=\"{}\"><title>{} · {} bytes · {:.0} ms</title></circle>",
                x(case.input_bytes),
                y(ms),
                case.result.verdict.code(),
                if case.result.verdict.is_accepted() { "#2e9d4a" } else { "#d6334a" },
                escape(&case.result.name),
                case.input_bytes,
                ms
            );
        }
        out.push_str("</svg><p class=\"note\">CPU time per case against input size (log scale), the time limit dashed.</p>");
    }
}
