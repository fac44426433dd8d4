//! The work not started yet, as the workers take it: builds first (the slowest first), then
//! cases in input order, each task's once its builds are done.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

use super::CaseJudge;

/// A piece of work for a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Job {
    /// Build `part` of a task (see `CaseJudge::builds`).
    Build { task: usize, part: usize },
    /// Judge a case of a task.
    Case { task: usize, case: usize },
}

/// The work not started yet. A task's cases wait for its builds; a task whose cases run one
/// at a time (`CaseJudge::one_at_a_time`) is passed over while one of them runs.
pub(super) struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    /// Builds not started, the likely slowest first: the longest build then starts at once
    /// instead of last, alone on one core while the others wait.
    builds: VecDeque<(usize, usize)>,
    tasks: Vec<TaskState>,
    /// Tasks before this one have no case left to hand out.
    first_open: usize,
}

struct TaskState {
    /// Its next case to hand out, and its number of cases.
    next: usize,
    count: usize,
    /// Builds not done yet; its cases wait for them.
    unbuilt: usize,
    /// No build failed.
    judgeable: bool,
    one_at_a_time: bool,
    /// One of its cases is running.
    running: bool,
}

impl QueueState {
    /// The next job that may start now: a build, else the first case that may, marked
    /// running.
    fn take(&mut self) -> Option<Job> {
        if let Some((task, part)) = self.builds.pop_front() {
            return Some(Job::Build { task, part });
        }
        while self
            .tasks
            .get(self.first_open)
            .is_some_and(|task| task.next == task.count)
        {
            self.first_open += 1;
        }
        let (task, state) = (self.tasks.iter_mut().enumerate())
            .skip(self.first_open)
            .find(|(_, task)| {
                task.next < task.count && task.unbuilt == 0 && !(task.one_at_a_time && task.running)
            })?;
        state.next += 1;
        state.running = true;
        Some(Job::Case {
            task,
            case: state.next - 1,
        })
    }

    fn is_empty(&self) -> bool {
        let open = &self.tasks[self.first_open..];
        self.builds.is_empty() && open.iter().all(|task| task.next == task.count)
    }
}

impl Queue {
    /// The builds and `cases[task]` cases of every task (`None`: a task with none).
    pub(super) fn new(judge: &dyn CaseJudge, cases: &[Option<usize>]) -> Queue {
        let tasks: Vec<TaskState> = (cases.iter().enumerate())
            .map(|(task, count)| TaskState {
                next: 0,
                count: count.unwrap_or(0),
                unbuilt: count.map_or(0, |_| judge.builds(task)),
                judgeable: true,
                one_at_a_time: judge.one_at_a_time(task),
                running: false,
            })
            .collect();
        let mut builds: Vec<(usize, usize)> = (tasks.iter().enumerate())
            .flat_map(|(task, state)| (0..state.unbuilt).map(move |part| (task, part)))
            .collect();
        builds.sort_by_key(|&(task, part)| judge.build_rank(task, part));
        Queue {
            state: Mutex::new(QueueState {
                builds: builds.into(),
                tasks,
                first_open: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next job, waiting while only cases held back or not yet built are left; `None` at
    /// the end.
    pub(super) fn next(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if state.is_empty() {
                return None;
            }
            if let Some(next) = state.take() {
                return Some(next);
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next job if one is free now, without waiting.
    pub(super) fn try_next(&self) -> Option<Job> {
        self.lock().take()
    }

    /// Marks that `task` runs no case any more.
    pub(super) fn done(&self, task: usize) {
        let mut state = self.lock();
        state.tasks[task].running = false;
        // Only a task held back makes a worker wait.
        if state.tasks[task].one_at_a_time {
            self.changed.notify_all();
        }
    }

    /// Marks one build of `task` done, `ok` unless its cases cannot be judged; after its last
    /// build its cases may start, or are dropped.
    pub(super) fn built(&self, task: usize, ok: bool) {
        let mut state = self.lock();
        let task = &mut state.tasks[task];
        task.unbuilt -= 1;
        task.judgeable &= ok;
        if task.unbuilt == 0 {
            if !task.judgeable {
                task.count = task.next;
            }
            self.changed.notify_all();
        }
    }

    /// Whether `task`'s builds are done, and then whether its cases can be judged.
    pub(super) fn readiness(&self, task: usize) -> Option<bool> {
        let state = self.lock();
        let task = &state.tasks[task];
        (task.unbuilt == 0).then_some(task.judgeable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::CaseResult;

    /// Tasks with `builds[task]` builds each, ranked by `ranks[task]`; nothing is judged.
    struct Planned {
        builds: Vec<usize>,
        ranks: Vec<u8>,
    }

    impl CaseJudge for Planned {
        fn builds(&self, task: usize) -> usize {
            self.builds[task]
        }
        fn build_rank(&self, task: usize, _part: usize) -> u8 {
            self.ranks[task]
        }
        fn judge(&self, _task: usize, _case: usize) -> CaseResult {
            unreachable!("the queue only hands out work")
        }
        fn cpu_time_limit(&self, _task: usize) -> std::time::Duration {
            std::time::Duration::ZERO
        }
    }

    #[test]
    fn builds_go_first_slowest_first_and_a_tasks_cases_wait_for_all_of_its_builds() {
        let judge = Planned {
            builds: vec![2, 1, 1],
            ranks: vec![1, 2, 0],
        };
        let queue = Queue::new(&judge, &[Some(2), Some(1), None]);
        let build = |task, part| Some(Job::Build { task, part });
        let case = |task, case| Some(Job::Case { task, case });
        // The task without cases has nothing to build.
        assert_eq!(queue.try_next(), build(0, 0));
        assert_eq!(queue.try_next(), build(0, 1));
        assert_eq!(queue.try_next(), build(1, 0));
        assert_eq!(queue.try_next(), None, "no case before its task is built");
        queue.built(1, true);
        assert_eq!(queue.readiness(1), Some(true));
        assert_eq!(queue.try_next(), case(1, 0));
        queue.built(0, true);
        assert_eq!(queue.readiness(0), None, "one build of task 0 is not done");
        assert_eq!(queue.try_next(), None);
        queue.built(0, false);
        assert_eq!(queue.readiness(0), Some(false));
        assert_eq!(
            queue.try_next(),
            None,
            "a task that failed to build has no cases"
        );
        assert_eq!(queue.next(), None, "and the queue is then empty");
    }
}
