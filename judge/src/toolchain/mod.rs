//! Languages as data, the files a program is built from, building and the build cache, and
//! what each online judge takes.

pub mod compiler;
pub mod handin;
pub mod language;
pub mod online_judges;
pub mod program;
pub mod sources;

pub use compiler::{Build, Compiler};
pub use program::{Limits, Program, RunOptions};
