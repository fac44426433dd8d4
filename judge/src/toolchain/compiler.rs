//! Building programs, once each: a build folder in the cache is named by a hash of source,
//! language, command and compiler version, and renamed into place only once it succeeded.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::language::{crate_name, how_to_install, Language, LanguageId};
use super::program::{Limits, Program, ORIGIN};
use super::sources::Sources;
use crate::error::{Error, Result};
use crate::sandbox::{find_on_path, Environment, RunSpec, Sandbox, Termination};

/// Generous: they only guard against a compiler that hangs.
const COMPILE_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(120),
    memory_bytes: 8 << 30,
    output_bytes: 1 << 30,
    decided_at: None,
    stack_bytes: 64 << 20,
};

#[derive(Debug, Clone)]
pub enum Build {
    Ready(Program),
    /// The compiler's message (the CE verdict).
    CompileError(String),
}

/// A build of one cache key, or a question to a toolchain, under way (`Compiler::claim`);
/// dropping it wakes waiting threads.
struct Claim<'a> {
    compiler: &'a Compiler,
    key: String,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        lock(&self.compiler.building).remove(&self.key);
        self.compiler.built.notify_all();
    }
}

/// A build of one cache key by this judge process, which another judge sharing the cache (a
/// `watch` beside a `run`, shards on one machine) waits for instead of compiling the same
/// program beside it. Without the lock (a file system that refuses it, or a holder that takes
/// longer than `OTHER_BUILD_WAIT`: stopped with Ctrl-Z), both compile, as before: the rename
/// into place keeps either from seeing half a build.
struct BuildLock {
    path: PathBuf,
    _file: std::fs::File,
}

/// Longer than most builds take.
const OTHER_BUILD_WAIT: Duration = Duration::from_secs(20);

impl BuildLock {
    fn take(builds: &Path, key: &str) -> Option<BuildLock> {
        use rustix::fs::{flock, FlockOperation};
        let path = builds.join(format!("{key}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .ok()?;
        let give_up = std::time::Instant::now() + OTHER_BUILD_WAIT;
        loop {
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Some(BuildLock { path, _file: file }),
                Err(rustix::io::Errno::WOULDBLOCK) if std::time::Instant::now() < give_up => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(_) => return None,
            }
        }
    }
}

impl Drop for BuildLock {
    /// The file goes before the lock does: a judge that waited on it looks for the build
    /// again when it wakes, and one that comes later finds the build, or makes a new lock.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A lock that a thread's panic elsewhere does not poison for the others.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long a build is likely to take, longest first: a JVM compiler, another compiler, a
/// syntax check.
pub fn build_rank(source: &Path) -> u8 {
    match Language::of(source).map(|language| language.id) {
        Some(LanguageId::Java | LanguageId::Kotlin) => 0,
        Some(LanguageId::Python3 | LanguageId::Python2 | LanguageId::JavaScript)
        | Some(LanguageId::Bash | LanguageId::Scripts) => 2,
        _ => 1,
    }
}

/// The folder of a cache's builds: the one part of the cache judged programs see (its
/// reports and records stay hidden with the repository).
pub fn builds_dir(cache_dir: &Path) -> PathBuf {
    cache_dir.join("builds")
}

/// Builds sources into a cache folder; safe to share between threads.
#[derive(Debug)]
pub struct Compiler {
    cache_dir: PathBuf,
    versions: Mutex<HashMap<String, String>>,
    /// By language and folder (see `Language::real_executable`).
    real_tools: Mutex<HashMap<(&'static str, PathBuf), Option<String>>>,
    /// Whether each C compiler finds the static libraries `-static` needs.
    static_libraries: Mutex<HashMap<&'static str, bool>>,
    /// `open_builds_folder` was done.
    builds_open: std::sync::Once,
    /// Failed builds' messages by cache key: the cache keeps only successes, and this run
    /// does not compile them again.
    compile_errors: Mutex<HashMap<String, String>>,
    /// Keys being built or asked now: a second thread asking for the same build (a checker,
    /// for each solution) or version waits on `built` instead of doing it again.
    building: Mutex<std::collections::HashSet<String>>,
    built: std::sync::Condvar,
    sandbox: Arc<Sandbox>,
}

impl Compiler {
    pub fn cache_dir(&self) -> &Path {
        &self.cache_dir
    }

    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    pub fn new(cache_dir: PathBuf, sandbox: Arc<Sandbox>) -> Self {
        Compiler {
            cache_dir,
            versions: Mutex::new(HashMap::new()),
            real_tools: Mutex::new(HashMap::new()),
            static_libraries: Mutex::new(HashMap::new()),
            builds_open: std::sync::Once::new(),
            compile_errors: Mutex::new(HashMap::new()),
            building: Mutex::new(std::collections::HashSet::new()),
            built: std::sync::Condvar::new(),
            sandbox,
        }
    }

    /// Builds `source` unless the cache holds it. `Err` is a harness fault (no such file,
    /// unknown language, missing toolchain), not a compile error.
    pub fn build(&self, source: &Path) -> Result<Build> {
        self.build_from(source, Sources::read(source)?)
    }

