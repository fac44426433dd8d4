//! What the commands other than `run` say (gen, add, new, stress, check): lines of text,
//! each of a kind, so that the global options shape them as they shape `run`'s report:
//! `--quiet` leaves out what is only informative, `--color` colours what needs a look, and
//! `--format json` turns the lines into one JSON document at the end.

use std::fmt::Display;
use std::io::Write;

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};
use serde::Serialize;

use super::Detail;
use crate::error::Outcome;

/// What a line is, for `--quiet` and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// What the command is doing or suggests next; `--quiet` leaves it out.
    Info,
    /// What the command did or found.
    Result,
    /// Something the user must look at: a case left alone, what will fail on the judge.
    Problem,
}

#[derive(Serialize)]
struct Line {
    kind: Kind,
    text: String,
}

/// The JSON document of a command: its lines and how it ended.
#[derive(Serialize)]
struct NoticeDocument<'a> {
    command: &'a str,
    outcome: &'static str,
    lines: &'a [Line],
    /// The report of the cases the command judged (`check`), as `run --format json` gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<&'a serde_json::Value>,
}

/// Where a command's lines go: stdout as text, or kept for one JSON document.
pub struct Notices {
    command: &'static str,
    json: bool,
    quiet: bool,
    out: AutoStream<std::io::Stdout>,
    err: AutoStream<std::io::Stderr>,
    /// Every line, for the JSON document.
    lines: Vec<Line>,
    run: Option<serde_json::Value>,
    /// Kept for the caller (`lines`), never printed.
    kept: bool,
}

impl Notices {
    pub fn new(command: &'static str, json: bool, detail: Detail, color: ColorChoice) -> Self {
        Notices {
            command,
            json,
            quiet: detail == Detail::Quiet,
            out: AutoStream::new(std::io::stdout(), color),
            err: AutoStream::new(std::io::stderr(), color),
            lines: Vec::new(),
            run: None,
            kept: false,
        }
    }

    /// Notices that keep their lines for `said` instead of printing them (and a run's cases
    /// reported the JSON way, kept too): for a command whose stdout is something else.
    pub fn kept(command: &'static str) -> Self {
        Notices {
            kept: true,
            ..Notices::new(command, true, Detail::Default, ColorChoice::Never)
        }
    }

    /// The lines said so far, when kept.
    pub fn said(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(|line| line.text.as_str())
    }

    pub fn json(&self) -> bool {
        self.json
    }

    /// The JSON report of the cases the command judged, for its document.
    pub fn attach_run(&mut self, report: serde_json::Value) {
        self.run = Some(report);
    }

    pub fn info(&mut self, text: impl Display) {
        self.say(Kind::Info, text.to_string());
    }

    pub fn result(&mut self, text: impl Display) {
        self.say(Kind::Result, text.to_string());
    }

    pub fn problem(&mut self, text: impl Display) {
        self.say(Kind::Problem, text.to_string());
    }

    fn say(&mut self, kind: Kind, text: String) {
        if self.json {
            self.lines.push(Line { kind, text });
            return;
        }
        if kind == Kind::Info && self.quiet {
            return;
        }
        let style = match kind {
            Kind::Problem => Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold(),
            _ => Style::new(),
        };
        // A closed stdout ends the judge by its SIGPIPE, as in `run`; nothing to do here.
        let _ = writeln!(self.out, "{style}{text}{style:#}");
    }

    /// Progress while the command works, on stderr (`\r` rewrites it in place on a
    /// terminal); left out by `--quiet` and `--format json`.
    pub fn progress(&mut self, text: impl Display, end: &str) {
        if !self.json && !self.quiet {
            let _ = write!(self.err, "{text}{end}");
            let _ = self.err.flush();
        }
    }

    /// Ends the command: with `--format json`, prints its document. Returns `outcome`.
    pub fn finish(self, outcome: Outcome) -> Outcome {
        if self.json && !self.kept {
            let document = NoticeDocument {
                command: self.command,
                outcome: outcome.name(),
                lines: &self.lines,
                run: self.run.as_ref(),
            };
            super::print_document(&document);
        }
        outcome
    }
}
