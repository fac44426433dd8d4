//! `judge gen`: the generated cases rebuilt from the recipe (`generators.toml`), in one
//! transaction. A case that is not as the judge wrote it (edited by hand, or hand-written at
//! a name the recipe uses) is reported and left alone; everything else is regenerated.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::transaction::{Session, Transaction};
use super::{
    build_tool, case_paths, group_of, in_parallel, on_disk, prebuild_tools, run_tool, OnDisk, Tool,
    Validator,
};
use crate::error::{CorpusFault, Error, Result};
use crate::problem::layout::{GENERATOR_FILE, JOURNAL_FILE, RECIPE_FILE, REFERENCE_FILE};
use crate::problem::provenance::{content_hash, Origin, Provenance};
use crate::problem::recipe::{split_args, PlannedCase, Recipe};
use crate::problem::Problem;
use crate::toolchain::compiler::Compiler;

/// What `judge gen` did, or with `check`, would do.
#[derive(Debug, Default)]
pub struct GenSummary {
    pub planned: usize,
    /// Cases written (with `check`: that differ from the recipe or are missing).
    pub written: Vec<String>,
    /// Of `written`, those that had no file at all (or only one of their two).
    pub missing: Vec<String>,
    /// Generated cases no longer in the recipe, removed (with `check`: to remove).
    pub removed: Vec<String>,
    /// Cases the recipe makes, or made, that are not as the judge wrote them: left alone.
    pub left: Vec<Left>,
    /// With `check`: a killed command's change is not completed yet (the next `gen` will).
    pub unfinished: bool,
}

impl GenSummary {
    /// Cases of the recipe already as it makes them.
    pub fn unchanged(&self) -> usize {
        let left = self
            .left
            .iter()
            .filter(|left| left.reason == EDITED)
            .count();
        self.planned.saturating_sub(self.written.len() + left)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    pub name: String,
    pub reason: &'static str,
}

const EDITED: &str = "not as `judge gen` wrote it (edited or written by hand)";
const STALE_EDITED: &str = "no longer in the recipe, but edited by hand";

/// Path, bytes, and the hash it was planned against (`None`: new).
type Write<'a> = (PathBuf, &'a [u8], Option<String>);

/// Rebuilds the generated cases from the recipe: runs the generator and the reference for
/// every case, then writes what changed and removes what the recipe no longer makes. With
/// `check`, writes nothing and reports what differs.
pub fn generate(
    problem: &Problem,
    compiler: &Compiler,
    jobs: usize,
    check: bool,
) -> Result<GenSummary> {
    // Before anything is read: an interrupted command's change is completed first.
    let session = if check {
        None
    } else {
        Some(Session::begin(&problem.dir)?)
    };
    let recipe = Recipe::load(&problem.dir)?
        .ok_or_else(|| Error::corpus(problem.dir.join(RECIPE_FILE), CorpusFault::NoRecipe))?;
    let planned = recipe.cases();
    let mut provenance = Provenance::load(&problem.dir)?;
    prebuild_tools(compiler, problem, Vec::new(), jobs);
    let generator = build_tool(compiler, problem, GENERATOR_FILE)?;
    let reference = build_tool(compiler, problem, REFERENCE_FILE)?;
    let validator = Validator::of(compiler, problem)?;
    let produced = in_parallel(jobs, &planned, |case| {
        let context = format!("`gen {}` ({})", case.args, case.name);
        let input = run_tool(&generator, &split_args(&case.args), b"", problem, &context)?;
        if let Some(validator) = &validator {
            validator.check(&input, problem, &context, group_of(&case.name))?;
        }
        let output = run_tool(&reference, &[], &input, problem, &context)?;
        Ok((input, output))
    })?;
    let mut summary = GenSummary {
        planned: planned.len(),
        ..GenSummary::default()
    };
    let tools = [&generator, &reference];
    let writes = plan_writes(
        problem,
        &planned,
        &produced,
        tools,
        &mut provenance,
        &mut summary,
    )?;
    let removals = plan_removals(problem, &planned, &provenance, &mut summary)?;
    for name in &summary.removed {
        provenance.cases.remove(name);
    }
    // Cases deleted by hand leave nothing to record.
    let written: BTreeSet<&str> = summary.written.iter().map(String::as_str).collect();
    provenance
        .cases
        .retain(|name, _| written.contains(name.as_str()) || case_paths(problem, name)[0].exists());
    let Some(session) = session else {
        summary.unfinished = problem.dir.join(JOURNAL_FILE).exists();
        return Ok(summary);
    };
    let mut transaction = Transaction::new(&session);
    for (path, bytes, before) in writes {
        transaction.write(&path, bytes, before)?;
    }
    for (path, hash) in removals {
        transaction.remove(&path, hash)?;
    }
    transaction.write_provenance(&problem.dir, &provenance)?;
    for path in transaction.commit()? {
        // Only a file changed between the plan and the commit: the lock keeps other judge
        // commands out, so a person did it.
        let name = path.display().to_string();
        summary.left.push(Left {
            name,
            reason: "changed while `judge gen` ran",
        });
    }
    Ok(summary)
}