    /// Builds `programs` ahead of their use, `threads` at a time and the slowest first
    /// (`build_rank`), so that a command's builds share the cores. Faults are left for the
    /// later build to report.
    pub fn prebuild(&self, programs: Vec<(PathBuf, Result<Sources>)>, threads: usize) {
        let mut programs: Vec<(PathBuf, Sources)> = (programs.into_iter())
            .filter_map(|(source, sources)| Some((source, sources.ok()?)))
            .collect();
        programs.sort_by_key(|(source, _)| build_rank(source));
        let threads = threads.min(programs.len());
        let waiting = Mutex::new(programs.into_iter());
        let work = || loop {
            let next = lock(&waiting).next();
            let Some((source, sources)) = next else {
                return;
            };
            let _ = self.build_from(&source, sources);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    }

    /// Builds `source` from `sources`, its files as they are to be built (a package adds its
    /// included files and constants).
    pub fn build_from(&self, source: &Path, sources: Sources) -> Result<Build> {
        let language = sources.language;
        if let Some(refused) = refuse(source, &sources)? {
            return Ok(refused);
        }
        let absolute = std::path::absolute(source);
        // The toolchain the user's shell would start in the source's folder.
        let folder = absolute.as_ref().ok().and_then(|path| path.parent());
        let tool = self.real_tool(language, folder.unwrap_or(Path::new("")));
        let version = self.version(language, tool.as_deref())?;
        // Built as `ORIGIN`, so the folder is not in the key; its messages name it at run time.
        let origin = absolute
            .map_err(|error| Error::io(source, error))?
            .parent()
            .map(|dir| dir.to_string_lossy().into_owned())
            .unwrap_or_default();
        let compile = self.compile_template(&sources);
        let key = cache_key(&sources, compile.as_deref(), &version);
        let builds = builds_dir(&self.cache_dir);
        let dir = builds.join(&key);
        let run = run_command(&sources, &dir, tool.as_deref());
        let renamed = renamed_in_messages(&sources, (&dir, source), &origin);
        let ready = |cached| {
            Build::Ready(Program {
                language,
                run: run.clone(),
                cached,
                origin: origin.clone(),
                renamed: renamed.clone(),
                dev_in_run_folder: sources.dev_in_run_folder(),
                per_call: sources.called.is_some(),
                sandbox: Arc::clone(&self.sandbox),
            })
        };
        let _claim = self.claim(&key);
        if let Some(message) = lock(&self.compile_errors).get(&key) {
            return Ok(Build::CompileError(message.clone()));
        }
        std::fs::create_dir_all(&builds).map_err(|e| Error::io(&builds, e))?;
        self.builds_open
            .call_once(|| open_builds_folder(&self.cache_dir, &builds));
        let found = || {
            dir.is_dir().then(|| {
                open_to_all(&dir);
                ready(true)
            })
        };
        if let Some(built) = found() {
            return Ok(built);
        }
        // Looked for again once no other judge is building it.
        let _other_judges_wait = BuildLock::take(&builds, &key);
        if let Some(built) = found() {
            return Ok(built);
        }
        // Built in a private folder renamed into place: no reader sees a half-built program,
        // and two runs building the same source do not collide.
        let staging = tempfile::Builder::new()
            .prefix(&format!("{key}.building-"))
            .tempdir_in(&builds)
            .map_err(|e| Error::io(&builds, e))?;
        stage_files(source, &sources, staging.path())?;
        let compile = compile
            .map(|template| compile_argv(&template, staging.path(), &sources, tool.as_deref()));
        if let Some(message) = self.compile(source, &sources, staging.path(), &origin, compile)? {
            lock(&self.compile_errors).insert(key, message.clone());
            return Ok(Build::CompileError(message));
        }
        let staging = staging.keep();
        open_to_all(&staging);
        if let Err(error) = std::fs::rename(&staging, &dir) {
            let _ = std::fs::remove_dir_all(&staging);
            if !dir.is_dir() {
                return Err(Error::io(&dir, error));
            }
        }
        Ok(ready(false))
    }

    /// Waits until no other thread is building `key`.
    fn claim(&self, key: &str) -> Claim<'_> {
        let mut building = lock(&self.building);
        while building.contains(key) {
            building = self.built.wait(building).unwrap_or_else(|e| e.into_inner());
        }
        building.insert(key.to_owned());
        Claim {
            compiler: self,
            key: key.to_owned(),
        }
    }

    /// Runs the compile command, if any, on the files in `staging`; the compiler's message
    /// when it rejects them.
    fn compile(
        &self,
        source: &Path,
        sources: &Sources,
        staging: &Path,
        origin: &str,
        argv: Option<Vec<String>>,
    ) -> Result<Option<String>> {
        let Some(argv) = argv else {
            return Ok(None);
        };
        let tool = argv[0].clone();
        let argv: Vec<OsString> = argv.into_iter().map(OsString::from).collect();
        let output = self
            .sandbox
            .run(&RunSpec {
                argv: &argv,
                stdin: Path::new("/dev/null"),
                limits: COMPILE_LIMITS,
                environment: Environment::Build,
                address_space_backstop: false,
                wall_timeout: COMPILE_LIMITS.cpu_time,
                stop_at_output_limit: true,
                contained: false,
                dev_in_run_folder: false,
                case_files: None,
            })
            .map_err(|error| Error::Toolchain {
                tool,
                purpose: format!("to build {}", source.display()),
                source: error,
            })?;
        if output.termination == Termination::Exited(0) {
            return Ok(None);
        }
        let stderr = String::from_utf8_lossy(&output.stderr).replace(ORIGIN, origin);
        let mut message = without_vm_warnings(&stderr);
        message.push_str(&String::from_utf8_lossy(&output.stdout));
        if output.wall_timeout {
            message.push_str("\ncompiler stopped: it ran past the time allowed");
        }
        // Name the user's file, not the copy in the build folder.
        let staged = match source.is_dir() {
            true => staging.to_path_buf(),
            false => staging.join(&sources.files[0].0),
        };
        Ok(Some(message.replace(
            &*staged.to_string_lossy(),
            &source.to_string_lossy(),
        )))
    }

    /// The compile command's template, less `-static` where the compiler finds no static
    /// libraries.
    fn compile_template(&self, sources: &Sources) -> Option<Vec<&'static str>> {
        let template = sources.compile_command()?;
        let links_statically = !template.contains(&"-static") || self.links_statically(template[0]);
        Some(
            sources.with_standard(
                template
                    .iter()
                    .copied()
                    .filter(|word| links_statically || *word != "-static")
                    .collect(),
            ),
        )
    }

