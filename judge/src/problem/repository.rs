//! The repository the judge works in: its root, build cache, problem folders and solutions,
//! and a problem named on the command line (by id or path, with a suggestion for a typo).

use std::cmp::Ordering;
use std::path::{Component, Path, PathBuf};

use super::cases::{find_cases, natural_cmp};
use super::layout::{
    ProblemFormat, CASE_DIRS, METADATA_FILE, PACKAGE_FILE, POLYGON_FILE, PROBLEMS_DIR,
    SOLUTIONS_DIR,
};
use super::{kattis, polygon, Problem};
use crate::error::{CorpusFault, Error, Result};

#[derive(Debug, Clone)]
pub struct Repository {
    /// The folder that holds `problems/` (or, standalone, the package).
    pub root: PathBuf,
    /// No `problems/` folder was found: the judge works on packages named by path and keeps
    /// its builds in the user's cache folder.
    pub standalone: bool,
}

impl Repository {
    /// The nearest folder at or above `start` that holds `problems/`.
    pub fn find(start: &Path) -> Result<Repository> {
        // Canonical, so that folders named by other paths (`..`, symlinks) are found inside.
        let start = std::fs::canonicalize(start).map_err(|error| Error::io(start, error))?;
        start
            .ancestors()
            .find(|dir| dir.join(PROBLEMS_DIR).is_dir())
            .map(|root| Repository {
                root: root.to_path_buf(),
                standalone: false,
            })
            .ok_or(Error::NoRoot { start })
    }

    /// The repository above `start`, else `start` standing alone (a package named by path).
    pub fn find_or_standalone(start: &Path) -> Repository {
        Repository::find(start).unwrap_or_else(|_| Repository {
            root: start.to_path_buf(),
            standalone: true,
        })
    }

    /// `$JUDGE_CACHE_DIR`, else the repository's `target/judge/`, else (standalone, so that
    /// judging a package never writes into it) `$XDG_CACHE_HOME/judge` or `~/.cache/judge`.
    pub fn cache_dir(&self) -> PathBuf {
        let dir = std::env::var_os("JUDGE_CACHE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                if self.standalone {
                    user_cache_dir().join("judge")
                } else {
                    self.root.join("target").join("judge")
                }
            });
        // Programs run from their own temporary folders: their paths must not be relative.
        std::path::absolute(&dir).unwrap_or(dir)
    }

    /// Relative to the root when inside it, for the user.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }

    pub fn problems_dir(&self) -> PathBuf {
        self.root.join(PROBLEMS_DIR)
    }

    /// When `problem.toml` does not say: `solutions/<id>.*` in the table's first language
    /// that has one (Rust first), else the Rust path, for the message.
    pub fn default_solution(&self, id: &str) -> PathBuf {
        self.solution_files(id)
            .into_iter()
            .next()
            .unwrap_or_else(|| self.root.join(SOLUTIONS_DIR).join(format!("{id}.rs")))
    }

    /// Every `solutions/<id>.<ext>` that exists, in the table's order (a file per judge).
    pub fn solution_files(&self, id: &str) -> Vec<PathBuf> {
        let dir = self.root.join(SOLUTIONS_DIR);
        crate::toolchain::language::LANGUAGES
            .iter()
            .flat_map(|language| language.extensions)
            .map(|extension| dir.join(format!("{id}.{extension}")))
            .filter(|path| path.is_file())
            .collect()
    }

    /// In natural order. A folder whose name is not UTF-8 is an error of its own, so that it
    /// does not hide the others.
    pub fn problem_dirs(&self) -> Result<Vec<Result<PathBuf>>> {
        if self.standalone {
            // The one problem is the package the judge was started in.
            if ProblemFormat::of(&self.root) != ProblemFormat::Folder {
                return Ok(vec![Ok(self.root.clone())]);
            }
            return Err(Error::NoRoot {
                start: self.root.clone(),
            });
        }
        let dir = self.problems_dir();
        let entries = std::fs::read_dir(&dir).map_err(|error| Error::io(&dir, error))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|error| Error::io(&dir, error))?;
            let path = entry.path();
            let name = entry.file_name();
            if !path.is_dir() {
                continue;
            }
            match name.to_str() {
                Some(name) if name.starts_with('.') => {}
                Some(_) => found.push(Ok(path)),
                None => found.push(Err(Error::not_utf8(&path, "problem folder name"))),
            }
        }
        found.sort_by(|a, b| match (a, b) {
            (Ok(a), Ok(b)) => natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            (Err(_), Err(_)) => Ordering::Equal,
        });
        if found.is_empty() {
            return Err(Error::corpus(&dir, CorpusFault::NoProblems));
        }
        Ok(found)
    }

    /// A problem named on the command line: an id under `problems/`, or a path relative to
    /// `current` (`.`, `../boj_7682`).
    pub fn resolve(&self, argument: &Path, current: &Path) -> Result<PathBuf> {
        let mut components = argument.components();
        if let (Some(Component::Normal(id)), None) = (components.next(), components.next()) {
            let by_id = self.problems_dir().join(id);
            if by_id.is_dir() {
                return Ok(by_id);
            }
        }
        let path = current.join(argument);
        if path.is_dir() {
            let dir = std::fs::canonicalize(&path).map_err(|error| Error::io(&path, error))?;
            if is_problem_dir(&dir) {
                return Ok(dir);
            }
            return Err(Error::NotAProblem {
                path: self.relative(&dir).to_path_buf(),
            });
        }
        if self.standalone {
            return Err(Error::NowhereToFind {
                name: argument.to_string_lossy().into_owned(),
                start: current.to_path_buf(),
            });
        }
        let known: Vec<String> = self
            .problem_dirs()
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .filter_map(|dir| Some(dir.file_name()?.to_str()?.to_owned()))
            .collect();
        let name = argument.to_string_lossy().into_owned();
        Err(Error::UnknownProblem {
            suggestion: closest(&name, &known),
            name,
            problems_dir: self.problems_dir(),
        })
    }

    pub fn load_problem(&self, dir: &Path) -> Result<Problem> {
        let format = ProblemFormat::of(dir);
        let mut problem = self.load_as(dir, format)?;
        match format {
            // Its cases were read with its description.
            ProblemFormat::Polygon => {}
            ProblemFormat::Kattis => {
                problem.cases = kattis::find_cases(&problem)?;
                problem.scoring = kattis::scoring_plan(&problem)?;
            }
            ProblemFormat::Folder => {
                problem.cases = find_cases(dir)?;
                problem.scoring = problem.resolve_subtasks()?;
            }
        }
        Ok(problem)
    }

    /// A problem to be judged: a package that states no time limit gets the one `judge verify`
    /// derived (`kattis::time_limit`).
    pub fn load_to_judge(&self, dir: &Path) -> Result<Problem> {
        let mut problem = self.load_problem(dir)?;
        if problem
            .package
            .as_ref()
            .is_some_and(|p| !p.time_limit_given)
        {
            kattis::time_limit::apply_time_limit(&mut problem, &self.cache_dir());
        }
        Ok(problem)
    }

    /// Metadata only, for commands on a problem with no cases yet (a Polygon package's come
    /// with it).
    pub fn load_metadata(&self, dir: &Path) -> Result<Problem> {
        self.load_as(dir, ProblemFormat::of(dir))
    }

    fn load_as(&self, dir: &Path, format: ProblemFormat) -> Result<Problem> {
        let id = Repository::id_of(dir);
        match format {
            ProblemFormat::Kattis => kattis::load_package(dir, id),
            ProblemFormat::Polygon => polygon::load_package(dir, id),
            ProblemFormat::Folder => Problem::load(dir, self.default_solution(&id)),
        }
    }

    /// The folder's name, also for `judge verify .`.
    pub fn id_of(dir: &Path) -> String {
        let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let name = absolute.file_name().and_then(|name| name.to_str());
        name.unwrap_or_default().to_owned()
    }
}

