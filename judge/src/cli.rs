//! The command line: clap types only. Global options are one flattened struct that works
//! before or after the command; each command has one typed struct of its own. The bodies of
//! the commands live in `app`, which never sees clap.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::problem::Profile;
use crate::runner::plan::Partition;

#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    about = "Compile, run and judge solutions against every problem's test cases",
    long_about = "Compile, run and judge solutions against every problem's test cases.\n\n\
                  With no command, judges every problem under problems/ (as `judge run`)."
)]
/// The parsed command line: the global options and the command.
pub struct Cli {
    #[command(flatten)]
    pub(crate) global: Global,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// Options every command takes, before or after its name.
#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub(crate) struct Global {
    /// Programs run at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", global = true,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// When to colour the output (`NO_COLOR` is respected by `auto`).
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,
    /// The repository (default: the nearest folder above the current one holding problems/).
    #[arg(long, value_name = "DIR", global = true)]
    pub root: Option<PathBuf>,
    /// The report on stdout: for people, or one JSON document (run, merge, list, gen, add,
    /// new, stress and check; shapes in docs/reports.md).
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    pub format: Format,
    /// Also show a row for every accepted case.
    #[arg(long, short = 'v', global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Show only the failures' one-line reasons and the summary (other commands: what they
    /// did, without hints or progress).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Judge some problems (all of them when none is named).
    Run(RunArgs),
    /// Show the problems with their case counts, limits and solution.
    List(ListArgs),
    /// Scaffold a new problem folder and its solution file (refuses if any exists).
    New(NewArgs),
    /// Add one test case (refuses to overwrite an existing one).
    Add(AddArgs),
    /// Rebuild the generated cases from the problem's generators.toml (all problems with one
    /// when none is named); hand-written cases are never touched. On a Polygon package: make
    /// the tests and answers it lacks with its generators and main solution.
    Gen(GenArgs),
    /// Recompute expected outputs from the reference and show what would change.
    Bless(BlessArgs),
    /// Check that every submission of a Kattis package gets the verdict its folder promises,
    /// and every solution of a Polygon package the verdict its tag promises.
    Verify(VerifyArgs),
    /// Check that one file will work on the online judge as it is: built alone with the
    /// judge's command, std only, within the code-size limit, and passing the problem's cases.
    Check(CheckArgs),
    /// Compare the solution with the reference on generated inputs until they disagree, and
    /// save a minimised counterexample as a new case.
    Stress(StressArgs),
    /// Receive problems from the Competitive Companion browser extension and make their
    /// folders with the samples (never overwriting); Ctrl-C stops.
    Listen(ListenArgs),
    /// Judge, then judge again whenever the solution, a case, problem.toml, the reference or
    /// the generator changes (failures first, samples first); Ctrl-C stops.
    Watch(WatchArgs),
    /// Hand a problem's file in: judged on its cases and checked as its judge would, then the
    /// text that judge takes on the clipboard and its submit page opened (no password asked).
    Submit(SubmitArgs),
    /// Put the reports of a run's shards (`run --partition`) together: the report, files and
    /// exit code that one run would have given.
    Merge(MergeArgs),
    /// Say what this machine allows the judge (cgroups, namespaces: how far a run can be
    /// trusted) and why not, the toolchains found, and how to get the best containment.
    Doctor,
}

#[derive(Debug, Args)]
pub(crate) struct ListenArgs {
    /// The port to add in the extension's custom ports.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
}

