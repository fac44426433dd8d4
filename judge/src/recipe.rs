//! `generators.toml`: the recipe of a problem's generated cases (each entry a generator
//! invocation, over a range of seeds) and of its stress runs.

use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::problem::parse_toml;

pub const RECIPE_FILE: &str = "generators.toml";

/// The parsed recipe.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    #[serde(default)]
    generate: Vec<Entry>,
    /// How `judge stress` drives the generator.
    pub stress: Option<StressRecipe>,
}

/// One `[[generate]]` entry: a case per seed; `{seed}` in `name` and `args` is the seed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    group: String,
    name: String,
    args: String,
    /// Inclusive range; without it the entry is one case.
    seeds: Option<[u64; 2]>,
}

/// `[stress]`: generator arguments with `{seed}` and `{size}`, the size to stress with, and
/// how an input holds several cases (so that a counterexample can be cut down to one).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StressRecipe {
    pub args: String,
    pub size: u64,
    #[serde(default)]
    pub layout: Layout,
    /// For `layout = "terminated"`: the line that ends the input (`end`).
    pub terminator: Option<String>,
    /// For `layout = "counted"`: lines per case after the count line.
    pub lines_per_case: Option<usize>,
}

/// How an input file holds its cases; the output has one line per case in every layout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One case per input.
    #[default]
    Single,
    /// Each non-blank line is a case.
    Lines,
    /// Each non-blank line is a case, up to a terminator line.
    Terminated,
    /// A count on the first line, then that many blocks of `lines_per_case` non-blank lines.
    Counted,
}

/// One generated case: where it goes and the generator's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCase {
    /// Below `tests/`, without extension: `exhaustive/part-1`.
    pub name: String,
    pub args: String,
}

impl Recipe {
    /// Reads `dir/generators.toml`; `None` when the problem has none.
    pub fn load(dir: &Path) -> Result<Option<Recipe>> {
        let path = dir.join(RECIPE_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(Error::io(&path, error)),
        };
        let recipe: Recipe = parse_toml(&path, &text)?;
        recipe.validate(&path)?;
        Ok(Some(recipe))
    }

    fn validate(&self, path: &Path) -> Result<()> {
        if let Some(stress) = &self.stress {
            match stress.layout {
                Layout::Terminated if stress.terminator.is_none() => {
                    return Err(Error::invalid(
                        path,
                        "[stress] layout \"terminated\" needs `terminator`",
                    ))
                }
                Layout::Counted if stress.lines_per_case.unwrap_or(0) == 0 => {
                    return Err(Error::invalid(
                        path,
                        "[stress] layout \"counted\" needs a positive `lines_per_case`",
                    ))
                }
                _ => {}
            }
        }
        let mut seen = std::collections::HashSet::new();
        for case in self.cases() {
            let safe = case.name.split('/').all(|part| {
                !part.is_empty() && part != "." && part != ".." && !part.contains('\\')
            });
            if !safe {
                return Err(Error::invalid(
                    path,
                    format!(
                        "case name `{}` must be a relative path below tests/",
                        case.name
                    ),
                ));
            }
            if !seen.insert(case.name.clone()) {
                return Err(Error::invalid(
                    path,
                    format!("case `{}` is generated twice", case.name),
                ));
            }
        }
        for entry in &self.generate {
            if entry.seeds.is_none()
                && (entry.name.contains("{seed}") || entry.args.contains("{seed}"))
            {
                return Err(Error::invalid(
                    path,
                    format!("entry `{}` uses {{seed}} but has no `seeds`", entry.name),
                ));
            }
            if let Some([first, last]) = entry.seeds {
                if first > last {
                    return Err(Error::invalid(
                        path,
                        format!(
                            "entry `{}`: seeds [{first}, {last}] is an empty range",
                            entry.name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every case the recipe makes, in recipe order.
    pub fn cases(&self) -> Vec<PlannedCase> {
        let mut cases = Vec::new();
        for entry in &self.generate {
            let seeds: Vec<Option<u64>> = match entry.seeds {
                Some([first, last]) => (first..=last).map(Some).collect(),
                None => vec![None],
            };
            for seed in seeds {
                let fill = |text: &str| match seed {
                    Some(seed) => text.replace("{seed}", &seed.to_string()),
                    None => text.to_owned(),
                };
                cases.push(PlannedCase {
                    name: format!("{}/{}", entry.group, fill(&entry.name)),
                    args: fill(&entry.args),
                });
            }
        }
        cases
    }
}

/// Splits an argument string as a shell would for plain words (no quoting is needed by
/// generators' `KEY=VALUE` arguments).
pub fn split_args(args: &str) -> Vec<String> {
    args.split_whitespace().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Recipe> {
        let path = Path::new("problems/p/generators.toml");
        let recipe: Recipe = parse_toml(path, text)?;
        recipe.validate(path)?;
        Ok(recipe)
    }

    #[test]
    fn seeds_expand_into_one_case_each() {
        let recipe = parse(
            "[[generate]]\ngroup = \"random\"\nname = \"r-{seed}\"\nargs = \"{seed} n=5\"\nseeds = [3, 5]\n\
             [[generate]]\ngroup = \"edge\"\nname = \"one\"\nargs = \"1 kind=edge\"\n",
        )
        .unwrap();
        let cases: Vec<(String, String)> = recipe
            .cases()
            .into_iter()
            .map(|c| (c.name, c.args))
            .collect();
        assert_eq!(
            cases,
            [
                ("random/r-3".into(), "3 n=5".into()),
                ("random/r-4".into(), "4 n=5".into()),
                ("random/r-5".into(), "5 n=5".into()),
                ("edge/one".into(), "1 kind=edge".into()),
            ]
        );
    }

    #[test]
    fn bad_recipes_are_rejected_with_the_reason() {
        let entry = |name: &str, extra: &str| {
            format!("[[generate]]\ngroup = \"g\"\nname = \"{name}\"\nargs = \"1\"\n{extra}")
        };
        let message = |text: String| parse(&text).unwrap_err().to_string();
        assert!(message(entry("x", "") + &entry("x", "")).contains("case `g/x` is generated twice"));
        assert!(message(entry("../x", "")).contains("must be a relative path below tests/"));
        assert!(message(entry("x-{seed}", "")).contains("uses {seed} but has no `seeds`"));
        assert!(message(entry("x-{seed}", "seeds = [5, 1]\n")).contains("empty range"));
        assert!(message(entry("x", "colour = 1\n")).contains("line 5: unknown field `colour`"));
        assert!(
            message("[stress]\nargs = \"{seed}\"\nsize = 3\nlayout = \"counted\"\n".into())
                .contains("needs a positive `lines_per_case`")
        );
    }

    #[test]
    fn args_split_on_whitespace() {
        assert_eq!(
            split_args(" 7  kind=six\tdir=right "),
            ["7", "kind=six", "dir=right"]
        );
    }
}
