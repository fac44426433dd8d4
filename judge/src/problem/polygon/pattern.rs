//! Polygon's path patterns (`tests/%02d`, `tests/%02d.a`): one `%`, then `d` or `0`, a
//! width and `d`; the test's number, padded with zeros to that width, takes its place.

use std::path::{Component, Path};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PathPattern {
    before: String,
    width: usize,
    after: String,
}

impl PathPattern {
    pub(super) fn parse(text: &str) -> Result<PathPattern, String> {
        let text = text.trim();
        let shown = || format!("path pattern `{text}`");
        let Some((before, rest)) = text.split_once('%') else {
            return Err(format!("{} has no `%d` for the test's number", shown()));
        };
        let (digits, after) = match rest.find('d') {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => return Err(format!("{} has no `%d` for the test's number", shown())),
        };
        let width = match digits {
            "" => 1,
            padded if padded.starts_with('0') && padded.len() > 1 => padded[1..]
                .parse::<usize>()
                .ok()
                .filter(|width| (1..=9).contains(width))
                .ok_or_else(|| {
                    format!("{}: `%{digits}d` is not a width Polygon writes", shown())
                })?,
            _ => {
                return Err(format!(
                    "{}: only `%d` or `%0Nd` (zero-padded) is a test's number",
                    shown()
                ))
            }
        };
        if after.contains('%') {
            return Err(format!("{} has more than one `%`", shown()));
        }
        let inside = Path::new(text)
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
        if !inside {
            return Err(format!("{} leaves the package folder", shown()));
        }
        Ok(PathPattern {
            before: before.to_owned(),
            width,
            after: after.to_owned(),
        })
    }

    /// The test's number as the pattern writes it: `01`.
    pub(super) fn number(&self, test: usize) -> String {
        format!("{test:0width$}", width = self.width)
    }

    /// Relative to the package.
    pub(super) fn path(&self, test: usize) -> String {
        format!("{}{}{}", self.before, self.number(test), self.after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_pad_the_number_as_printf_does() {
        let answers = PathPattern::parse("tests/%02d.a").unwrap();
        assert_eq!(answers.path(1), "tests/01.a");
        assert_eq!(answers.path(123), "tests/123.a");
        assert_eq!(PathPattern::parse("tests/%d").unwrap().path(7), "tests/7");
        assert_eq!(PathPattern::parse("t/%03d").unwrap().number(5), "005");
    }

    #[test]
    fn a_pattern_without_one_number_is_refused() {
        for (pattern, said) in [
            ("tests/01", "no `%d`"),
            ("tests/%s", "no `%d`"),
            ("tests/%2d", "only `%d` or `%0Nd`"),
            ("tests/%02d.%d", "more than one"),
            ("../tests/%02d", "leaves the package"),
            ("/tests/%02d", "leaves the package"),
        ] {
            let error = PathPattern::parse(pattern).unwrap_err();
            assert!(error.contains(said), "{pattern}: {error}");
        }
    }
}
