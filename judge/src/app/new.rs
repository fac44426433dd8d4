//! `judge new`: scaffold a problem folder and its solution file.

use crate::cli::NewArgs;
use crate::error::{Outcome, Result};
use crate::scaffold;

use super::Context;

pub fn new(context: &Context, args: NewArgs) -> Result<Outcome> {
    let id = &args.id;
    let made = scaffold::new_problem(&context.repository, id, args.profile)?;
    for file in &made.files {
        println!("created {file}");
    }
    if made.registered_bin {
        println!("added [[bin]] `{id}` to solutions/Cargo.toml");
    }
    println!("next: write the statement, reference.rs and the solution, then `judge add {id} --from-reference`");
    Ok(Outcome::Accepted)
}