    /// Whether the C or C++ compiler `tool` finds the static libraries `-static` needs;
    /// warns once when not.
    fn links_statically(&self, tool: &'static str) -> bool {
        let mut known = lock(&self.static_libraries);
        *known.entry(tool).or_insert_with(|| {
            let archives: &[&str] = match tool {
                "g++" | "c++" | "clang++" => &["libc.a", "libstdc++.a"],
                _ => &["libc.a"],
            };
            let missing: Vec<&str> = archives
                .iter()
                .copied()
                .filter(|archive| !self.finds_file(tool, archive))
                .collect();
            if !missing.is_empty() {
                eprintln!(
                    "warning: `{tool}` finds no {} here, so programs are linked without \
                     -static, unlike the judge's; install the static libraries (Debian/Ubuntu: \
                     libc6-dev and libstdc++-12-dev; Fedora: glibc-static and libstdc++-static)",
                    missing.join(" or ")
                );
            }
            missing.is_empty()
        })
    }

    /// Why this machine cannot build or run the language: a program missing from `PATH`
    /// (`no kotlinc`), or a version command that fails (a `python2` shim with no Python 2).
    pub fn unavailable(&self, language: &'static Language) -> Option<String> {
        if let Some(tool) = language.missing_tool() {
            return Some(format!("no {tool}"));
        }
        let here = std::env::current_dir().unwrap_or_default();
        let tool = self.real_tool(language, &here);
        self.version(language, tool.as_deref())
            .err()
            .map(|_| version_fails(language))
    }

    /// The toolchain found from the current folder: its version line and executable; or why
    /// there is none.
    pub fn toolchain(
        &self,
        language: &'static Language,
    ) -> std::result::Result<(String, String), String> {
        if let Some(missing) = self.unavailable(language) {
            return Err(missing);
        }
        let here = std::env::current_dir().unwrap_or_default();
        let tool = self.real_tool(language, &here);
        let version = self
            .version(language, tool.as_deref())
            .map_err(|error| error.to_string())?;
        let path = tool.unwrap_or_else(|| {
            let word = language.version.first().copied().unwrap_or_default();
            find_on_path(std::ffi::OsStr::new(word))
                .to_string_lossy()
                .into_owned()
        });
        Ok((version_line(&version).to_owned(), path))
    }

    /// The `(major, minor)` version of the toolchain found from the current folder, with its
    /// version line: the line's first dotted number (Java's `1.8` is 8).
    pub fn version_number(&self, language: &'static Language) -> Option<((u32, u32), String)> {
        let (line, _) = self.toolchain(language).ok()?;
        let (major, minor) = first_dotted(&line)?;
        let number = match (language.id, major) {
            (LanguageId::Java, 1) => (minor, 0),
            _ => (major, minor),
        };
        Some((number, line))
    }

    /// The toolchain's version, asked once per language and executable (`tool`, when a proxy
    /// or shim stands for it). It is kept between runs under the binary's identity, so that a
    /// warm run starts no JVM to ask `javac -version`; an unresolved rustup proxy is always
    /// asked, as it stands for whichever toolchain is selected.
    fn version(&self, language: &'static Language, tool: Option<&str>) -> Result<String> {
        let versions = || lock(&self.versions);
        let asked = format!("{}\0{}", language.name, tool.unwrap_or_default());
        // One asker per language and tool (a second waits for its answer); languages are
        // asked in parallel.
        let _claim = self.claim(&format!("version\0{asked}"));
        if let Some(version) = versions().get(&asked) {
            return Ok(version.clone());
        }
        let command = with_tool(
            language
                .version
                .iter()
                .map(|&word| word.to_owned())
                .collect(),
            language,
            tool,
        );
        let remembered = self.remembered(&command[0], &command.join(" "));
        if let Some(version) = remembered
            .as_ref()
            .and_then(|file| std::fs::read_to_string(file).ok())
        {
            versions().insert(asked, version.clone());
            return Ok(version);
        }
        if let Some(version) = installed_version(&command) {
            versions().insert(asked, version.clone());
            return Ok(version);
        }
        let asking = with_jvm_flags(command.clone());
        let output = Command::new(&asking[0])
            .args(&asking[1..])
            .output()
            .map_err(|error| Error::Toolchain {
                tool: command[0].clone(),
                purpose: format!("for {} solutions", language.name),
                source: error,
            })?;
        if !output.status.success() {
            // As a shim with nothing behind it does (a version manager's `python2`).
            return Err(Error::Toolchain {
                tool: command[0].clone(),
                purpose: format!("for {} solutions", language.name),
                source: std::io::Error::other(version_fails(language)),
            });
        }
        let mut version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        version.push_str(String::from_utf8_lossy(&output.stderr).trim());
        if let Some(file) = &remembered {
            remember(file, &version);
        }
        versions().insert(asked, version.clone());
        Ok(version)
    }

    /// Where `tool`'s answer to `question` is kept between runs: under its binary's identity,
    /// so that an upgrade asks again (none for a rustup proxy).
    fn remembered(&self, tool: &str, question: &str) -> Option<PathBuf> {
        let identity = binary_identity(tool)?;
        Some(self.answer_file(&format!("{identity}\0{question}")))
    }

    /// The file in the cache that keeps a toolchain's answer to what `key` names.
    fn answer_file(&self, key: &str) -> PathBuf {
        let key = blake3::hash(key.as_bytes());
        self.cache_dir.join("versions").join(&key.to_hex()[..32])
    }

