//! The commands' bodies, one module each: they take the parsed command line, find the
//! repository, and print through the report layer; `main` turns what they return into the
//! exit code.

mod add;
mod bless;
pub(crate) mod check;
mod doctor;
mod gen;
mod list;
pub(crate) mod listen;
mod merge;
mod new;
pub(crate) mod run;
mod stress;
mod submit;
mod verify;
pub(crate) mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anstream::ColorChoice;

use crate::cli::{Cli, Color, Command, Format, Global, RunArgs};
use crate::error::{Error, Outcome, Result};
use crate::problem::Problem;
use crate::problem::Repository;
use crate::report::json::{RunDocument, LAST_RUN};
use crate::report::{
    print_document, print_error, print_note, Detail, HtmlReporter, HumanReporter, JsonReporter,
    JunitReporter, Notices, Reporter, Reporters,
};
use crate::sandbox::Sandbox;
use crate::toolchain::compiler::Compiler;

/// What every command works with: the global options, turned once.
pub(crate) struct Context {
    pub repository: Repository,
    /// Relative paths on the command line are from here.
    pub current: PathBuf,
    pub color: ColorChoice,
    pub jobs: usize,
    pub format: Format,
    pub detail: Detail,
    /// Where every program of this command runs.
    pub sandbox: Arc<Sandbox>,
}

impl Context {
    fn new(
        global: &Global,
        repository: Repository,
        current: PathBuf,
        sandbox: Arc<Sandbox>,
    ) -> Self {
        Context {
            repository,
            current,
            color: match global.color {
                Color::Auto => ColorChoice::Auto,
                Color::Always => ColorChoice::Always,
                Color::Never => ColorChoice::Never,
            },
            jobs: match global.jobs {
                Some(jobs) => usize::from(jobs),
                None => std::thread::available_parallelism().map_or(1, usize::from),
            },
            format: global.format,
            detail: if global.verbose {
                Detail::Verbose
            } else if global.quiet {
                Detail::Quiet
            } else {
                Detail::Default
            },
            sandbox,
        }
    }

    /// Caches builds in the repository's cache (see `Repository::cache_dir`).
    pub fn compiler(&self) -> Compiler {
        self.compiler_in(self.repository.cache_dir())
    }

    pub fn compiler_in(&self, cache_dir: PathBuf) -> Compiler {
        Compiler::new(cache_dir, Arc::clone(&self.sandbox))
    }

    /// Made absolute from the current folder.
    pub fn path(&self, argument: &Path) -> PathBuf {
        self.current.join(argument)
    }

    /// The folder of a PROBLEM argument: an id or a path.
    pub fn problem_dir(&self, argument: &Path) -> Result<PathBuf> {
        let dir = self.repository.resolve(argument, &self.current)?;
        // Its expected outputs are the programs' to compute, not to read.
        self.sandbox.hide(&dir);
        Ok(dir)
    }

    pub fn problem(&self, argument: &Path) -> Result<Problem> {
        let problem = self.repository.load_problem(&self.problem_dir(argument)?)?;
        self.hide_linked_cases(&problem);
        Ok(problem)
    }

    /// Hides where a problem's files really are when a link leads there from outside the
    /// repository (which is hidden): its folder, or its cases' (a `tests` folder, or a file,
    /// linked from elsewhere).
    fn hide_linked_cases(&self, problem: &Problem) {
        let Ok(dir) = problem.dir.canonicalize() else {
            return;
        };
        let repository = self.repository.root.canonicalize().unwrap_or_default();
        if !dir.starts_with(&repository) {
            self.sandbox.hide(&dir);
        }
        let mut seen: Vec<&Path> = Vec::new();
        let mut hidden: Vec<PathBuf> = Vec::new();
        let files = (problem.cases.iter()).flat_map(|case| [&case.input, &case.expected]);
        for file in files {
            let is_link = file.symlink_metadata().is_ok_and(|meta| meta.is_symlink());
            let folder = file.parent().unwrap_or(Path::new(""));
            // Each folder is resolved once, and a file only when it is a link itself.
            let resolved = match (is_link, seen.contains(&folder)) {
                (false, true) => continue,
                (false, false) => {
                    seen.push(folder);
                    folder.canonicalize()
                }
                (true, _) => {
                    (file.canonicalize()).map(|real| real.parent().unwrap_or(&real).to_path_buf())
                }
            };
            match resolved {
                Ok(real) if !real.starts_with(&dir) && !real.starts_with(&repository) => {
                    if hidden.contains(&real) {
                        continue;
                    }
                    self.sandbox.hide(&real);
                    hidden.push(real);
                }
                _ => {}
            }
        }
    }

