//! What a whole run comes to, as the reporters are told at its end.

use std::time::Duration;

use crate::error::Outcome;
use crate::judging::Tally;

/// What a whole run came to.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    pub problems: usize,
    pub tally: Tally,
    pub compiled: usize,
    pub cached: usize,
    pub compile_errors: usize,
    pub errors: usize,
    /// Cases not judged because an earlier case of the same solution failed (`fail_fast`).
    pub skipped: usize,
    /// The signal that stopped the run before every case was judged: the caller exits with
    /// 128 plus it, as a shell would.
    pub interrupted: Option<i32>,
    pub wall_time: Duration,
}

impl RunSummary {
    pub fn outcome(&self) -> Outcome {
        if self.errors > 0 {
            Outcome::Error
        } else if self.compile_errors > 0 || self.tally.accepted() < self.tally.cases {
            Outcome::Rejected
        } else {
            Outcome::Accepted
        }
    }
}
