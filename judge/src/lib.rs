//! `judge`: compiles competitive-programming solutions, runs them in parallel against every
//! input / expected-output pair of a problem, and gives the verdicts real judges give.
//!
//! The pipeline, one module per stage:
//! `discover` → `compile` → `sandbox` (run) → `compare` → `verdict` (classify) → `report`,
//! driven by `schedule`; `cli` parses the command line and `app` holds each command's body.

pub mod app;
pub mod check;
pub mod checker;
pub mod cli;
pub mod compare;
pub mod compile;
pub mod corpus;
pub mod diff;
pub mod discover;
pub mod error;
pub mod kattis;
pub mod language;
pub mod problem;
pub mod profile;
pub mod provenance;
pub mod recipe;
pub mod report;
pub mod sandbox;
pub mod scaffold;
pub mod schedule;
pub mod stress;
pub mod verdict;
pub mod verify;
pub mod write;
