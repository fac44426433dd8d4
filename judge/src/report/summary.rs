//! What a whole run comes to, as the reporters are told at its end.

use std::time::Duration;

use crate::error::Outcome;
use crate::judging::Tally;
use crate::sandbox::Containment;

use super::record::MergedRecord;

/// What a whole run came to.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    /// How many problems were judged (a problem judged with several solutions counts once).
    pub problems: usize,
    /// The totals of every case judged.
    pub tally: Tally,
    /// Solutions built in this run.
    pub compiled: usize,
    /// Solutions taken from the build cache.
    pub cached: usize,
    /// Solutions that did not compile.
    pub compile_errors: usize,
    /// Problems that could not be judged (a fault of the problem or the harness).
    pub errors: usize,
    /// Cases not judged because an earlier case of the same solution failed (`fail_fast`).
    pub skipped: usize,
    /// The signal that stopped the run before every case was judged: the caller exits with
    /// 128 plus it, as a shell would.
    pub interrupted: Option<i32>,
    /// Cases the stop left unjudged (of solutions stopped part way, or never begun).
    pub not_finished: usize,
    /// How long the whole run took.
    pub wall_time: Duration,
    /// What held the programs judged (`None` when none ran).
    pub containment: Option<Containment>,
    /// Why the programs did not get the file system view, if they did not.
    pub view_refused: Option<String>,
    /// For a report merged from shards (`judge merge`): what they were.
    pub merged: Option<MergeNote>,
}

/// What a merged report says of its shards.
#[derive(Debug, Clone, Default)]
pub struct MergeNote {
    /// The shards, and those missing.
    pub record: MergedRecord,
    /// Their hosts ran the calibration loop at speeds further apart than timing allows.
    pub hosts_differ: bool,
    /// Each verdict near the time limit, with the host that judged it: `p case TLE on host`.
    pub near_limit: Vec<String>,
}

impl RunSummary {
    /// The run's outcome: an error, else a stop before its end, else any case not accepted,
    /// else accepted.
    pub fn outcome(&self) -> Outcome {
        if self.errors > 0 {
            Outcome::Error
        } else if self.not_finished > 0 {
            Outcome::Interrupted
        } else if self.compile_errors > 0 || self.tally.accepted() < self.tally.cases {
            Outcome::Rejected
        } else {
            Outcome::Accepted
        }
    }
}
