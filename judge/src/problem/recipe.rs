//! `generators.toml`: how a problem's cases are generated (each entry a generator
//! invocation over a range of seeds) and how it is stressed. Validated when read: every case
//! lands inside `tests/`, and every number is within its documented range (docs/problems.md,
//! "Growing the corpus safely").

use std::ops::RangeInclusive;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::layout::RECIPE_FILE;
use crate::error::{if_exists, Error, Result};
use crate::problem::provenance::case_file;
use crate::problem::{parse_toml, Located};

/// Per `[[generate]]` entry: more would be a typo, not a corpus.
pub const MAX_SEEDS_PER_ENTRY: u64 = 10_000;
/// `[stress] size`: the generator's size argument, which minimising counts down from.
pub const STRESS_SIZE: RangeInclusive<u64> = 1..=1_000_000;
/// `[stress] lines_per_case`.
pub const LINES_PER_CASE: RangeInclusive<u64> = 1..=10_000;

#[derive(Debug, Clone, Default)]
pub struct Recipe {
    generate: Vec<RecipeEntry>,
    pub stress: Option<StressRecipe>,
}

/// The file as written, with where each value is.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecipeToml {
    #[serde(default)]
    generate: Vec<EntryToml>,
    stress: Option<StressToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryToml {
    group: Spanned<String>,
    name: Spanned<String>,
    args: String,
    seeds: Option<Spanned<[u64; 2]>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StressToml {
    args: String,
    size: Spanned<u64>,
    #[serde(default)]
    layout: Layout,
    terminator: Option<String>,
    lines_per_case: Option<Spanned<u64>>,
}

/// One `[[generate]]` entry: a case per seed; `{seed}` in `name` and `args` is the seed.
#[derive(Debug, Clone)]
struct RecipeEntry {
    group: String,
    name: String,
    args: String,
    /// Inclusive; without it the entry is one case.
    seeds: Option<[u64; 2]>,
}

/// `[stress]`: how `judge stress` drives the generator.
#[derive(Debug, Clone)]
pub struct StressRecipe {
    /// With `{seed}` and `{size}` filled in per run.
    pub args: String,
    /// The `{size}` of every run; a counterexample is shrunk below it.
    pub size: u64,
    /// So that a failing case can be cut out of an input.
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCase {
    /// Below `tests/`, without extension: `exhaustive/part-1`.
    pub name: String,
    /// The generator's.
    pub args: String,
}

impl Recipe {
    /// `None` when the problem has no recipe.
    pub fn load(dir: &Path) -> Result<Option<Recipe>> {
        let path = dir.join(RECIPE_FILE);
        let Some(text) = if_exists(&path, std::fs::read_to_string)? else {
            return Ok(None);
        };
        Recipe::parse(dir, &text).map(Some)
    }

    pub fn parse(dir: &Path, text: &str) -> Result<Recipe> {
        let path = dir.join(RECIPE_FILE);
        let written: RecipeToml = parse_toml(&path, text)?;
        let file = Located { path: &path, text };
        let stress = written
            .stress
            .map(|stress| validate_stress(stress, &file))
            .transpose()?;
        let generate = written
            .generate
            .into_iter()
            .map(|entry| validate_entry(entry, dir, &file))
            .collect::<Result<Vec<_>>>()?;
        let recipe = Recipe { generate, stress };
        let mut seen = std::collections::HashSet::new();
        for case in recipe.cases() {
            if !seen.insert(case.name.clone()) {
                return Err(Error::parse(
                    &path,
                    None,
                    format!("case `{}` is generated twice", case.name),
                ));
            }
        }
        Ok(recipe)
    }

    /// In recipe order.
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

fn validate_stress(stress: StressToml, file: &Located) -> Result<StressRecipe> {
    let size = file.in_range(&stress.size, "size", &STRESS_SIZE)?;
    let lines_per_case = match &stress.lines_per_case {
        Some(lines) => Some(file.in_range(lines, "lines_per_case", &LINES_PER_CASE)? as usize),
        None => None,
    };
    match stress.layout {
        Layout::Terminated if stress.terminator.is_none() => Err(Error::parse(
            file.path,
            None,
            "[stress] layout \"terminated\" needs `terminator`",
        )),
        Layout::Counted if lines_per_case.is_none() => Err(Error::parse(
            file.path,
            None,
            "[stress] layout \"counted\" needs a positive `lines_per_case`",
        )),
        _ => Ok(StressRecipe {
            args: stress.args,
            size,
            layout: stress.layout,
            terminator: stress.terminator,
            lines_per_case,
        }),
    }
}

fn validate_entry(entry: EntryToml, dir: &Path, file: &Located) -> Result<RecipeEntry> {
    let seeds = match &entry.seeds {
        Some(seeds) => {
            let [first, last] = *seeds.get_ref();
            // u128: [0, 2^64 - 1] holds 2^64 seeds.
            let count = (last >= first).then(|| u128::from(last - first) + 1);
            match count {
                None => {
                    return Err(file.error(
                        seeds.span(),
                        "seeds",
                        &format!("[{first}, {last}] is an empty range"),
                    ))
                }
                Some(count) if count > u128::from(MAX_SEEDS_PER_ENTRY) => {
                    return Err(file.error(
                        seeds.span(),
                        "seeds",
                        &format!(
                            "[{first}, {last}] makes {count} cases: at most {MAX_SEEDS_PER_ENTRY} per entry"
                        ),
                    ))
                }
                Some(_) => Some([first, last]),
            }
        }
        None if entry.name.get_ref().contains("{seed}") || entry.args.contains("{seed}") => {
            return Err(file.error(
                entry.name.span(),
                "name",
                &format!(
                    "`{}` uses {{seed}} but the entry has no `seeds`",
                    entry.name.get_ref()
                ),
            ))
        }
        None => None,
    };
    // A seed is digits only: one stand-in checks every case name of the entry.
    let group = entry.group.get_ref();
    let name = entry.name.get_ref().replace("{seed}", "0");
    for (key, value, relative) in [
        ("group", &entry.group, format!("{group}/x")),
        ("name", &entry.name, format!("{group}/{name}")),
    ] {
        if let Err(reason) = case_file(dir, &relative, "in") {
            // A group is checked as the folder of a case in it: said as it was written.
            let reason = reason.to_string();
            let said = match key {
                "group" => reason.replacen(&format!("`{relative}`"), &format!("`{group}`"), 1),
                _ => reason,
            };
            return Err(file.error(value.span(), key, &said));
        }
    }
    Ok(RecipeEntry {
        group: entry.group.into_inner(),
        name: entry.name.into_inner(),
        args: entry.args,
        seeds,
    })
}

/// As a shell splits plain words: generators' `KEY=VALUE` arguments need no quoting.
pub fn split_args(args: &str) -> Vec<String> {
    args.split_whitespace().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Recipe> {
        Recipe::parse(Path::new("problems/p"), text)
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
        assert!(message(entry("../x", "")).contains("line 3: `name` `g/../x` has `..`"));
        let group = "[[generate]]\ngroup = \"../x\"\nname = \"a\"\nargs = \"\"\n";
        let said = message(group.to_owned());
        assert!(said.contains("line 2: `group` `../x` has `..`"), "{said}");
        assert!(message(entry("a//b", "")).contains("line 3: `name` `g/a//b`: a case name"));
        assert!(message(entry("x-{seed}", "")).contains("uses {seed} but the entry has no `seeds`"));
        assert!(message(entry("x-{seed}", "seeds = [5, 1]\n"))
            .contains("line 5: `seeds` [5, 1] is an empty range"));
        assert!(
            message(entry("x-{seed}", "seeds = [0, 18446744073709551615]\n"))
                .contains("line 5: `seeds` [0, 18446744073709551615] makes")
        );
        assert!(message(entry("x-{seed}", "seeds = [1, 10001]\n"))
            .contains("makes 10001 cases: at most 10000 per entry"));
        assert!(parse(&entry("x-{seed}", "seeds = [1, 10000]\n")).is_ok());
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
