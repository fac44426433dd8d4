//! `judge new --from-polygon PACKAGE`: a problem folder made from a Polygon package (limits,
//! file I/O, every test, its checker and interactor with `testlib.h`, its main solution),
//! appearing whole or not at all.

use std::path::Path;

use super::import::toml_string;
use crate::atomic_write::{self, Replace};
use crate::error::{Error, Result};
use crate::problem::layout::{METADATA_FILE, POLYGON_FILES_DIR, TESTS_DIR};
use crate::problem::polygon;
use crate::problem::Repository;

/// What `judge new --from-polygon` made, and what of the package it did not carry over.
pub struct FromPolygon {
    pub id: String,
    pub files: usize,
    pub left_out: Vec<&'static str>,
}

/// A package folder's name as a problem id: `Attack-Plan` is `attack_plan`.
fn id_of(folder: &str) -> String {
    (folder.chars())
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_lowercase(),
            false => '_',
        })
        .collect()
}

/// The start of the new problem's `problem.toml`: where it came from, its name, judge,
/// limits and file I/O.
fn problem_toml(package: &Path, problem: &crate::problem::Problem) -> String {
    let mut toml = format!(
        "# Made by `judge new --from-polygon` from {}\nname = {}\nprofile = \"codeforces\"\n\
         time_limit_ms = {}\nmemory_limit_mib = {}\n",
        package.display(),
        toml_string(&problem.name),
        problem.limits.cpu_time.as_millis(),
        problem.limits.memory_bytes.div_ceil(1 << 20)
    );
    let files = [
        ("input_file", &problem.files.input),
        ("output_file", &problem.files.output),
    ];
    for (key, name) in files {
        if let Some(name) = name {
            toml.push_str(&format!("{key} = {}\n", toml_string(name)));
        }
    }
    toml
}

/// Makes `problems/<id>/` from `package`; `id` defaults to the folder's name (`id_of`).
pub fn from_polygon(
    repository: &Repository,
    package: &Path,
    id: Option<&str>,
) -> Result<FromPolygon> {
    let package = std::path::absolute(package).map_err(|error| Error::io(package, error))?;
    let folder = package.file_name().unwrap_or_default().to_string_lossy();
    let id = match id {
        Some(id) => id.to_owned(),
        None => id_of(&folder),
    };
    let _signals = crate::runner::interrupt::Deferred::new();
    let problem = polygon::load_package(&package, id.clone())?;
    if (problem.checker.as_ref()).is_some_and(|spec| spec.mode.twice.is_some()) {
        return Err(Error::usage(format!(
            "{}: a run-twice package has no counterpart in problem.toml, which runs a solution              once; judge it where it lies (judge run PACKAGE)",
            package.display()
        )));
    }
    let (dir, staging) = super::scaffold::new_problem_folder(repository, &id)?;
    let files = fill(&staging, &package, &problem)?;
    // The commit point: the problem appears whole. Never over a folder made meanwhile.
    atomic_write::place(&staging, &dir, Replace::No)?;
    let mut left_out = vec![
        "the other solutions and their tags (judge verify PACKAGE checks them)",
        "the generators and validators",
    ];
    if problem.scoring.is_some() {
        left_out.push("groups and points (subtasks here have no dependencies or each-test points)");
    }
    Ok(FromPolygon {
        id,
        files,
        left_out,
    })
}

/// Writes the new problem's files into `staging`: its `problem.toml`, the package's main
/// solution, checker, interactor and `testlib.h`, and every test as a case. How many.
fn fill(staging: &Path, package: &Path, problem: &crate::problem::Problem) -> Result<usize> {
    let mut files = 0;
    let mut copy = |from: &Path, to: &str| -> Result<()> {
        let to = staging.join(to);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|error| Error::io(parent, error))?;
        }
        std::fs::copy(from, &to).map_err(|error| Error::io(from, error))?;
        files += 1;
        Ok(())
    };
    let named = |stem: &str, source: &Path| match source.extension() {
        Some(extension) => format!("{stem}.{}", extension.to_string_lossy()),
        None => stem.to_owned(),
    };
    let mut toml = problem_toml(package, problem);
    if problem.solution.is_file() {
        let main = named("main", &problem.solution);
        copy(&problem.solution, &main)?;
        toml.push_str(&format!("solution = {}\n", toml_string(&main)));
    }
    let (checker, interactor) = match &problem.tout_checker {
        Some(checker) => (Some(checker), problem.checker.as_ref()),
        None => (problem.checker.as_ref(), None),
    };
    for (key, spec) in [("checker", checker), ("interactor", interactor)] {
        if let Some(spec) = spec {
            let file = named(key, &spec.source);
            copy(&spec.source, &file)?;
            toml.push_str(&format!("{key} = {}\n", toml_string(&file)));
        }
    }
    let testlib = package.join(POLYGON_FILES_DIR).join("testlib.h");
    if testlib.is_file() {
        copy(&testlib, "testlib.h")?;
    }
    for case in &problem.cases {
        copy(&case.input, &format!("{TESTS_DIR}/{}.in", case.name))?;
        copy(&case.expected, &format!("{TESTS_DIR}/{}.out", case.name))?;
    }
    std::fs::write(staging.join(METADATA_FILE), toml)
        .map_err(|error| Error::io(staging.join(METADATA_FILE), error))?;
    Ok(files + 1)
}