    /// Whether the compiler `tool` finds the library file `name`. A path found is kept
    /// (`remembered`) and believed while it exists, so a warm run starts no compiler; a
    /// library not found is asked again, as installing it changes no compiler.
    fn finds_file(&self, tool: &str, name: &str) -> bool {
        let remembered = self.remembered(tool, &format!("{tool} -print-file-name={name}"));
        if let Some(found) = remembered
            .as_ref()
            .and_then(|file| std::fs::read_to_string(file).ok())
        {
            if Path::new(&found).is_file() {
                return true;
            }
        }
        let Some(found) = library_path(tool, name) else {
            return false;
        };
        if let Some(file) = &remembered {
            remember(file, &found.to_string_lossy());
        }
        true
    }
}

/// A build refused before any compiler runs: the judge's own compile error, or a missing tool.
fn refuse(source: &Path, sources: &Sources) -> Result<Option<Build>> {
    if let Some(reason) = sources.refused() {
        return Ok(Some(Build::CompileError(reason)));
    }
    match sources.missing_tool() {
        Some(tool) => Err(Error::MissingToolchain {
            program: source.to_path_buf(),
            tool: tool.to_owned(),
            language: sources.language.name,
            install: how_to_install(tool),
        }),
        None => Ok(None),
    }
}

/// The line of a version command's answer that says the version: the first with a dotted
/// number that is no warning (kotlinc's JVM warns of a deprecated flag first), else the first.
fn version_line(answer: &str) -> &str {
    answer
        .lines()
        .find(|line| first_dotted(line).is_some() && !line.to_lowercase().contains("warning"))
        .or_else(|| answer.lines().next())
        .unwrap_or_default()
}

/// `(17, 0)` in `javac 17.0.15`, `(1, 3)` in `kotlinc-jvm 1.3-SNAPSHOT (JRE 17.0.15)`.
fn first_dotted(line: &str) -> Option<(u32, u32)> {
    line.split(|c: char| !c.is_ascii_digit() && c != '.')
        .find_map(|word| {
            let mut parts = word.split('.');
            Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
        })
}

/// What a JVM compiler's `-version` would answer, read from its installation's files: asking
/// would start a JVM, seconds of CPU before its first build could start.
fn installed_version(command: &[String]) -> Option<String> {
    if command.len() != 2 || command[1] != "-version" {
        return None;
    }
    let tool = std::fs::canonicalize(find_on_path(std::ffi::OsStr::new(&command[0]))).ok()?;
    let home = tool.parent()?.parent()?;
    match tool.file_name()?.to_str()? {
        "javac" => jdk_release(home),
        "kotlinc" => kotlin_release(home),
        _ => None,
    }
}

/// `javac 17.0.15`, from the JDK's `release` file.
fn jdk_release(home: &Path) -> Option<String> {
    let release = std::fs::read_to_string(home.join("release")).ok()?;
    let version = release
        .lines()
        .find_map(|line| line.strip_prefix("JAVA_VERSION="))?
        .trim()
        .trim_matches('"');
    (!version.is_empty()).then(|| format!("javac {version}"))
}

/// `kotlinc-jvm 2.1.0-release-394`, from the `build.txt` of JetBrains' distribution, else
/// from the manifest of the compiler's jar (Debian's package has no `build.txt`).
fn kotlin_release(home: &Path) -> Option<String> {
    let version = match std::fs::read_to_string(home.join("build.txt")) {
        Ok(build) => build.lines().next()?.trim().to_owned(),
        Err(_) => jar_manifest_version(&home.join("lib").join("kotlin-compiler.jar"))?,
    };
    (!version.is_empty()).then(|| format!("kotlinc-jvm {version}"))
}

/// The `Implementation-Version` of a jar whose manifest is among its first entries and stored
/// uncompressed, as `jar` and Debian's builds write it; `None` otherwise (then the compiler
/// is asked).
fn jar_manifest_version(jar: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(jar)
        .ok()?
        .take(64 * 1024)
        .read_to_end(&mut head)
        .ok()?;
    let number = |at: usize, width: usize| -> Option<usize> {
        let bytes = head.get(at..at + width)?;
        Some(
            bytes
                .iter()
                .rev()
                .fold(0, |sum, &b| sum << 8 | usize::from(b)),
        )
    };
    // Each entry: a local file header (zip's APPNOTE 4.3.7), its name, its extra field, its data.
    let mut at = 0;
    while head.get(at..at + 4)? == b"PK\x03\x04" {
        let (flags, method, size) = (number(at + 6, 2)?, number(at + 8, 2)?, number(at + 18, 4)?);
        let name_end = at + 30 + number(at + 26, 2)?;
        let data = name_end + number(at + 28, 2)?;
        if head.get(at + 30..name_end)? == b"META-INF/MANIFEST.MF" {
            if method != 0 {
                return None;
            }
            let manifest = String::from_utf8_lossy(head.get(data..data + size)?);
            return manifest
                .lines()
                .find_map(|line| line.strip_prefix("Implementation-Version:"))
                .map(|version| version.trim().to_owned());
        }
        if flags & 0x8 != 0 {
            // Its size follows the data, so the next entry cannot be found from here.
            return None;
        }
        at = data + size;
    }
    None
}

/// Keeps a toolchain's answer (`Compiler::remembered`); failing only means asking again.
fn remember(file: &Path, answer: &str) {
    if let Some(folder) = file.parent() {
        let _ = std::fs::create_dir_all(folder);
    }
    let _ = crate::atomic_write::write_cache(file, answer.as_bytes());
}

impl Compiler {
    /// The executable behind the language's tool when that is a version manager's proxy or
    /// shim, asked in `folder` with the user's environment, so that `rust-toolchain.toml`,
    /// `RUSTUP_TOOLCHAIN`, `.python-version` and `PYENV_VERSION` choose it. Builds and runs
    /// start it directly: the proxy would choose again in the run's bare environment, and
    /// pyenv's shim costs CPU time at every start. `None` when the tool is the real one or the
    /// manager does not say.
    fn real_tool(&self, language: &'static Language, folder: &Path) -> Option<String> {
        let ask = language.real_executable?;
        let tool = *language.version.first()?;
        let key = (language.name, folder.to_path_buf());
        // One asker per language and folder, as for `version`.
        let _claim = self.claim(&format!("real\0{}\0{}", language.name, folder.display()));
        if let Some(known) = lock(&self.real_tools).get(&key) {
            return known.clone();
        }
        let resolve = || {
            let found = find_on_path(std::ffi::OsStr::new(tool));
            if !is_proxy(&found) {
                return None;
            }
            let kept = pyenv_choice(Path::new(&found), folder)
                .map(|choice| self.answer_file(&format!("real\0{}\0{choice}", language.name)));
            let is_program =
                |path: &str| Path::new(path).is_absolute() && Path::new(path).is_file();
            let known = kept
                .as_ref()
                .and_then(|file| std::fs::read_to_string(file).ok());
            if let Some(path) = known.filter(|path| is_program(path)) {
                return Some(path);
            }
            let output = Command::new(find_on_path(std::ffi::OsStr::new(ask[0])))
                .args(&ask[1..])
                .current_dir(folder)
                .stderr(std::process::Stdio::null())
                .output()
                .ok()?;
            let path = String::from_utf8(output.stdout).ok()?.trim().to_owned();
            if !output.status.success() || !is_program(&path) {
                return None;
            }
            if let Some(file) = &kept {
                remember(file, &path);
            }
            Some(path)
        };
        let real = resolve();
        lock(&self.real_tools).insert(key, real.clone());
        real
    }
}

/// Everything pyenv reads to choose the interpreter its shim `shim` starts in `folder`
/// (`pyenv version-name` and `pyenv which`): the shim, the `PYENV*` variables and `PATH`, the
/// nearest `.python-version` or else the global `version` file, and the installed versions and
/// plugins. The shim's answer is kept under it, since asking starts bash and pyenv's scripts
/// on every run. `None` for any other shim, which is asked every time.
fn pyenv_choice(shim: &Path, folder: &Path) -> Option<String> {
    let shims = shim.parent()?;
    let text = std::fs::read_to_string(shim).ok()?;
    if shims.file_name()? != "shims" || !text.contains("pyenv") {
        return None;
    }
    let root = shims.parent()?;
    let changed = |path: &Path| {
        let metadata = std::fs::metadata(path).ok();
        let modified = metadata.and_then(|metadata| metadata.modified().ok());
        format!("\0{}\0{modified:?}", path.display())
    };
    let mut choice = format!("{}\0{text}", shim.display());
    let mut variables: Vec<_> = (std::env::vars_os())
        .filter(|(name, _)| name == "PATH" || name.to_string_lossy().contains("PYENV"))
        .collect();
    variables.sort();
    for (name, value) in variables {
        choice += &format!("\0{}={}", name.to_string_lossy(), value.to_string_lossy());
    }
    let start = std::env::var_os("PYENV_DIR").map_or(folder.to_path_buf(), PathBuf::from);
    let version_file = (start.ancestors().chain(folder.ancestors()))
        .map(|dir| dir.join(".python-version"))
        .find(|file| file.is_file())
        .unwrap_or_else(|| root.join("version"));
    let versions = std::fs::read_to_string(&version_file).unwrap_or_default();
    choice += &format!("\0{}\0{versions}", version_file.display());
    for part in ["versions", "plugins", "pyenv.d"] {
        choice += &changed(&root.join(part));
    }
    Some(choice)
}

/// Lets every user read (and run, where its owner may) a built program, since root's judged
/// programs run as nobody: a build folder is private while made, and a umask may have kept
/// its files from others.
fn open_to_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let open = |path: &Path, mode: u32| {
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
    };
    if std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o005 == 0o005) {
        return;
    }
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let mode = metadata.permissions().mode() & 0o7777;
        let owner_runs = mode & 0o100 != 0;
        match metadata.is_dir() || owner_runs {
            true => open(entry.path(), mode | 0o555),
            false => open(entry.path(), mode | 0o444),
        }
    }
}

