//! Building solutions, once each, with their language's command; built programs are cached
//! by a hash of source, language, command and compiler version, so that an unchanged
//! solution is never rebuilt.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::language::Language;
use crate::profile::Limits;
use crate::sandbox::{self, RunSpec, Termination};

/// Compilers get generous limits: they only guard against a compiler that hangs.
const COMPILE_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(120),
    memory_bytes: 8 << 30,
    output_bytes: 1 << 30,
    stack_bytes: 64 << 20,
};

/// A program ready to run.
#[derive(Debug, Clone)]
pub struct Program {
    pub language: &'static Language,
    pub argv: Vec<OsString>,
    /// It was taken from the cache instead of being built now.
    pub cached: bool,
}

/// The result of building one solution.
#[derive(Debug, Clone)]
pub enum Build {
    Ready(Program),
    /// The compiler rejected the source (the CE verdict), with its message.
    CompileError(String),
}

/// Builds sources into a cache folder; safe to share between threads.
#[derive(Debug)]
pub struct Compiler {
    cache_dir: PathBuf,
    versions: Mutex<HashMap<&'static str, String>>,
}

impl Compiler {
    pub fn new(cache_dir: PathBuf) -> Self {
        Compiler {
            cache_dir,
            versions: Mutex::new(HashMap::new()),
        }
    }

    /// Builds `source` unless the cache already holds it. `Err` is a harness fault (no such
    /// file, unknown language, missing toolchain), not a compile error.
    pub fn build(&self, source: &Path) -> Result<Build> {
        if source.is_dir() {
            return Err(Error::invalid(source, "is a folder, not a source file"));
        }
        let language = Language::of(source).ok_or_else(|| {
            Error::invalid(
                source,
                "unknown language: no compiler for this file extension",
            )
        })?;
        let code = std::fs::read(source).map_err(|error| Error::io(source, error))?;
        let source = std::path::absolute(source).map_err(|error| Error::io(source, error))?;
        let Some(compile) = language.compile else {
            let argv = fill(language.run, &source, &source);
            return Ok(Build::Ready(Program {
                language,
                argv,
                cached: true,
            }));
        };
        let version = self.version(language)?;
        let key = cache_key(language, &version, &code);
        let dir = self.cache_dir.join(&key);
        let exe = dir.join("main");
        let ready = |cached| {
            Build::Ready(Program {
                language,
                argv: fill(language.run, &source, &exe),
                cached,
            })
        };
        if exe.is_file() {
            return Ok(ready(true));
        }
        // Build in a private folder and rename it into place, so that a reader never sees a
        // half-written program and two runs building the same source do not collide.
        std::fs::create_dir_all(&self.cache_dir).map_err(|e| Error::io(&self.cache_dir, e))?;
        let staging = tempfile::Builder::new()
            .prefix(&format!("{key}.building-"))
            .tempdir_in(&self.cache_dir)
            .map_err(|e| Error::io(&self.cache_dir, e))?;
        let staged_exe = staging.path().join("main");
        let argv = fill(compile, &source, &staged_exe);
        let output = sandbox::run(&RunSpec {
            argv: &argv,
            stdin: Path::new("/dev/null"),
            limits: COMPILE_LIMITS,
            address_space_bytes: None,
            wall_timeout: COMPILE_LIMITS.cpu_time,
        })
        .map_err(|error| Error::invalid(&source, format!("cannot run {}: {error}", compile[0])))?;
        if output.termination != Termination::Exited(0) || !staged_exe.is_file() {
            let mut message = String::from_utf8_lossy(&output.stderr).into_owned();
            message.push_str(&String::from_utf8_lossy(&output.stdout));
            if output.wall_timeout {
                message.push_str("\ncompiler stopped: it ran past the time allowed");
            }
            return Ok(Build::CompileError(message));
        }
        let staging = staging.keep();
        if let Err(error) = std::fs::rename(&staging, &dir) {
            let _ = std::fs::remove_dir_all(&staging);
            if !exe.is_file() {
                return Err(Error::io(&dir, error));
            }
        }
        Ok(ready(false))
    }

    /// The toolchain's version, asked once per language and run.
    fn version(&self, language: &'static Language) -> Result<String> {
        let mut versions = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(version) = versions.get(language.name) {
            return Ok(version.clone());
        }
        let tool = language.version[0];
        let output = Command::new(tool)
            .args(&language.version[1..])
            .output()
            .map_err(|error| {
                Error::usage(format!(
                "cannot run `{tool}` to build {} solutions ({error}): is the toolchain installed?",
                language.name
            ))
            })?;
        let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        versions.insert(language.name, version.clone());
        Ok(version)
    }
}

fn cache_key(language: &Language, version: &str, code: &[u8]) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in [language.name, version]
        .into_iter()
        .chain(language.compile.unwrap_or_default().iter().copied())
    {
        hasher.update(part.as_bytes()).update(b"\0");
    }
    hasher.update(code);
    hasher.finalize().to_hex()[..32].to_owned()
}

/// A command template with `{source}` and `{exe}` filled in.
fn fill(template: &[&str], source: &Path, exe: &Path) -> Vec<OsString> {
    template
        .iter()
        .map(|part| match *part {
            "{source}" => source.as_os_str().to_owned(),
            "{exe}" => exe.as_os_str().to_owned(),
            other => OsString::from(other),
        })
        .collect()
}
