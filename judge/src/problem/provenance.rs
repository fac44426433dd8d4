//! `provenance.toml`: for every case the judge wrote, the generator invocation and reference
//! (with content hashes) that produced it, and the hashes of the files written.
//!
//! The hashes tell a file the judge wrote from one a user wrote or edited since: only the
//! former may ever be rewritten or removed. A case name leading out of the problem folder is
//! refused with its line, before anything is touched.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::confine::PathFault;
use super::layout::{PROVENANCE_FILE, TESTS_DIR};
use crate::error::{if_exists, Error, Result};
use crate::problem::{line_at, parse_toml};

const HEADER: &str = "# ProvenanceToml by `judge gen`, `judge add --from-reference` and `judge bless`: where each\n\
                      # case's files came from. Do not edit; `judge list --provenance` shows it.\n\n";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// By case name below `tests/`.
    pub cases: BTreeMap<String, Origin>,
}

/// The file as read, with each case name's place for errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvenanceToml {
    #[serde(default)]
    cases: BTreeMap<toml::Spanned<String>, Origin>,
}

/// Where one case's files came from; hashes are of contents as run or written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// `None` for a given input.
    pub generator: Option<String>,
    pub generator_hash: Option<String>,
    pub args: Option<String>,
    /// How an input cut down from a generated one (`judge stress`) was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_from: Option<String>,
    pub input_hash: String,
    /// Produced the expected output.
    pub reference: String,
    pub reference_hash: String,
    pub output_hash: String,
}

impl Origin {
    /// Not written by hand, nor added.
    pub fn is_generated(&self) -> bool {
        self.generator.is_some()
    }

    /// One line for `judge list --provenance`.
    pub fn describe(&self) -> String {
        let input = match (&self.generator, &self.args) {
            (Some(generator), Some(args)) => format!(
                "input: {generator} {args} ({})",
                self.generator_hash.as_deref().unwrap_or("?")
            ),
            _ => match &self.derived_from {
                Some(how) => format!("input: {how}"),
                None => "input: given".to_owned(),
            },
        };
        format!(
            "{input}; output: {} ({})",
            self.reference, self.reference_hash
        )
    }
}

impl Provenance {
    /// A missing file means nothing recorded.
    pub fn load(problem_dir: &Path) -> Result<Provenance> {
        let path = problem_dir.join(PROVENANCE_FILE);
        match if_exists(&path, std::fs::read_to_string)? {
            Some(text) => Provenance::parse(problem_dir, &text),
            None => Ok(Provenance::default()),
        }
    }

    pub fn parse(problem_dir: &Path, text: &str) -> Result<Provenance> {
        let path = problem_dir.join(PROVENANCE_FILE);
        let written: ProvenanceToml = parse_toml(&path, text)?;
        let mut cases = BTreeMap::new();
        for (name, origin) in written.cases {
            let line = line_at(text, name.span().start);
            let name = name.into_inner();
            case_file(problem_dir, &name, "in")
                .map_err(|reason| Error::parse(&path, Some(line), format!("case {reason}")))?;
            cases.insert(name, origin);
        }
        Ok(Provenance { cases })
    }

    pub fn to_text(&self) -> String {
        // Strings and maps of strings always serialise.
        let body = toml::to_string(self).unwrap_or_default();
        format!("{HEADER}{body}")
    }
}

/// `tests/NAME.EXTENSION`, when `name` is relative (`tests/` + `/etc/x` would hide an
/// absolute one), has no empty, `.` or `..` part, and stays inside the problem folder.
pub fn case_file(
    problem_dir: &Path,
    name: &str,
    extension: &str,
) -> Result<std::path::PathBuf, PathFault> {
    crate::problem::confine::relative(name)?;
    let plain = name
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != "..");
    if !plain {
        return Err(PathFault::NotACaseName(name.to_owned()));
    }
    crate::problem::confine::inside(problem_dir, &format!("{TESTS_DIR}/{name}.{extension}"))
}

pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..32].to_owned()
}
