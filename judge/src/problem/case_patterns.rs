//! The `--case` patterns (and a subtask's).

use crate::error::{Error, Result};

/// The `--case` patterns: globs over case names where `*` is any text (`/` included) and
/// `?` one character. A pattern also selects every case below a folder it names (`sample`).
#[derive(Debug, Default)]
pub struct CasePatterns(Vec<String>);

impl CasePatterns {
    /// An empty pattern is a usage error.
    pub fn new(patterns: &[String]) -> Result<CasePatterns> {
        if patterns.iter().any(|pattern| pattern.is_empty()) {
            return Err(Error::usage("--case needs a pattern, like `sample/*`"));
        }
        Ok(CasePatterns(patterns.to_vec()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// No pattern selects every case.
    pub fn matches(&self, name: &str) -> bool {
        let folders = name.match_indices('/').map(|(end, _)| &name[..end]);
        let mut candidates = std::iter::once(name).chain(folders);
        self.0.is_empty()
            || candidates.any(|candidate| {
                self.0
                    .iter()
                    .any(|pattern| glob(pattern.as_bytes(), candidate.as_bytes()))
            })
    }

    /// For a message: `` `a` or `b` ``.
    pub fn describe(&self) -> String {
        let quoted: Vec<String> = self.0.iter().map(|p| format!("`{p}`")).collect();
        quoted.join(" or ")
    }
}

/// On a mismatch after a `*`, the star takes one more byte: linear enough for case names.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((star_p, star_t)) => {
                    star = Some((star_p, star_t + 1));
                    p = star_p + 1;
                    t = star_t + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_patterns_are_globs_over_names_and_their_folders() {
        let patterns = CasePatterns::new(&["sample/*".into(), "random/mixed-?".into()]).unwrap();
        assert!(patterns.matches("sample/1"));
        assert!(patterns.matches("random/mixed-2"));
        assert!(!patterns.matches("random/mixed-10"));
        assert!(!patterns.matches("exhaustive/sample"));
        let folder = CasePatterns::new(&["random".into()]).unwrap();
        assert!(folder.matches("random/a/b") && !folder.matches("randomly/1"));
        let star = CasePatterns::new(&["*-2*".into()]).unwrap();
        assert!(star.matches("random/mixed-2") && star.matches("a-2-b") && !star.matches("a-3"));
        assert!(CasePatterns::new(&[]).unwrap().matches("anything"));
        assert!(CasePatterns::new(&["".into()]).is_err());
    }
}
