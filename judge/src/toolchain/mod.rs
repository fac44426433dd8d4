//! Languages as data, the files a program is built from, building and the build cache, and
//! what each online judge takes.

pub(crate) mod compiler;
pub(crate) mod handin;
pub(crate) mod harness;
pub(crate) mod language;
pub(crate) mod online_judges;
pub(crate) mod program;
pub(crate) mod signature;
pub(crate) mod sources;

pub(crate) use compiler::build_rank;
pub use compiler::{builds_dir, Build, Compiler};
pub use program::{Limits, Program, RunOptions};
pub use sources::Sources;
