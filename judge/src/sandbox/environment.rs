//! What a program gets from the judge's environment, and where a bare command name is found.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Toolchains need these.
const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "JAVA_HOME"];

/// What a build also gets: how toolchains and version managers find themselves (a name, or a
/// prefix when it ends in `_`).
const TOOLCHAIN_ENV: &[&str] = &[
    "RUSTUP_",
    "CARGO_HOME",
    "PYENV_",
    "JDK_HOME",
    "GOROOT",
    "GOPATH",
    "GOCACHE",
    "GOENV",
    "GOMODCACHE",
    "GOTOOLCHAIN",
    "NVM_",
    "VOLTA_HOME",
    "ASDF_",
    "MISE_",
    "SDKMAN_",
    "KOTLIN_HOME",
    "DOTNET_ROOT",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "USER",
    "LOGNAME",
];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Environment {
    /// A judged program's: bare, so that nothing of the user's leaks into its behaviour.
    #[default]
    Program,
    /// A compiler's: the bare one and `TOOLCHAIN_ENV`.
    Build,
}

impl Environment {
    /// From the judge's environment, read once (it does not change).
    pub fn variables(self) -> impl Iterator<Item = (&'static str, &'static OsStr)> {
        static BUILD: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
        let build: &[(&'static str, OsString)] = match self {
            Environment::Program => &[],
            Environment::Build => BUILD.get_or_init(|| {
                std::env::vars_os()
                    .filter_map(|(key, value)| {
                        let key = key.into_string().ok()?;
                        let wanted =
                            TOOLCHAIN_ENV
                                .iter()
                                .any(|name| match name.strip_suffix('_') {
                                    Some(_) => key.starts_with(name),
                                    None => key == *name,
                                });
                        // Leaked once: they live as long as the judge.
                        wanted.then(|| (&*Box::leak(key.into_boxed_str()), value))
                    })
                    .collect()
            }),
        };
        inherited_env().chain(build.iter().map(|(key, value)| (*key, value.as_os_str())))
    }
}

/// A program's variables from the judge's environment, read once (it does not change).
pub fn inherited_env() -> impl Iterator<Item = (&'static str, &'static OsStr)> {
    static INHERITED: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
    INHERITED
        .get_or_init(|| {
            INHERITED_ENV
                .iter()
                .filter_map(|&key| Some((key, std::env::var_os(key)?)))
                .collect()
        })
        .iter()
        .map(|(key, value)| (*key, value.as_os_str()))
}

/// A bare command name found on PATH (`execve` does not search), once per name.
pub fn find_on_path(program: &OsStr) -> OsString {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return program.to_owned();
    }
    static FOUND: Mutex<Vec<(OsString, OsString)>> = Mutex::new(Vec::new());
    let mut found = FOUND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, full)) = found.iter().find(|(name, _)| name == program) {
        return full.clone();
    }
    let full = std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|candidate| candidate.is_file())
        })
        .map_or_else(|| program.to_owned(), PathBuf::into_os_string);
    found.push((program.to_owned(), full.clone()));
    full
}