/// Root's judged programs run as nobody: they pass through root's cache (which may be 0700,
/// `JUDGE_CACHE_DIR=$(mktemp -d)`) to the build they are named, but list no build folder, so
/// reach no other program there (a reference solution) but by its key.
fn open_builds_folder(cache: &Path, builds: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if !rustix::process::getuid().is_root() {
        return;
    }
    let set = |folder: &Path, change: fn(u32) -> u32| {
        if let Ok(metadata) = std::fs::metadata(folder) {
            let mode = metadata.permissions().mode() & 0o7777;
            if change(mode) != mode {
                let _ = std::fs::set_permissions(folder, PermissionsExt::from_mode(change(mode)));
            }
        }
    };
    set(cache, |mode| mode | 0o011);
    set(builds, |mode| (mode | 0o011) & !0o044);
}

/// The library file `name` as the compiler `tool` finds it (`-print-file-name` answers a
/// path only when it finds one).
fn library_path(tool: &str, name: &str) -> Option<PathBuf> {
    let found = Command::new(find_on_path(std::ffi::OsStr::new(tool)))
        .arg(format!("-print-file-name={name}"))
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())?;
    let found = PathBuf::from(found.trim());
    (found.is_absolute() && found.is_file()).then_some(found)
}

/// The run command of a program built in `dir`.
pub(super) fn run_command(sources: &Sources, dir: &Path, tool: Option<&str>) -> Vec<String> {
    let language = sources.language;
    let mut run = with_tool(fill(sources.run_command(), dir, sources), language, tool);
    let local = fill(language.local_run_args, dir, sources);
    run.splice(1..1, local);
    with_jvm_flags(run)
}

/// Writes the files `sources` are built from into `staging`.
fn stage_files(source: &Path, sources: &Sources, staging: &Path) -> Result<()> {
    let language = sources.language;
    for (name, code) in &sources.files {
        let staged = staging.join(name);
        if let Some(parent) = staged.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&staged, code).map_err(|e| Error::io(&staged, e))?;
        if language.id == LanguageId::Scripts {
            // The scripts of a validator folder run as programs; a copy loses the mode.
            use std::os::unix::fs::PermissionsExt;
            let mode =
                std::fs::metadata(source.join(name)).map_or(0o644, |m| m.permissions().mode());
            std::fs::set_permissions(&staged, std::fs::Permissions::from_mode(mode))
                .map_err(|e| Error::io(&staged, e))?;
        }
    }
    Ok(())
}