#[derive(Debug, Args)]
pub(crate) struct WatchArgs {
    /// Problems to watch: ids under problems/, or paths to problem folders; all problems
    /// when none is named.
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Judge this file instead of the problem's own solutions (one problem only).
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// Judge only the cases whose name matches this glob, like `sample/*`; repeatable.
    #[arg(long = "case", value_name = "PATTERN")]
    pub cases: Vec<String>,
    /// Keep FILE an HTML page of the last round, rewritten after each.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

const PROBLEM_HELP: &str =
    "A problem: its id under problems/, or a path to its folder (`.` inside it)";

#[derive(Debug, Args, Default)]
pub(crate) struct RunArgs {
    /// Problems to judge: ids under problems/, or paths to problem folders (`.` inside one);
    /// all problems when none is named.
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Judge only the cases whose name matches this glob, like `sample/*` or `random/mixed-2`
    /// (`*` any text, `?` one character); repeatable.
    #[arg(long = "case", value_name = "PATTERN")]
    pub cases: Vec<String>,
    /// Judge this file instead of the problem's own solution (one problem only).
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Stop judging a solution at its first case that is not accepted (as Kattis does).
    #[arg(long)]
    pub fail_fast: bool,
    /// Judge every case, reusing no kept result (and keeping none).
    #[arg(long)]
    pub no_cache: bool,
    /// First run each problem's validator on every input judged: an input it rejects is an
    /// error naming the case and what is wrong.
    #[arg(long)]
    pub validate: bool,
    /// Judge only shard K of N (1-based) of all cases, for spreading them over machines:
    /// `hash:K/N` keeps each case in its shard as cases come and go, `count:K/N` (or `K/N`)
    /// deals them in order, `env` takes a hash shard from the CI engine's variables (GitLab,
    /// Slurm, a Kubernetes Indexed Job); `judge merge` puts the shards' reports together.
    #[arg(long, value_name = "hash:K/N|count:K/N|env", value_parser = parse_partition)]
    pub partition: Option<PartitionArg>,
    /// Cut `count:` shards so that their times come out even, by the case times of an earlier
    /// report (every shard of the run must be given the same one).
    #[arg(long, value_name = "REPORT.json", requires = "partition")]
    pub balance: Option<PathBuf>,
    /// Also write the JSON report to FILE (what `judge merge` and `--failed` read).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Judge again only what was not accepted in the last run (or in the report FROM, like a
    /// merged report from CI), with the same solutions; of the problems named, if any.
    #[arg(long, value_name = "FROM.json", num_args = 0..=1, conflicts_with = "solution")]
    pub failed: Option<Option<PathBuf>>,
}

/// `--partition`: a shard given, or one to take from the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartitionArg {
    Slice(Partition),
    Env,
}

#[derive(Debug, Args)]
pub(crate) struct SubmitArgs {
    #[arg(value_name = "PROBLEM", help = PROBLEM_HELP)]
    pub problem: PathBuf,
    /// Hand in this file (default: the problem's file in a language its judge takes).
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// The judge to hand it in to (default: the problem's profile).
    #[arg(long = "judge", value_name = "PROFILE", value_parser = profile_parser())]
    pub judge: Option<Profile>,
    /// Write the text to hand in to stdout instead of the clipboard and the browser.
    #[arg(long)]
    pub print: bool,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The shards' JSON reports (`judge run --partition ... --json FILE`), in any order.
    #[arg(value_name = "REPORT.json", required = true)]
    pub reports: Vec<PathBuf>,
    /// Report the shards given even when some are missing, marked partial.
    #[arg(long)]
    pub allow_partial: bool,
    /// Also write the merged report as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the merged JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the merged report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Also show where each generated or reference-made case came from.
    #[arg(long)]
    pub provenance: bool,
}

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The problem's id, like `boj_1000`: the folder and solution file name (with
    /// --from-polygon: default, the package folder's name).
    #[arg(required_unless_present_any = ["from", "from_polygon"], conflicts_with = "from")]
    pub id: Option<String>,
    /// Make it from a saved Competitive Companion payload instead (id, limits, samples).
    #[arg(long, value_name = "FILE.json", conflicts_with = "from_polygon")]
    pub from: Option<PathBuf>,
    /// Make it from a Polygon package (a folder with problem.xml): its limits, every test,
    /// its checker (and interactor) and its main solution.
    #[arg(long, value_name = "PACKAGE")]
    pub from_polygon: Option<PathBuf>,
    /// The judge whose defaults (limits, compare mode, templates) the problem takes.
    #[arg(long, default_value = "boj", value_parser = profile_parser())]
    pub profile: Profile,
}