    pub fn notices(&self, command: &'static str) -> Notices {
        Notices::new(
            command,
            self.format == Format::Json,
            self.detail,
            self.color,
        )
    }

    /// A PROBLEM argument's metadata only, for commands that work before it has cases.
    pub fn metadata(&self, argument: &Path) -> Result<Problem> {
        self.repository.load_metadata(&self.problem_dir(argument)?)
    }

    /// Every named problem (all when none is named), each loaded or failed on its own, to be
    /// judged: a package that states no time limit gets the one `verify` derived.
    pub fn problems(&self, names: &[PathBuf]) -> Result<Vec<Result<Problem>>> {
        let repository = &self.repository;
        let dirs: Vec<Result<_>> = if names.is_empty() {
            repository.problem_dirs()?
        } else {
            names.iter().map(|name| self.problem_dir(name)).collect()
        };
        let load = |dir: Result<PathBuf>| {
            let problem = repository.load_to_judge(&dir?)?;
            self.hide_linked_cases(&problem);
            Ok(problem)
        };
        Ok(dirs.into_iter().map(load).collect())
    }

    /// To stdout for `--format json`, the `--json` file, and the build cache for `--failed`
    /// (a note says when it cannot be kept there).
    pub fn keep_report(&self, document: &RunDocument, file: Option<&Path>) -> Result<()> {
        if self.format == Format::Json {
            print_document(document);
        }
        // Compact: a file is for programs, and is written and read faster.
        let text = serde_json::to_vec(document).expect("a report is JSON");
        let last = self.repository.cache_dir().join(LAST_RUN);
        if let Err(error) = crate::atomic_write::write_cache_record(&last, &text) {
            print_note(&format_args!(
                "note: `judge run --failed` will not find this run: {error}"
            ));
        }
        match file {
            Some(file) => crate::atomic_write::write_record(&self.path(file), &text),
            None => Ok(()),
        }
    }
}

/// A run's (or merge's) reporters: the JSON document, always (it is kept), the human report
/// unless `--format json`, and the `--junit` and `--html` files.
pub(crate) struct RunReporters {
    json: JsonReporter,
    human: Option<HumanReporter>,
    junit: Option<JunitReporter>,
    html: Option<HtmlReporter>,
}

impl RunReporters {
    pub(crate) fn new(
        context: &Context,
        json: JsonReporter,
        junit: Option<&Path>,
        html: Option<&Path>,
    ) -> Self {
        let root = context.repository.root.clone();
        RunReporters {
            json,
            human: (context.format == Format::Human).then(|| {
                HumanReporter::new(context.color, context.repository.clone(), context.detail)
            }),
            junit: junit.map(|file| JunitReporter::new(context.path(file))),
            html: html.map(|file| HtmlReporter::new(context.path(file), root)),
        }
    }

    pub(crate) fn all(&mut self) -> Reporters<'_> {
        let mut all: Vec<&mut dyn Reporter> = vec![&mut self.json];
        if let Some(html) = self.html.as_mut() {
            all.push(html);
        }
        if let Some(human) = self.human.as_mut() {
            all.push(human);
        }
        if let Some(junit) = self.junit.as_mut() {
            all.push(junit);
        }
        Reporters(all)
    }

    /// The JSON document, or why a file could not be written.
    pub(crate) fn finish(self) -> Result<RunDocument> {
        let failed = [
            self.junit.and_then(|j| j.write_error),
            self.html.and_then(|h| h.write_error),
        ];
        if let Some(error) = failed.into_iter().flatten().next() {
            return Err(error);
        }
        Ok(self
            .json
            .document()
            .expect("a finished run has its document"))
    }
}

