//! The cases not started yet, as the workers take them.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

use super::CaseJudge;

/// The cases not started yet, handed to workers in input order, except that a task whose
/// cases run one at a time (`CaseJudge::one_at_a_time`) is passed over while one of them runs.
pub(super) struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    waiting: VecDeque<(usize, usize)>,
    /// Per task: its cases run one at a time.
    one_at_a_time: Vec<bool>,
    /// Per task: one of its cases is running.
    running: Vec<bool>,
}

impl QueueState {
    /// The first waiting case that may start now, marked running.
    fn take(&mut self) -> Option<(usize, usize)> {
        let free = |&(task, _): &(usize, usize)| !(self.one_at_a_time[task] && self.running[task]);
        let index = self.waiting.iter().position(free)?;
        let (task, case) = self.waiting.remove(index).expect("found above");
        self.running[task] = true;
        Some((task, case))
    }
}

impl Queue {
    pub(super) fn new(judge: &dyn CaseJudge, cases: &[Option<usize>]) -> Queue {
        let waiting = cases
            .iter()
            .enumerate()
            .flat_map(|(task, count)| (0..count.unwrap_or(0)).map(move |case| (task, case)))
            .collect();
        Queue {
            state: Mutex::new(QueueState {
                waiting,
                one_at_a_time: (0..cases.len())
                    .map(|task| judge.one_at_a_time(task))
                    .collect(),
                running: vec![false; cases.len()],
            }),
            changed: Condvar::new(),
        }
    }

    /// The next case to judge, waiting while only held-back ones are left; `None` at the end.
    pub(super) fn next(&self) -> Option<(usize, usize)> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if state.waiting.is_empty() {
                return None;
            }
            if let Some(next) = state.take() {
                return Some(next);
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next case to judge if one is free now, without waiting.
    pub(super) fn try_next(&self) -> Option<(usize, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Marks that `task` runs no case any more.
    pub(super) fn done(&self, task: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.running[task] = false;
        // Only a task held back makes a worker wait.
        if state.one_at_a_time[task] {
            self.changed.notify_all();
        }
    }
}