/// The compile command for the files in `staging`, with the real tool and the local flags.
fn compile_argv(
    template: &[&str],
    staging: &Path,
    sources: &Sources,
    tool: Option<&str>,
) -> Vec<String> {
    let language = sources.language;
    let argv = with_tool(fill(template, staging, sources), language, tool);
    let local = fill(language.local_compile_args, staging, sources);
    let local = local
        .into_iter()
        .map(|part| part.replace("{origin}", ORIGIN));
    with_jvm_flags(argv.into_iter().chain(local).collect())
}

/// `argv` with flags for the JVM it starts, if any (`java`, or `javac` and Kotlin's tools
/// through `-J`), which neither the program nor its class files can tell:
/// - no `/tmp/hsperfdata_USER/PID` file: runs in their own PID namespaces share pids, and a
///   JVM that finds another's file says so on standard output;
/// - a compiler's JVM uses only the quick JIT and the serial collector (unless the command
///   names one): it is done sooner, on less CPU, with the same class files.
pub(crate) fn with_jvm_flags(mut argv: Vec<String>) -> Vec<String> {
    let tool = Path::new(&argv[0])
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let compiler = matches!(tool.as_str(), "javac" | "kotlinc" | "kotlinc-jvm");
    let mut flags = match tool.as_str() {
        "java" => vec!["-XX:-UsePerfData"],
        _ if compiler => vec!["-J-XX:-UsePerfData", "-J-XX:TieredStopAtLevel=1"],
        // `kotlin` runs the judged program: its JVM keeps every compiler it has.
        "kotlin" => vec!["-J-XX:-UsePerfData"],
        _ => return argv,
    };
    // A second collector would stop the JVM before the compiler starts.
    let names_a_collector = || {
        argv.iter()
            .any(|word| word.starts_with("-J-XX:+Use") && word.ends_with("GC"))
    };
    if compiler && !names_a_collector() {
        flags.push("-J-XX:+UseSerialGC");
    }
    argv.splice(1..1, flags.into_iter().map(str::to_owned));
    argv
}

/// Whether the file found on PATH stands for another executable: a script (a version
/// manager's shim) or rustup's proxy.
fn is_proxy(found: &std::ffi::OsStr) -> bool {
    let mut start = [0u8; 2];
    let script = std::fs::File::open(found)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut start))
        .is_ok_and(|()| start == *b"#!");
    let rustup = std::fs::canonicalize(found).is_ok_and(|binary| {
        binary
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("rustup"))
    });
    script || rustup
}

/// `command` with the language's tool (`version`'s first word) replaced by `tool`.
fn with_tool(mut command: Vec<String>, language: &Language, tool: Option<&str>) -> Vec<String> {
    if let (Some(tool), Some(&name)) = (tool, language.version.first()) {
        for word in command.iter_mut().filter(|word| *word == name) {
            *word = tool.to_owned();
        }
    }
    command
}

fn version_fails(language: &Language) -> String {
    format!("`{}` fails", language.version.join(" "))
}

/// Path, size and modification time of the binary `tool` runs, or `None` when it cannot be
/// found or is rustup's proxy.
fn binary_identity(tool: &str) -> Option<String> {
    let binary = std::fs::canonicalize(find_on_path(std::ffi::OsStr::new(tool))).ok()?;
    if binary.file_name()?.to_str()?.starts_with("rustup") {
        return None;
    }
    let metadata = std::fs::metadata(&binary).ok()?;
    let modified = metadata
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{}\0{}\0{}",
        binary.display(),
        metadata.len(),
        modified.as_nanos()
    ))
}

fn cache_key(sources: &Sources, compile: Option<&[&str]>, version: &str) -> String {
    let language = sources.language;
    let mut hasher = blake3::Hasher::new();
    let command = compile
        .unwrap_or_default()
        .iter()
        .chain(sources.run_command())
        .chain(language.local_compile_args)
        .chain(language.local_run_args);
    for part in [language.name, version, &sources.main]
        .into_iter()
        .chain(command.copied())
    {
        hasher.update(part.as_bytes()).update(b"\0");
    }
    for (name, code) in &sources.files {
        // Lengths first, so that no two different file lists hash the same bytes.
        hasher
            .update(&(name.len() as u64).to_le_bytes())
            .update(name.as_bytes());
        hasher
            .update(&(code.len() as u64).to_le_bytes())
            .update(code);
    }
    hasher.finalize().to_hex()[..32].to_owned()
}

/// The build command as typed in the source's folder, for messages: the judge's as its page
/// writes it (`g++ Main.cc -o Main ...`), else the language table's with the file's name.
pub fn shown_command(sources: &Sources) -> String {
    let Some(compile) = sources.compile_command() else {
        return "(no build step)".to_owned();
    };
    let file = sources.judged_as.and_then(|judged| judged.offer.file);
    let (main, exe) = match sources.judged_as {
        Some(_) if file.is_some() => (file.unwrap_or_default().to_owned(), "Main"),
        Some(_) if sources.class.is_some() => (sources.main.clone(), "Main"),
        Some(_) => {
            let extension = sources.language.extensions.first().copied();
            (format!("Main.{}", extension.unwrap_or_default()), "Main")
        }
        None => (sources.main.clone(), EXE),
    };
    let shown = Sources {
        files: vec![(main.clone(), Vec::new())],
        main,
        ..sources.clone()
    };
    let compile = sources.with_standard(compile.to_vec());
    fill_named(&compile, Path::new(""), &shown, exe).join(" ")
}