/// An error is printed here.
pub fn main(cli: Cli, sandbox: Arc<Sandbox>) -> ExitCode {
    match execute(cli, sandbox) {
        Ok(outcome) => outcome.exit_code(),
        Err(error) => {
            print_error(&error);
            ExitCode::from(error.exit_code())
        }
    }
}

/// `--format json` for a command that cannot speak it is a usage error.
fn refuse_json_unless_spoken(global: &Global, command: &Command) -> Result<()> {
    // Those that report through `report` (events or notices).
    let speaks_json = matches!(
        command,
        Command::Run(_)
            | Command::Gen(_)
            | Command::Add(_)
            | Command::New(_)
            | Command::Stress(_)
            | Command::Check(_)
            | Command::List(_)
            | Command::Merge(_)
    );
    if global.format == Format::Json && !speaks_json {
        return Err(Error::usage(
            "--format json is for run, merge, list, gen, add, new, stress and check only",
        ));
    }
    Ok(())
}

fn execute(cli: Cli, sandbox: Arc<Sandbox>) -> Result<Outcome> {
    let global = cli.global;
    let current = std::env::current_dir().map_err(|error| Error::io(".", error))?;
    let start = match &global.root {
        Some(root) => current.join(root),
        None => current.clone(),
    };
    let command = cli.command.unwrap_or(Command::Run(RunArgs::default()));
    refuse_json_unless_spoken(&global, &command)?;
    // Judging (or watching) a package needs no repository: a Kattis or Polygon package can be
    // anywhere, `list` run inside one lists it, and `gen` makes what a Polygon package lacks;
    // `doctor` speaks of the machine.
    let needs_no_repository = matches!(
        command,
        Command::Run(_)
            | Command::Watch(_)
            | Command::Verify(_)
            | Command::Check(_)
            | Command::Merge(_)
            | Command::List(_)
            | Command::Gen(_)
            | Command::Doctor
    );
    let repository = match Repository::find(&start) {
        Ok(repository) => repository,
        Err(_) if needs_no_repository => Repository::find_or_standalone(&start),
        Err(error) => return Err(error),
    };
    // Judged programs must not see the repository (or package), the starting folder or the
    // cache, wherever it is, but for their own builds, read-only.
    let cache = repository.cache_dir();
    sandbox.set_view(
        crate::sandbox::View::hiding(&[&repository.root, &current, &cache], &[])
            .attaching(&crate::toolchain::builds_dir(&cache)),
    );
    let context = Context::new(&global, repository, current, sandbox);
    match command {
        Command::Run(args) => run::run(&context, args),
        Command::List(args) => list::list(&context, args),
        Command::Merge(args) => merge::merge(&context, args),
        Command::Submit(args) => submit::submit(&context, args),
        Command::New(args) => new::new(&context, args),
        Command::Add(args) => add::add(&context, args),
        Command::Gen(args) => gen::gen(&context, args),
        Command::Bless(args) => bless::bless(&context, args),
        Command::Verify(args) => verify::verify(&context, args),
        Command::Check(args) => check::check(&context, args),
        Command::Stress(args) => stress::stress(&context, args),
        Command::Doctor => doctor::doctor(&context),
        Command::Listen(args) => {
            let mut notices = context.notices("listen");
            let served = crate::app::listen::serve(&context.repository, args.port, &mut notices);
            served.map(|()| notices.finish(Outcome::Accepted))
        }
        Command::Watch(args) => {
            if args.solution.is_some() && args.problems.len() != 1 {
                return Err(Error::usage("--solution needs exactly one PROBLEM"));
            }
            context.sandbox.prepare();
            let watch = crate::app::watch::WatchSettings {
                problems: args.problems,
                solution: args.solution.map(|file| context.path(&file)),
                cases: crate::problem::CasePatterns::new(&args.cases)?,
                html: args.html.map(|file| context.path(&file)),
            };
            crate::app::watch::run(&context, &watch)?;
            Ok(Outcome::Accepted)
        }
    }
}
