//! Reading a user's TOML file: errors name the file and line, and a bad value its key.

use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::error::{Error, Result};

pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|error| {
        let line = error.span().map(|span| line_at(text, span.start));
        Error::parse(path, line, error.message())
    })
}

/// The line (from 1) of byte `offset`.
pub fn line_at(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A TOML file being validated, for errors that name file, line and key.
pub struct Located<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl Located<'_> {
    pub fn error(&self, span: std::ops::Range<usize>, key: &str, message: &str) -> Error {
        let line = line_at(self.text, span.start);
        Error::parse(self.path, Some(line), format!("`{key}` {message}"))
    }

    pub fn in_range(
        &self,
        value: &Spanned<u64>,
        key: &str,
        range: &std::ops::RangeInclusive<u64>,
    ) -> Result<u64> {
        let number = *value.get_ref();
        if range.contains(&number) {
            return Ok(number);
        }
        Err(self.error(
            value.span(),
            key,
            &format!(
                "= {number} is out of range: expected {} to {}",
                range.start(),
                range.end()
            ),
        ))
    }

    /// `dir/relative` when it stays inside the problem folder `dir`.
    pub fn inside(&self, dir: &Path, relative: &Spanned<String>, key: &str) -> Result<PathBuf> {
        crate::problem::confine::inside(dir, relative.get_ref())
            .map_err(|reason| self.error(relative.span(), key, &reason.to_string()))
    }
}