/// The files of the recipe's cases that differ from what the generator and the reference
/// `[generator, reference]` produced, each case recorded in `provenance`; a case that is not
/// as the judge wrote it is left alone (and said so in `summary`).
fn plan_writes<'a>(
    problem: &Problem,
    planned: &[PlannedCase],
    produced: &'a [(Vec<u8>, Vec<u8>)],
    [generator, reference]: [&Tool; 2],
    provenance: &mut Provenance,
    summary: &mut GenSummary,
) -> Result<Vec<Write<'a>>> {
    let mut writes = Vec::new();
    for (case, (input, output)) in planned.iter().zip(produced) {
        let [input_path, output_path, answer_path] = case_paths(problem, &case.name);
        let recorded = provenance
            .cases
            .get(&case.name)
            .filter(|origin| origin.is_generated());
        let hashes = [
            recorded.map(|o| o.input_hash.clone()),
            recorded.map(|o| o.output_hash.clone()),
        ];
        let states = [
            on_disk(&input_path, Some(input), hashes[0].as_deref())?,
            on_disk(&output_path, Some(output), hashes[1].as_deref())?,
        ];
        if states.contains(&OnDisk::Foreign) || answer_path.symlink_metadata().is_ok() {
            summary.left.push(Left {
                name: case.name.clone(),
                reason: EDITED,
            });
            continue;
        }
        for (((path, bytes), state), recorded) in [(input_path, input), (output_path, output)]
            .into_iter()
            .zip(states)
            .zip(hashes)
        {
            match state {
                OnDisk::Same | OnDisk::Foreign => {}
                OnDisk::Ours => writes.push((path, bytes.as_slice(), recorded)),
                OnDisk::Missing => writes.push((path, bytes.as_slice(), None)),
            }
        }
        if states != [OnDisk::Same; 2] {
            summary.written.push(case.name.clone());
            if states.contains(&OnDisk::Missing) {
                summary.missing.push(case.name.clone());
            }
        }
        provenance.cases.insert(
            case.name.clone(),
            Origin {
                generator: Some(generator.file_name.clone()),
                generator_hash: Some(generator.hash.clone()),
                args: Some(case.args.clone()),
                derived_from: None,
                input_hash: content_hash(input),
                reference: reference.file_name.clone(),
                reference_hash: reference.hash.clone(),
                output_hash: content_hash(output),
            },
        );
    }
    Ok(writes)
}

/// The files of generated cases the recipe no longer makes, with the hash each is removed
/// against; a case edited by hand is left alone (and said so in `summary`).
fn plan_removals(
    problem: &Problem,
    planned: &[PlannedCase],
    provenance: &Provenance,
    summary: &mut GenSummary,
) -> Result<Vec<(PathBuf, String)>> {
    let planned_names: BTreeSet<&str> = planned.iter().map(|c| c.name.as_str()).collect();
    let mut removals = Vec::new();
    for (name, origin) in &provenance.cases {
        if !origin.is_generated() || planned_names.contains(name.as_str()) {
            continue;
        }
        let [input_path, output_path, _] = case_paths(problem, name);
        let files = [
            (input_path, &origin.input_hash),
            (output_path, &origin.output_hash),
        ];
        let mut states = Vec::new();
        for (path, hash) in &files {
            states.push(on_disk(path, None, Some(hash))?);
        }
        if states.contains(&OnDisk::Foreign) {
            summary.left.push(Left {
                name: name.clone(),
                reason: STALE_EDITED,
            });
            continue;
        }
        for ((path, hash), state) in files.into_iter().zip(states) {
            if state == OnDisk::Ours {
                removals.push((path, hash.clone()));
            }
        }
        summary.removed.push(name.clone());
    }
    Ok(removals)
}
