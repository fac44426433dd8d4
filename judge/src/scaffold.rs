//! `judge new`: a new problem folder and solution file from templates that already work
//! together (a placeholder task: print the sum of the input's integers), so that `judge add
//! --from-reference` and `judge run` work before any file is edited by hand.

use crate::discover::{Repository, SOLUTIONS_DIR};
use crate::error::{Error, Result};
use crate::problem::METADATA_FILE;
use crate::profile::Profile;
use crate::write::{create_new, write_atomically};

const STATEMENT: &str = "# {id}\n\n\
Write the task and its input and output format here, in your own words.\n\n\
Until then the templates solve a placeholder task: print the sum of all integers in the input.\n";

const REFERENCE: &str = r#"//! Reference for {id}: a brute force written to be obviously right, not fast. Expected
//! outputs come from here, never from the solution. (Template: sums the input's integers.)

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut sum: i128 = 0;
    for token in input.split_whitespace() {
        sum += token.parse::<i128>().unwrap();
    }
    println!("{sum}");
}
"#;

const GENERATOR: &str = r#"//! Generator for {id}: `gen SEED [count=N]` prints one input; the same arguments always
//! give the same bytes. (Template: N integers.)

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut state: u64 = args.first().and_then(|seed| seed.parse().ok()).unwrap_or_else(|| {
        eprintln!("usage: gen SEED [count=N]");
        std::process::exit(2);
    });
    let mut count = 10;
    for arg in &args[1..] {
        match arg.split_once('=') {
            Some(("count", value)) => count = value.parse().unwrap_or(10),
            _ => {
                eprintln!("unknown argument `{arg}`");
                std::process::exit(2);
            }
        }
    }
    // splitmix64
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let numbers: Vec<String> = (0..count).map(|_| (next() % 2001) as i64 - 1000).map(|n| n.to_string()).collect();
    println!("{}", numbers.join(" "));
}
"#;

const RECIPE: &str = r#"# `judge gen` makes tests/<group>/<name>.in from `gen <args>` and the .out from reference.rs,
# one case per seed; `{seed}` is replaced by the seed.
[[generate]]
group = "random"
name = "r-{seed}"
args = "{seed} count=10"
seeds = [1, 5]

# `judge stress` runs `gen` with fresh seeds and `{size}` = size.
[stress]
args = "{seed} count={size}"
size = 10
layout = "single"
"#;

const SOLUTION: &str = r#"use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let sum: i64 = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap()).sum();
    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{sum}").unwrap();
}
"#;

/// What `judge new` made.
#[derive(Debug)]
pub struct Scaffolded {
    pub files: Vec<String>,
    /// `solutions/Cargo.toml` got a `[[bin]]` entry for the new solution.
    pub registered_bin: bool,
}

/// Creates `problems/<id>/` and `solutions/<id>.rs`; refuses if any of them exists.
pub fn new_problem(repository: &Repository, id: &str, profile: Profile) -> Result<Scaffolded> {
    let valid = !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !valid {
        return Err(Error::usage(format!(
            "problem id `{id}`: use lowercase letters, digits and `_` (like `boj_1000`)"
        )));
    }
    let dir = repository.problems_dir().join(id);
    let solution = repository.root.join(SOLUTIONS_DIR).join(format!("{id}.rs"));
    let manifest = repository.root.join(SOLUTIONS_DIR).join("Cargo.toml");
    let manifest_text = match std::fs::read_to_string(&manifest) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(Error::io(&manifest, error)),
    };
    for path in [&dir, &solution] {
        if path.exists() {
            return Err(Error::invalid(path, "already exists: refusing to touch it"));
        }
    }
    if manifest_text
        .as_deref()
        .is_some_and(|text| text.contains(&format!("name = \"{id}\"")))
    {
        return Err(Error::invalid(
            &manifest,
            format!("already has a [[bin]] named `{id}`"),
        ));
    }

    std::fs::create_dir_all(repository.problems_dir())
        .map_err(|e| Error::io(repository.problems_dir(), e))?;
    // create_dir fails if another process made the folder meanwhile: never two owners.
    std::fs::create_dir(&dir).map_err(|error| Error::io(&dir, error))?;
    let limits = profile.limits();
    let metadata = format!(
        "name = \"{id}\"\n# source = \"https://...\"\nprofile = \"{profile}\"\ntime_limit_ms = {}\nmemory_limit_mib = {}\ncompare = \"{}\"\n",
        limits.cpu_time.as_millis(),
        limits.memory_bytes >> 20,
        profile.compare().name(),
    );
    let fill = |template: &str| template.replace("{id}", id);
    let files = [
        (dir.join(METADATA_FILE), metadata),
        (dir.join("statement.md"), fill(STATEMENT)),
        (dir.join(crate::corpus::REFERENCE_FILE), fill(REFERENCE)),
        (dir.join(crate::corpus::GENERATOR_FILE), fill(GENERATOR)),
        (dir.join(crate::recipe::RECIPE_FILE), RECIPE.to_owned()),
        (solution.clone(), SOLUTION.to_owned()),
    ];
    std::fs::create_dir_all(dir.join("tests/sample"))
        .map_err(|e| Error::io(dir.join("tests/sample"), e))?;
    let mut made = Vec::new();
    for (path, contents) in &files {
        create_new(path, contents.as_bytes())?;
        made.push(repository.relative(path).display().to_string());
    }
    let registered_bin = match manifest_text {
        Some(mut text) => {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("\n[[bin]]\nname = \"{id}\"\npath = \"{id}.rs\"\n"));
            write_atomically(&manifest, text.as_bytes())?;
            true
        }
        None => false,
    };
    Ok(Scaffolded {
        files: made,
        registered_bin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaffolds_everything_and_refuses_a_second_time() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("problems")).unwrap();
        std::fs::create_dir_all(root.path().join("solutions")).unwrap();
        std::fs::write(
            root.path().join("solutions/Cargo.toml"),
            "[package]\nname = \"solutions\"\n",
        )
        .unwrap();
        let repository = Repository {
            root: root.path().to_path_buf(),
        };

        let made = new_problem(&repository, "boj_1000", Profile::Boj).unwrap();
        assert_eq!(made.files.len(), 6);
        assert!(made.registered_bin);
        let manifest = std::fs::read_to_string(root.path().join("solutions/Cargo.toml")).unwrap();
        assert!(
            manifest.starts_with("[package]\nname = \"solutions\"\n"),
            "the user's lines are kept"
        );
        assert!(manifest.ends_with("[[bin]]\nname = \"boj_1000\"\npath = \"boj_1000.rs\"\n"));
        let metadata =
            std::fs::read_to_string(root.path().join("problems/boj_1000/problem.toml")).unwrap();
        assert!(
            metadata.contains("profile = \"boj\"\ntime_limit_ms = 1000\nmemory_limit_mib = 256\n")
        );

        std::fs::write(root.path().join("solutions/boj_1000.rs"), "// mine\n").unwrap();
        let error = new_problem(&repository, "boj_1000", Profile::Boj)
            .unwrap_err()
            .to_string();
        assert!(error.contains("already exists"), "{error}");
        assert_eq!(
            std::fs::read_to_string(root.path().join("solutions/boj_1000.rs")).unwrap(),
            "// mine\n"
        );
        assert!(new_problem(&repository, "Bad-Name", Profile::Boj).is_err());
    }
}
