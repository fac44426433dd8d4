//! `judge`: compiles competitive-programming solutions, runs them in parallel against every
//! input / expected-output pair of a problem, and gives the verdicts real judges give.
//!
//! The parts, in the order a run goes through them (docs/architecture.md has the map and
//! the rules of which part may use which, kept by `tests/it/architecture.rs`):
//! `problem` (the model and everything read from a problem folder or a Kattis package),
//! `toolchain` (languages, building, what each online judge takes), `sandbox` (one run,
//! evidence only), `judging` (one case, evidence to verdict), `compare` (outputs against
//! expected ones), `runner` (every case as one pool, in order), `report` (human, JSON,
//! JUnit), `corpus` (commands that write cases, as transactions) and `app` (one file per
//! command); `cli` is the command line and `error` the harness's own faults.

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