/// What a run's messages name and the user's names for them (`Program::renamed`): `ORIGIN`,
/// where the build put it in place of its folder, and the build's copy of the file.
fn renamed_in_messages(
    sources: &Sources,
    (build, source): (&Path, &Path),
    origin: &str,
) -> Vec<(String, String)> {
    let language = sources.language;
    let mut renamed = Vec::new();
    if language
        .local_compile_args
        .iter()
        .any(|arg| arg.contains("{origin}"))
    {
        renamed.push((ORIGIN.to_owned(), origin.to_owned()));
    }
    if let (Some((name, _)), Some(file)) = (sources.files.first(), source.file_name()) {
        let copy = build.join(name).to_string_lossy().into_owned();
        renamed.push((
            copy,
            Path::new(origin).join(file).to_string_lossy().into_owned(),
        ));
    }
    renamed
}

/// A compiler's message without the JVM's warnings about its own options (Debian's `kotlinc`
/// starts every message with one on `-Xverify:none`): they say nothing of the program.
fn without_vm_warnings(message: &str) -> String {
    let kept = message.split_inclusive('\n');
    kept.filter(|line| !line.contains("Server VM warning: "))
        .collect()
}

/// The built program's name in its build folder.
const EXE: &str = "main";

/// A command template with the build folder's paths filled in.
fn fill(template: &[&str], dir: &Path, sources: &Sources) -> Vec<String> {
    fill_named(template, dir, sources, EXE)
}

