//! Where each expected output came from: `problems/<id>/provenance.toml` records, for every
//! case the judge wrote, the generator invocation and the reference (path and content hash)
//! that produced it, and the hashes of the files written.
//!
//! The hashes also tell a file the judge wrote from one a user wrote or edited since: only
//! the former may ever be rewritten or removed.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::problem::parse_toml;
use crate::write::write_atomically;

pub const PROVENANCE_FILE: &str = "provenance.toml";

const HEADER: &str = "# Written by `judge gen`, `judge add --from-reference` and `judge bless`: where each\n\
                      # case's files came from. Do not edit; `judge list --provenance` shows it.\n\n";

/// The provenance of every case the judge wrote, by case name.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    #[serde(default)]
    pub cases: BTreeMap<String, Origin>,
}

/// Where one case's files came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The generator and its arguments, for a generated input; none for a given input.
    pub generator: Option<String>,
    pub generator_hash: Option<String>,
    pub args: Option<String>,
    /// For an input cut down from a generated one (`judge stress`): how it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_from: Option<String>,
    pub input_hash: String,
    /// The reference that produced the expected output.
    pub reference: String,
    pub reference_hash: String,
    pub output_hash: String,
}

impl Origin {
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
    pub fn load(problem_dir: &Path) -> Result<Provenance> {
        let path = problem_dir.join(PROVENANCE_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => parse_toml(&path, &text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Provenance::default()),
            Err(error) => Err(Error::io(&path, error)),
        }
    }

    pub fn save(&self, problem_dir: &Path) -> Result<()> {
        let path = problem_dir.join(PROVENANCE_FILE);
        let body = toml::to_string(self)
            .map_err(|error| Error::invalid(&path, format!("cannot write provenance: {error}")))?;
        write_atomically(&path, format!("{HEADER}{body}").as_bytes())
    }
}

/// The content hash recorded for files and programs.
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..32].to_owned()
}
