//! A built program: its command line under given limits (the JVM's heap and stack flags),
//! run in the sandbox.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::language::Language;
use crate::sandbox::{self, RunOutput, RunSpec, Sandbox};

pub use crate::sandbox::Limits;

/// The largest thread stack the JVM accepts (`-Xss`), in MiB.
const MAX_JVM_STACK_MIB: u64 = 1024;

/// What the JVM holds beside its heap (code, metaspace, thread stacks, the collector's
/// tables), where a judge's limit is the heap's (`{heap_mib}`) and the whole program gets this
/// much more: the 192 MiB of NWERC 2020's Kattis sandbox (2048 MiB, for a 1856 MiB heap).
pub const JVM_RUNTIME_MIB: u64 = 192;

/// Stands for the source's folder in a build (a Rust panic's location), replaced in the
/// program's stderr by `Program::run`: one cached build serves every folder.
pub(super) const ORIGIN: &str = "/judge-source-folder";

#[derive(Debug, Clone)]
pub struct Program {
    pub language: &'static Language,
    /// `{memory_mib}`, `{heap_mib}` and `{stack_mib}` are left for `command`.
    pub(super) run: Vec<String>,
    /// Taken from the cache, not built now.
    pub cached: bool,
    /// The source's folder, which `ORIGIN` stands for.
    pub(super) origin: String,
    /// What a run's messages say, and what they say instead: `ORIGIN` (a Rust panic's
    /// location) the source's folder, the build's copy of the user's file (a Python
    /// traceback) the user's file.
    pub(super) renamed: Vec<(String, String)>,
    /// Its run folder holds `dev`, a link to `/dev` (`OnlineJudge::dev_in_run_folder`).
    pub(super) dev_in_run_folder: bool,
    /// It is the judge's caller of a function (`harness`): the limits apply to each call.
    pub per_call: bool,
    pub(super) sandbox: Arc<Sandbox>,
}

impl Program {
    /// Tells this program from any other: the run command names its build (whose cache key
    /// covers sources, commands and compiler) and its interpreter.
    pub fn identity(&self) -> String {
        format!(
            "{:?} {} {} {}",
            self.run, self.origin, self.per_call, self.dev_in_run_folder
        )
    }

    pub fn command(&self, limits: &Limits) -> Vec<OsString> {
        command_under(&self.run, limits)
    }

    /// Runs the program on `stdin`, with `args` after its command.
    pub fn run(&self, stdin: &Path, limits: Limits, args: &[String]) -> std::io::Result<RunOutput> {
        self.run_with(stdin, limits, args, RunOptions::default())
    }

    pub fn run_with(
        &self,
        stdin: &Path,
        limits: Limits,
        args: &[String],
        options: RunOptions,
    ) -> std::io::Result<RunOutput> {
        let mut argv = self.command(&limits);
        argv.extend(args.iter().map(OsString::from));
        let argv = match options.files {
            Some(files) => files.wrap(argv),
            None => argv,
        };
        let mut spec = RunSpec::new(&argv, stdin, limits);
        spec.address_space_backstop = !self.language.manages_own_memory;
        if let Some(wall_timeout) = options.wall_timeout {
            spec.wall_timeout = wall_timeout;
        }
        spec.stop_at_output_limit = !options.run_past_output_limit;
        spec.contained = options.judged;
        spec.dev_in_run_folder = self.dev_in_run_folder && options.judged;
        spec.case_files = options.case_files;
        let mut run = self.sandbox.run_with(&spec, options.streams)?;
        run.out_of_memory = self.language.ran_out_of_memory(&run.stderr);
        for (from, to) in &self.renamed {
            run.stderr = replace_bytes(&run.stderr, from.as_bytes(), to.as_bytes());
        }
        Ok(run)
    }
}

fn command_under(run: &[String], limits: &Limits) -> Vec<OsString> {
    let memory_mib = (limits.memory_bytes >> 20).max(1);
    let heap_mib = memory_mib
        .saturating_sub(JVM_RUNTIME_MIB)
        .max(1)
        .to_string();
    let memory_mib = memory_mib.to_string();
    // The JVM refuses a thread stack over 1 GiB (`-Xss`), and every thread gets that size.
    let stack_mib = (limits.stack_bytes >> 20)
        .clamp(1, MAX_JVM_STACK_MIB)
        .to_string();
    run.iter()
        .map(|part| {
            part.replace("{memory_mib}", &memory_mib)
                .replace("{heap_mib}", &heap_mib)
                .replace("{stack_mib}", &stack_mib)
        })
        .map(OsString::from)
        .collect()
}