#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    #[arg(value_name = "PROBLEM", help = PROBLEM_HELP)]
    pub problem: PathBuf,
    /// The case's name below tests/ (default: the next free `manual/N`).
    #[arg(long)]
    pub name: Option<String>,
    /// The input file, or `-` for standard input.
    #[arg(long, value_name = "FILE|-", default_value = "-")]
    pub input: PathBuf,
    /// The expected output, written by you.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "from_reference",
        required_unless_present = "from_reference"
    )]
    pub expected: Option<PathBuf>,
    /// Take the expected output from the problem's reference.rs.
    #[arg(long)]
    pub from_reference: bool,
    /// Accept an empty input or an empty expected output (refused by default: usually a
    /// mistake, like a forgotten redirection).
    #[arg(long)]
    pub allow_empty: bool,
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// Problems whose generated cases to rebuild (ids or folders; default: every problem with
    /// a generators.toml, and every Polygon package).
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Write nothing; exit 1 if the committed cases differ from what the recipe makes.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub(crate) struct BlessArgs {
    #[arg(value_name = "PROBLEM", help = PROBLEM_HELP)]
    pub problem: PathBuf,
    /// Rewrite the changed outputs the judge made itself (hand-written ones are only shown).
    #[arg(long)]
    pub write: bool,
}

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// The Kattis package folder (with problem.yaml and submissions/) or Polygon package
    /// folder (with problem.xml): an id or a path.
    #[arg(value_name = "PACKAGE")]
    pub package: PathBuf,
    /// Only run the package's validators over its data (which a full verify does first),
    /// not its submissions.
    #[arg(long)]
    pub validate: bool,
    /// Also write the submissions' rows and their cases as one self-contained HTML page.
    #[arg(long, value_name = "FILE", conflicts_with = "validate")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The source file to check, as you would submit it.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The judge to check against (default: the problem's profile, else boj).
    #[arg(long, value_parser = profile_parser())]
    pub profile: Option<Profile>,
    /// The problem whose cases to run (default: the one named like the file).
    #[arg(long, value_name = "PROBLEM")]
    pub problem: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct StressArgs {
    #[arg(value_name = "PROBLEM", help = PROBLEM_HELP)]
    pub problem: PathBuf,
    /// The file to stress (default: the problem's solution).
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// How many inputs to try (default 1000 unless --time is given).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub iterations: Option<u64>,
    /// How long to try, like `30s`, `2m` or `500ms`.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// The first seed (default: taken from the clock; printed so a run can be repeated).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Users add it to the extension's "custom ports".
pub const DEFAULT_PORT: u16 = 10043;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    #[default]
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

/// Parses the command line (program name first). Help and version come back as errors too:
/// `clap::Error::exit_code` tells them apart.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Cli::try_parse_from(args)
}

/// The unknown command word when clap suggests no command for it: most likely a problem
/// named without `run`.
pub fn unknown_command(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand
        || error.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return None;
    }
    match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(word)) => Some(word.clone()),
        _ => None,
    }
}

/// Accepts exactly the profile names, and lists them in `--help`.
fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    PossibleValuesParser::new(Profile::ALL.map(Profile::name)).map(|name| {
        Profile::ALL
            .into_iter()
            .find(|profile| profile.name() == name)
            .expect("a possible value is a profile's name")
    })
}

#[derive(Debug, thiserror::Error)]
enum ValueFault {
    #[error(
        "`{0}` is not a shard: hash:K/N or count:K/N with 1 <= K <= N (like hash:2/4), or env"
    )]
    Partition(String),
    #[error("`{0}` is not a duration like 30s, 2m or 500ms")]
    Duration(String),
    #[error("unknown unit `{0}`: use ms, s, m or h")]
    Unit(String),
    #[error("`{0}` is not a valid duration")]
    OutOfRange(String),
}

fn parse_partition(text: &str) -> Result<PartitionArg, ValueFault> {
    if text == "env" {
        return Ok(PartitionArg::Env);
    }
    Partition::parse(text)
        .map(PartitionArg::Slice)
        .ok_or_else(|| ValueFault::Partition(text.to_owned()))
}

/// `30s`, `2m`, `500ms`, or a plain number of seconds.
fn parse_duration(text: &str) -> Result<Duration, ValueFault> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let value: f64 = digits
        .parse()
        .map_err(|_| ValueFault::Duration(text.to_owned()))?;
    let seconds = match &text[digits.len()..] {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        unit => return Err(ValueFault::Unit(unit.to_owned())),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| ValueFault::OutOfRange(text.to_owned()))
}

