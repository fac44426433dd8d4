//! `judge`: compiles competitive-programming solutions, runs them in parallel against every
//! case of a problem, and gives the verdicts real judges give.
//!
//! A run goes `problem` → `toolchain` → `sandbox` → `judging` → `compare` → `runner` →
//! `report`; `corpus` writes cases, `app` has one file per command. Which part may use which
//! is in docs/architecture.md, kept by `tests/it/architecture.rs`.

#![warn(clippy::undocumented_unsafe_blocks)]

pub mod app;
pub(crate) mod atomic_write;
pub mod cli;
pub mod compare;
pub(crate) mod corpus;
pub mod error;
pub mod judging;
pub mod problem;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod toolchain;