fn fill_named(template: &[&str], dir: &Path, sources: &Sources, exe: &str) -> Vec<String> {
    // An empty folder is the current one, where paths need no prefix.
    let prefix = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let dir = if dir.as_os_str().is_empty() {
        std::borrow::Cow::Borrowed(".")
    } else {
        dir.to_string_lossy()
    };
    let class = sources.class.as_deref().unwrap_or("Main");
    template
        .iter()
        .flat_map(|part| {
            if *part == "{sources}" {
                return sources.compiled_files().into_iter().map(&prefix).collect();
            }
            vec![part
                .replace("{source}", &prefix(&sources.main))
                .replace("{exe}", &prefix(exe))
                .replace("{dir}", &dir)
                .replace("{class}", class)
                .replace("{crate}", &crate_name(&sources.main))]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jvm_warning_about_its_options_is_left_out_of_a_compilers_message() {
        let kotlinc = "OpenJDK 64-Bit Server VM warning: Options -Xverify:none and -noverify \
                       were deprecated in JDK 13 and will likely be removed in a future release.\n\
                       k.kt:1:27: error: type mismatch\n";
        assert_eq!(
            without_vm_warnings(kotlinc),
            "k.kt:1:27: error: type mismatch\n"
        );
        assert_eq!(
            without_vm_warnings("a.cpp:1: error: x"),
            "a.cpp:1: error: x"
        );
    }

    #[test]
    fn the_version_line_is_the_one_that_says_a_version() {
        let kotlinc = "OpenJDK 64-Bit Server VM warning: Options -Xverify:none and -noverify \
            were deprecated in JDK 13 and will likely be removed in a future release.\n\
            info: kotlinc-jvm 1.3.31 (JRE 17.0.13+11-Debian-2)";
        assert_eq!(
            version_line(kotlinc),
            "info: kotlinc-jvm 1.3.31 (JRE 17.0.13+11-Debian-2)"
        );
        assert_eq!(
            version_line("gcc (Debian 12.2.0-14) 12.2.0\nCopyright"),
            "gcc (Debian 12.2.0-14) 12.2.0"
        );
        assert_eq!(version_line("no number here"), "no number here");
    }

    #[test]
    fn a_compilers_jvm_is_started_cheaper_and_keeps_a_collector_its_command_names() {
        let argv = |words: &[&str]| words.iter().map(|word| word.to_string()).collect();
        assert_eq!(
            with_jvm_flags(argv(&["/usr/bin/javac", "-encoding", "UTF-8", "A.java"])),
            argv(&[
                "/usr/bin/javac",
                "-J-XX:-UsePerfData",
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-encoding",
                "UTF-8",
                "A.java"
            ])
        );
        // Two collectors would stop the JVM before javac starts.
        assert_eq!(
            with_jvm_flags(argv(&["javac", "-J-XX:+UseParallelGC", "A.java"])),
            argv(&[
                "javac",
                "-J-XX:-UsePerfData",
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseParallelGC",
                "A.java"
            ])
        );
        // Kotlin's compiler likewise; the JVM that `kotlin` starts runs the judged program.
        assert_eq!(
            with_jvm_flags(argv(&["kotlinc", "-d", ".", "a.kt"])),
            argv(&[
                "kotlinc",
                "-J-XX:-UsePerfData",
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-d",
                ".",
                "a.kt"
            ])
        );
        assert_eq!(
            with_jvm_flags(argv(&["kotlin", "-cp", ".", "MainKt"])),
            argv(&["kotlin", "-J-XX:-UsePerfData", "-cp", ".", "MainKt"])
        );
        // A program's JVM is the judge's, as its command says.
        assert_eq!(
            with_jvm_flags(argv(&["java", "-XX:+UseSerialGC", "Main"])),
            argv(&["java", "-XX:-UsePerfData", "-XX:+UseSerialGC", "Main"])
        );
    }

    #[test]
    fn a_version_number_is_the_lines_first_dotted_one() {
        assert_eq!(first_dotted("javac 17.0.15"), Some((17, 0)));
        assert_eq!(first_dotted("javac 1.8.0_292"), Some((1, 8)));
        assert_eq!(
            first_dotted("info: kotlinc-jvm 1.3-SNAPSHOT (JRE 17.0.15+6)"),
            Some((1, 3))
        );
        assert_eq!(first_dotted("kotlinc-jvm 2.1.0-release-394"), Some((2, 1)));
        assert_eq!(
            first_dotted("rustc 1.95.0 (59807616e 2026-04-14)"),
            Some((1, 95))
        );
        assert_eq!(first_dotted("tool 12 build 7"), None);
    }

    #[test]
    fn a_jdks_release_file_answers_for_javac() {
        let jdk = tempfile::tempdir().unwrap();
        std::fs::create_dir(jdk.path().join("bin")).unwrap();
        let javac = jdk.path().join("bin/javac");
        std::fs::write(&javac, "").unwrap();
        std::fs::write(
            jdk.path().join("release"),
            "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"21.0.2\"\n",
        )
        .unwrap();
        let asked = |words: &[&str]| {
            installed_version(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>())
        };
        let javac = javac.to_string_lossy();
        assert_eq!(
            asked(&[&javac, "-version"]).as_deref(),
            Some("javac 21.0.2")
        );
        assert_eq!(asked(&[&javac, "--help"]), None);
        let java = jdk.path().join("bin/java");
        std::fs::write(&java, "").unwrap();
        assert_eq!(asked(&[&java.to_string_lossy(), "-version"]), None);
    }

    #[test]
    fn the_release_file_says_what_javac_itself_says() {
        // The machines the suite runs on have a JDK (the toolchain tests judge Java).
        let output = Command::new("javac").arg("-version").output().unwrap();
        let said = String::from_utf8_lossy(&output.stdout).trim().to_owned()
            + String::from_utf8_lossy(&output.stderr).trim();
        let command = vec!["javac".to_owned(), "-version".to_owned()];
        assert_eq!(installed_version(&command), Some(said));
    }

    #[test]
    fn a_kotlin_distribution_says_its_version_without_a_jvm() {
        let asked = |kotlinc: &Path| {
            installed_version(&[
                kotlinc.to_string_lossy().into_owned(),
                "-version".to_owned(),
            ])
        };
        // JetBrains' zip: kotlinc/build.txt beside bin/ and lib/.
        let zip = tempfile::tempdir().unwrap();
        let kotlinc = zip.path().join("bin/kotlinc");
        std::fs::create_dir_all(zip.path().join("lib")).unwrap();
        std::fs::create_dir(zip.path().join("bin")).unwrap();
        std::fs::write(&kotlinc, "").unwrap();
        assert_eq!(asked(&kotlinc), None, "nothing says a version yet");
        std::fs::write(zip.path().join("build.txt"), "2.1.0-release-394\n").unwrap();
        assert_eq!(
            asked(&kotlinc).as_deref(),
            Some("kotlinc-jvm 2.1.0-release-394")
        );

        // Debian's package: no build.txt, a jar whose second entry is its stored manifest.
        std::fs::remove_file(zip.path().join("build.txt")).unwrap();
        let entry = |name: &str, method: u16, data: &[u8]| {
            let mut bytes = b"PK\x03\x04\x0a\x00\x00\x08".to_vec();
            bytes.extend(method.to_le_bytes());
            bytes.extend([0; 8]); // time, date, CRC (not read)
            bytes.extend((data.len() as u32).to_le_bytes());
            bytes.extend((data.len() as u32).to_le_bytes());
            bytes.extend((name.len() as u16).to_le_bytes());
            bytes.extend(2u16.to_le_bytes());
            bytes.extend(name.as_bytes());
            bytes.extend([0, 0]);
            bytes.extend(data);
            bytes
        };
        let manifest = b"Manifest-Version: 1.0\r\nImplementation-Version: 1.3.31\r\n\r\n";
        let jar = zip.path().join("lib/kotlin-compiler.jar");
        let mut stored = entry("META-INF/", 0, b"");
        stored.extend(entry("META-INF/MANIFEST.MF", 0, manifest));
        std::fs::write(&jar, &stored).unwrap();
        assert_eq!(asked(&kotlinc).as_deref(), Some("kotlinc-jvm 1.3.31"));
        // A compressed manifest is not read: the compiler is asked instead.
        let mut deflated = entry("META-INF/", 0, b"");
        deflated.extend(entry("META-INF/MANIFEST.MF", 8, manifest));
        std::fs::write(&jar, &deflated).unwrap();
        assert_eq!(asked(&kotlinc), None);
    }

    /// A script standing for `name` that logs each call's arguments to `log` and answers
    /// `answer` a little later.
    fn logging_tool(dir: &Path, name: &str, answer: &str) -> (String, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let (tool, log) = (dir.join(name), dir.join(format!("{name}.log")));
        let script = format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nsleep 0.2\necho '{answer}'\n",
            log.display()
        );
        std::fs::write(&tool, script).unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        (tool.to_string_lossy().into_owned(), log)
    }

    #[test]
    fn a_toolchain_that_two_builds_ask_at_once_is_asked_once() {
        let dir = tempfile::tempdir().unwrap();
        let (tool, log) = logging_tool(dir.path(), "python3", "Python 3.11.7");
        let python = Language::by_id(LanguageId::Python3).unwrap();
        let compiler = Compiler::new(dir.path().join("cache"), Default::default());
        let start = std::sync::Barrier::new(2);
        let answers: Vec<String> = std::thread::scope(|scope| {
            let both = [(); 2].map(|_| {
                scope.spawn(|| {
                    start.wait();
                    compiler.version(python, Some(&tool)).unwrap()
                })
            });
            both.map(|thread| thread.join().unwrap()).into()
        });
        assert_eq!(answers, ["Python 3.11.7", "Python 3.11.7"]);
        let asked = std::fs::read_to_string(&log).unwrap();
        assert_eq!(asked.lines().count(), 1, "{asked}");
    }

    #[test]
    fn a_jvm_compilers_version_is_asked_with_its_cheaper_jvm() {
        let dir = tempfile::tempdir().unwrap();
        let (tool, log) = logging_tool(dir.path(), "kotlinc", "info: kotlinc-jvm 2.1.0");
        let kotlin = Language::by_id(LanguageId::Kotlin).unwrap();
        let compiler = Compiler::new(dir.path().join("cache"), Default::default());
        let answer = compiler.version(kotlin, Some(&tool)).unwrap();
        assert_eq!(answer, "info: kotlinc-jvm 2.1.0");
        let asked = std::fs::read_to_string(&log).unwrap();
        assert!(asked.contains("-J-XX:TieredStopAtLevel=1"), "{asked}");
        assert!(asked.trim_end().ends_with("-version"), "{asked}");
    }
}