impl Cli {
    /// Whether to start a run supervisor early: not for commands that only read, write files
    /// or serve.
    pub fn may_run_programs(&self) -> bool {
        let Some(command) = &self.command else {
            return true;
        };
        match command {
            Command::List(_) | Command::New(_) | Command::Listen(_) => false,
            Command::Run(_)
            | Command::Add(_)
            | Command::Gen(_)
            | Command::Bless(_)
            | Command::Verify(_)
            | Command::Check(_)
            | Command::Stress(_)
            | Command::Watch(_)
            | Command::Submit(_)
            | Command::Merge(_)
            | Command::Doctor => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn commands_that_run_nothing_start_no_supervisor_early() {
        let guess = |line: &str| parse(line.split(' ')).is_ok_and(|cli| cli.may_run_programs());
        assert!(guess("judge"));
        assert!(guess("judge --jobs 2 run boj_1000"));
        assert!(guess("judge verify pkg"));
        assert!(!guess("judge list"));
        assert!(!guess("judge --color never new boj_1000"));
        assert!(!guess("judge run --help"));
        // A problem named like a command is still a problem to judge.
        assert!(guess("judge run new"));
        assert!(guess("judge --root list run list"));
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_argument_and_option_has_a_line_of_help() {
        let cli = Cli::command();
        let missing: Vec<String> = std::iter::once(&cli)
            .chain(cli.get_subcommands())
            .flat_map(|command| {
                command
                    .get_arguments()
                    .filter(|argument| argument.get_help().is_none())
                    .map(|argument| format!("{} {}", command.get_name(), argument.get_id()))
            })
            .collect();
        assert!(missing.is_empty(), "no help: {missing:?}");
    }

    #[test]
    fn profile_options_list_their_values() {
        let mut cli = Cli::command();
        for command in ["new", "check"] {
            let help = cli
                .find_subcommand_mut(command)
                .unwrap()
                .render_help()
                .to_string();
            for profile in Profile::ALL {
                assert!(help.contains(profile.name()), "{command}: {help}");
            }
        }
    }

    #[test]
    fn global_options_parse_on_either_side_of_the_command() {
        for args in [
            &[
                "judge", "--color", "never", "-j", "2", "--root", "r", "list",
            ][..],
            &[
                "judge", "list", "--color", "never", "-j", "2", "--root", "r",
            ],
        ] {
            let cli = parse(args).unwrap();
            assert!(matches!(cli.command, Some(Command::List(_))));
            assert!(matches!(cli.global.color, Color::Never));
            assert_eq!(cli.global.jobs, Some(2));
            assert_eq!(cli.global.root, Some(PathBuf::from("r")));
        }
        assert!(parse(["judge", "-v", "-q"]).is_err());
    }

    #[test]
    fn no_module_but_this_one_knows_clap() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let knowing: Vec<String> = walkdir::WalkDir::new(&src)
            .into_iter()
            .map(|entry| entry.unwrap().into_path())
            .filter(|path| path.extension().is_some_and(|e| e == "rs"))
            .filter(|path| !path.ends_with("cli.rs"))
            .filter(|path| std::fs::read_to_string(path).unwrap().contains("clap::"))
            .map(|path| path.display().to_string())
            .collect();
        assert!(knowing.is_empty(), "{knowing:?}");
    }

    #[test]
    fn a_problem_named_without_run_is_pointed_at_run() {
        let error = parse(["judge", "boj_7682"]).unwrap_err();
        assert_eq!(unknown_command(&error).as_deref(), Some("boj_7682"));
        let typo = parse(["judge", "lsit"]).unwrap_err();
        assert_eq!(
            unknown_command(&typo),
            None,
            "a typo gets clap's suggestion instead"
        );
    }

    #[test]
    fn the_readme_command_table_is_one_table_naming_every_command_and_option() {
        let readme = include_str!("../../README.md");
        let start = readme.find("| command | what it does |").unwrap();
        // A table ends at its first line that is not a row: a blank line would split it.
        let table: Vec<&str> = readme[start..]
            .lines()
            .take_while(|line| line.starts_with('|'))
            .collect();
        let text = table.join("\n");
        let after = &readme[start + text.len()..];
        let cli = Cli::command();
        for command in cli.get_subcommands() {
            let name = format!("`judge {}", command.get_name());
            assert!(text.contains(&name), "{name} missing from the table");
        }
        for option in cli
            .get_arguments()
            .filter_map(|argument| argument.get_long())
        {
            let shown = format!("--{option}");
            let options = &after[..after.find("\n\n```").unwrap_or(after.len())];
            assert!(options.contains(&shown), "{shown} missing under the table");
        }
    }
}