/// How a run differs from the usual one.
#[derive(Debug, Default)]
pub struct RunOptions<'a> {
    /// These replace `stdin` (see `sandbox::Streams`).
    pub streams: sandbox::Streams<'a>,
    /// Replaces the usual wall-clock backstop.
    pub wall_timeout: Option<Duration>,
    /// Past the output limit the run goes on, its output dropped, instead of being stopped.
    pub run_past_output_limit: bool,
    /// It sees the sandbox's view (expected outputs, repository and home hidden), where the
    /// machine allows it.
    pub judged: bool,
    /// Files it reads and writes instead of its standard streams.
    pub files: Option<&'a FileIo>,
    /// A folder whose files it finds in its working folder (`TestCase::files`).
    pub case_files: Option<&'a Path>,
}

/// Input and answer files in the program's folder, as some judges use them (Codeforces'
/// `input.txt` / `output.txt`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileIo {
    /// Also given on standard input, as those judges do.
    pub input: Option<String>,
    /// The answer judged; standard output then is not.
    pub output: Option<String>,
}

/// Runs `"$@"` with its input in the file `$1` and on stdin, its stdout dropped and the file
/// `$2` printed instead when `$2` is given; a program killed by a signal kills the shell too,
/// so the run ends as the program did.
const WITH_FILES: &str = r#"input=$1 output=$2; shift 2
if [ -n "$input" ]; then cat > "$input"; exec < "$input"; fi
if [ -n "$output" ]; then "$@" > /dev/null; else "$@"; fi
code=$?
if [ -n "$output" ]; then
  if [ -f "$output" ]; then cat -- "$output"; else echo "no $output was written" >&2; fi
fi
if [ "$code" -gt 128 ]; then trap - $((code - 128)) 2>/dev/null; kill -s $((code - 128)) $$; fi
exit "$code""#;

impl FileIo {
    /// A plain name in the program's folder, no path.
    pub fn is_plain_name(name: &str) -> bool {
        !name.is_empty() && !name.contains(['/', '\0']) && name != "." && name != ".."
    }

    /// Whether the run wrote its answer's file (`WITH_FILES` says on stderr when not).
    pub fn output_written(&self, stderr: &[u8]) -> bool {
        let Some(output) = &self.output else {
            return true;
        };
        let said = format!("no {output} was written");
        !String::from_utf8_lossy(stderr).contains(&said)
    }

    fn wrap(&self, argv: Vec<OsString>) -> Vec<OsString> {
        if self.input.is_none() && self.output.is_none() {
            return argv;
        }
        let name = |file: &Option<String>| OsString::from(file.clone().unwrap_or_default());
        let mut wrapped: Vec<OsString> = ["/bin/sh", "-c", WITH_FILES, "judge-files"]
            .into_iter()
            .map(OsString::from)
            .collect();
        wrapped.extend([name(&self.input), name(&self.output)]);
        wrapped.extend(argv);
        wrapped
    }
}

fn replace_bytes(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(from.len()).position(|window| window == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jvm_runs_as_the_judge_runs_it() {
        use crate::problem::Profile;
        use crate::toolchain::sources::Sources;
        let java = Language::by_code("java").expect("Java is known");
        let run = |profile: Profile| -> Vec<String> {
            let mut sources = Sources::single(java, "Main.java");
            sources.class = Some("Main".into());
            let sources = sources.judged_by(profile.online_judge());
            let run = super::super::compiler::run_command(&sources, Path::new("/b"), None);
            let judge = profile.online_judge();
            let limits = judge.allowance(java.id).apply(judge.limits());
            let command = command_under(&run, &limits);
            command
                .iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect()
        };
        let ours = ["java", "-XX:-UsePerfData", "-cp", "/b"];
        let boj = run(Profile::Boj);
        assert_eq!(boj[..4], ours);
        // help.acmicpc.net/language/info
        assert_eq!(
            boj[4..],
            [
                "-Xms1024m",
                "-Xmx1920m",
                "-Xss512m",
                "-Dfile.encoding=UTF-8",
                "-XX:+UseSerialGC",
                "-DONLINE_JUDGE=1",
                "-DBOJ=1",
                "Main"
            ]
        );
        // problemtools' languages.yaml, with the memory limit as the heap (the whole program
        // gets the JVM's runtime beside it).
        assert_eq!(
            run(Profile::Kattis)[4..],
            [
                "-Dfile.encoding=UTF-8",
                "-XX:+UseSerialGC",
                "-Xss64m",
                "-Xms1024m",
                "-Xmx1024m",
                "Main"
            ]
        );
        // SW Expert Academy publishes none: the language table's, with its 1 MB stack.
        assert_eq!(
            run(Profile::Swea)[4..],
            [
                "-Xmx256m",
                "-Xss1m",
                "-XX:+UseSerialGC",
                "-Dfile.encoding=UTF-8",
                "Solution"
            ]
        );
    }
}
