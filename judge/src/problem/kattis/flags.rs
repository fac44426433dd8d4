//! The default output validator's flags (`validator_flags`, a test group's
//! `output_validator_args`): case and space sensitivity, float tolerances.

use std::path::Path;

use crate::compare::KattisFlags;
use crate::error::{Error, Result};

pub(super) fn parse(flags: &[String], path: &Path) -> Result<KattisFlags> {
    parse_onto(KattisFlags::default(), flags, path)
}

/// `flags` over those `given` (the problem's, then a test group's).
pub(super) fn parse_onto(given: KattisFlags, flags: &[String], path: &Path) -> Result<KattisFlags> {
    let mut parsed = given;
    let (mut abs, mut rel) = match given.tolerance {
        Some((abs, rel)) => (Some(abs), Some(rel)),
        None => (None, None),
    };
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut value = || -> Result<f64> {
            words
                .next()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    Error::parse(
                        path,
                        None,
                        format!("validator flag `{flag}` needs a non-negative number"),
                    )
                })
        };
        match flag.as_str() {
            "case_sensitive" => parsed.case_sensitive = true,
            "space_change_sensitive" => parsed.space_change_sensitive = true,
            "float_tolerance" => {
                let tolerance = value()?;
                (abs, rel) = (Some(tolerance), Some(tolerance));
            }
            "float_absolute_tolerance" => abs = Some(value()?),
            "float_relative_tolerance" => rel = Some(value()?),
            other => {
                return Err(Error::parse(
                    path,
                    None,
                    format!("unknown validator flag `{other}`"),
                ))
            }
        }
    }
    if abs.is_some() || rel.is_some() {
        parsed.tolerance = Some((abs.unwrap_or(0.0), rel.unwrap_or(0.0)));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Result<KattisFlags> {
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        parse(&words, Path::new("problem.yaml"))
    }

    #[test]
    fn validator_flags_map_to_the_default_validator() {
        assert_eq!(flags("").unwrap(), KattisFlags::default());
        let parsed = flags("case_sensitive float_tolerance 1e-6").unwrap();
        assert!(parsed.case_sensitive && !parsed.space_change_sensitive);
        assert_eq!(parsed.tolerance, Some((1e-6, 1e-6)));
        assert_eq!(
            flags("float_relative_tolerance 0.01").unwrap().tolerance,
            Some((0.0, 0.01))
        );
        assert!(flags("float_tolerance")
            .unwrap_err()
            .to_string()
            .contains("needs a non-negative number"));
        assert!(flags("ignore_everything")
            .unwrap_err()
            .to_string()
            .contains("unknown validator flag `ignore_everything`"));
    }
}
