//! `judge`: compiles competitive-programming solutions, runs them in parallel against every
//! input / expected-output pair of a problem, and gives the verdicts real judges give.
//!
//! The pipeline, one module per stage:
//! `discover` → `compile` → `sandbox` (run) → `judging` (one case: `compare` or checker,
//! `verdict::classify`) → `runner` (every case, in parallel) → `report`; `cli` parses the
//! command line and `app` holds each command's body.

pub mod app;
pub mod check;
pub mod checker;
pub mod cli;
pub mod compare;
pub mod compile;
pub mod confine;
pub mod corpus;
pub mod diff;
pub mod discover;
pub mod error;
pub mod interactive;
pub mod interrupt;
pub mod judges;
pub mod judging;
pub mod kattis;
pub mod language;
pub mod listen;
pub mod problem;
pub mod profile;
pub mod provenance;
pub mod recipe;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod scaffold;
pub mod score;
pub mod sources;
pub mod stress;
pub mod submit;
pub mod verdict;
pub mod verify;
pub mod watch;
pub mod write;
