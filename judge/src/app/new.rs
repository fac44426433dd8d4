//! `judge new`: scaffold a problem folder and its solution file.

use crate::cli::NewArgs;
use crate::error::{Outcome, Result};
use crate::scaffold;

use super::Context;

pub fn new(context: &Context, args: NewArgs) -> Result<Outcome> {
    if let Some(file) = &args.from {
        for line in crate::listen::import_file(&context.repository, &context.path(file))? {
            println!("{line}");
        }
        return Ok(Outcome::Accepted);
    }
    let id = args.id.as_deref().unwrap_or_default();
    let made = scaffold::new_problem(&context.repository, id, args.profile)?;
    for file in &made.files {
        println!("created {file}");
    }
    if made.registered_bin {
        println!("added [[bin]] `{id}` to solutions/Cargo.toml");
    }
    println!("next: add the official samples: open the problem's page, run `judge listen` and click Competitive Companion (only missing samples are added), or `judge add {id} --name sample/1 --input FILE --expected FILE`");
    println!("next: write the statement, reference.rs and the solution, then `judge add {id} --from-reference`");
    Ok(Outcome::Accepted)
}
