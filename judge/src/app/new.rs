//! `judge new`: scaffold a problem folder and its solution file.

use crate::cli::NewArgs;
use crate::corpus::{self, scaffold};
use crate::error::{Outcome, Result};

use super::Context;

pub fn new(context: &Context, args: NewArgs) -> Result<Outcome> {
    let mut notices = context.notices("new");
    if let Some(file) = &args.from {
        for line in crate::corpus::import::import_file(&context.repository, &context.path(file))? {
            notices.result(line);
        }
        return Ok(notices.finish(Outcome::Accepted));
    }
    if let Some(package) = &args.from_polygon {
        let made = corpus::from_polygon(
            &context.repository,
            &context.path(package),
            args.id.as_deref(),
        )?;
        notices.result(format_args!(
            "created problems/{}/ from {}: {}",
            made.id,
            package.display(),
            crate::report::plural(made.files, "file")
        ));
        for left_out in made.left_out {
            notices.info(format_args!("not carried over: {left_out}"));
        }
        notices.info(format_args!("next: judge run {}", made.id));
        return Ok(notices.finish(Outcome::Accepted));
    }
    let id = args.id.as_deref().unwrap_or_default();
    let made = scaffold::new_problem(&context.repository, id, args.profile, None)?;
    for file in &made.files {
        notices.result(format_args!("created {file}"));
    }
    if made.registered_bin {
        notices.result(format_args!("added [[bin]] `{id}` to solutions/Cargo.toml"));
    }
    notices.info(format_args!("next: add the official samples: open the problem's page, run `judge listen` and click Competitive Companion (only missing samples are added), or `judge add {id} --name sample/1 --input FILE --expected FILE`"));
    notices.info(format_args!("next: write the statement, reference.rs and the solution, then `judge add {id} --from-reference`"));
    notices.info(format_args!("next: for generated cases, write gen.rs, uncomment the entry in problems/{id}/generators.toml and run `judge gen {id}`"));
    Ok(notices.finish(Outcome::Accepted))
}