/// `$XDG_CACHE_HOME` when absolute (as the XDG specification asks), else `~/.cache`, else the
/// temporary folder.
fn user_cache_dir() -> PathBuf {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from);
    if let Some(dir) = xdg.filter(|dir| dir.is_absolute()) {
        return dir;
    }
    match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => PathBuf::from(home).join(".cache"),
        _ => std::env::temp_dir(),
    }
}

/// The known name closest to `name`, if close enough to be a typo.
fn closest(name: &str, known: &[String]) -> Option<String> {
    known
        .iter()
        .map(|candidate| (strsim::levenshtein(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= candidate.len().max(name.len()) / 3 + 1)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.clone())
}

fn is_problem_dir(dir: &Path) -> bool {
    dir.join(METADATA_FILE).is_file()
        || dir.join(PACKAGE_FILE).is_file()
        || dir.join(POLYGON_FILE).is_file()
        || CASE_DIRS.iter().any(|case_dir| dir.join(case_dir).is_dir())
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::problem::test_files::touch;

    #[test]
    fn typos_get_a_suggestion() {
        let known = vec![
            "boj_7682".to_owned(),
            "boj_2615".to_owned(),
            "swea_11545".to_owned(),
        ];
        assert_eq!(closest("boj_7862", &known).as_deref(), Some("boj_7682"));
        assert_eq!(closest("swea11545", &known).as_deref(), Some("swea_11545"));
        assert_eq!(closest("kattis_hello", &known), None);
    }

    #[test]
    fn problems_are_named_by_id_or_by_any_path_to_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "problems/p/tests/1.in");
        touch(dir.path(), "problems/p/tests/1.out");
        touch(dir.path(), "solutions/p.rs");
        let repository = Repository::find(dir.path()).unwrap();
        let p = repository.problems_dir().join("p");
        let tests = p.join("tests");
        for (argument, current) in [
            ("p", dir.path().to_path_buf()),
            ("p", tests.clone()),
            (".", p.clone()),
            ("./", p.clone()),
            ("..", tests.clone()),
            ("../../p", tests.clone()),
            ("problems/p", repository.root.clone()),
        ] {
            let found = repository.resolve(Path::new(argument), &current);
            assert_eq!(found.unwrap(), p, "`{argument}` from {}", current.display());
        }
        let absolute = repository.resolve(&p, Path::new("/")).unwrap();
        assert_eq!(absolute, p);
        let not_a_problem = repository.resolve(Path::new("solutions"), &repository.root);
        assert!(not_a_problem
            .unwrap_err()
            .to_string()
            .starts_with("solutions: not a problem folder"));
    }

    #[test]
    fn root_is_found_from_any_folder_below_it() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "problems/p/tests/1.in");
        let repository = Repository::find(&dir.path().join("problems/p/tests")).unwrap();
        assert_eq!(repository.root, dir.path());
        assert!(Repository::find(Path::new("/")).is_err());
    }
}
