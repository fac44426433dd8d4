//! Where each expected output came from: `problems/<id>/provenance.toml` records, for every
//! case the judge wrote, the generator invocation and the reference (path and content hash)
//! that produced it, and the hashes of the files written.
//!
//! The hashes also tell a file the judge wrote from one a user wrote or edited since: only
//! the former may ever be rewritten or removed. A case name is a path below `tests/`: one
//! that would lead out of the problem folder is refused with its line, before anything is
//! touched.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::confine::PathFault;
use super::layout::{PROVENANCE_FILE, TESTS_DIR};
use crate::error::{Error, Result};
use crate::problem::toml_file::{line_at, parse_toml};

const HEADER: &str = "# ProvenanceToml by `judge gen`, `judge add --from-reference` and `judge bless`: where each\n\
                      # case's files came from. Do not edit; `judge list --provenance` shows it.\n\n";

/// The provenance of every case the judge wrote, by case name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// Each written case (its name below `tests/`) with where it came from.
    pub cases: BTreeMap<String, Origin>,
}

/// The file as read, with where each case name is, to name its line in an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvenanceToml {
    #[serde(default)]
    cases: BTreeMap<toml::Spanned<String>, Origin>,
}

/// Where one case's files came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The generator and its arguments, for a generated input; none for a given input.
    pub generator: Option<String>,
    /// The generator's content hash when it was run.
    pub generator_hash: Option<String>,
    /// The generator's arguments.
    pub args: Option<String>,
    /// For an input cut down from a generated one (`judge stress`): how it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_from: Option<String>,
    /// The content hash of the input as written.
    pub input_hash: String,
    /// The reference that produced the expected output.
    pub reference: String,
    /// The reference's content hash when it was run.
    pub reference_hash: String,
    /// The content hash of the expected output as written.
    pub output_hash: String,
}

impl Origin {
    /// Whether the case came from the generator (not written by hand, nor added).
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
    /// Reads `problem_dir/provenance.toml` (none: nothing recorded). Every case name must
    /// be a path that stays inside the problem folder.
    pub fn load(problem_dir: &Path) -> Result<Provenance> {
        let path = problem_dir.join(PROVENANCE_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Provenance::parse(problem_dir, &text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Provenance::default()),
            Err(error) => Err(Error::io(&path, error)),
        }
    }

    /// The provenance from the text of `problem_dir/provenance.toml`.
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

    /// The file's text, as `save` would write it.
    pub fn to_text(&self) -> String {
        // Strings and maps of strings always serialise.
        let body = toml::to_string(self).unwrap_or_default();
        format!("{HEADER}{body}")
    }
}

/// The file `tests/NAME.EXTENSION` of a case, when `name` keeps it inside the problem folder.
/// The name itself must be relative (`tests/` + `/etc/x` would hide an absolute one) and
/// plain: `a/b`, without empty, `.` or `..` parts.
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

/// The content hash recorded for files and programs.
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..32].to_owned()
}
