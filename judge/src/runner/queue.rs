//! The work not started yet: builds first (slowest first), then cases in input order, each
//! task's once its builds are done; and what each task's builds came to.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};

use super::{CaseJudge, Part};

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Job<'q, R> {
    Build {
        task: usize,
        part: Part,
    },
    /// With what the task's builds made.
    Case {
        task: usize,
        case: usize,
        ready: &'q R,
    },
}

/// What a task's builds came to: `Ok` to judge its cases with, or `Err`, why not.
pub(super) type BuildOutcome<'j, J> =
    Result<<J as CaseJudge>::Ready<'j>, <J as CaseJudge>::Unjudged<'j>>;

/// A task's cases wait for its builds; a task whose cases run one at a time
/// (`CaseJudge::one_at_a_time`) is passed over while one of them runs.
pub(super) struct Queue<'j, J: CaseJudge> {
    judge: &'j J,
    state: Mutex<QueueState>,
    changed: Condvar,
    /// Per task, once every build ran; never set if one did not (the judge was stopped).
    outcomes: Vec<OnceLock<BuildOutcome<'j, J>>>,
}

struct QueueState {
    /// Likely slowest first, so that the longest does not start last, alone on one core.
    builds: VecDeque<(usize, Part)>,
    tasks: Vec<TaskState>,
    /// Tasks before this one have no case left to hand out.
    first_open: usize,
}

struct TaskState {
    /// The next case to hand out.
    next: usize,
    count: usize,
    /// Builds not done yet; its cases wait for them.
    unbuilt: usize,
    /// Every build done so far ran.
    ran: bool,
    one_at_a_time: bool,
    /// One of its cases is running.
    running: bool,
}

impl QueueState {
    fn is_empty(&self) -> bool {
        let open = &self.tasks[self.first_open..];
        self.builds.is_empty() && open.iter().all(|task| task.next == task.count)
    }
}

impl<'j, J: CaseJudge> Queue<'j, J> {
    /// `cases[task]` is `None` for a task with no case and nothing to build; a task without
    /// builds is settled at once.
    pub(super) fn new(judge: &'j J, cases: &[Option<usize>]) -> Self {
        let tasks: Vec<TaskState> = (cases.iter().enumerate())
            .map(|(task, count)| TaskState {
                next: 0,
                count: count.unwrap_or(0),
                unbuilt: count.map_or(0, |_| judge.builds(task).len()),
                ran: true,
                one_at_a_time: judge.one_at_a_time(task),
                running: false,
            })
            .collect();
        let mut builds: Vec<(usize, Part)> = (tasks.iter().enumerate())
            .filter(|(_, state)| state.unbuilt > 0)
            .flat_map(|(task, _)| judge.builds(task).iter().map(move |&part| (task, part)))
            .collect();
        builds.sort_by_key(|&(task, part)| judge.build_rank(task, part));
        let queue = Queue {
            judge,
            state: Mutex::new(QueueState {
                builds: builds.into(),
                tasks,
                first_open: 0,
            }),
            changed: Condvar::new(),
            outcomes: cases.iter().map(|_| OnceLock::new()).collect(),
        };
        let mut state = queue.lock();
        for task in 0..cases.len() {
            if state.tasks[task].unbuilt == 0 {
                queue.settle(&mut state, task);
            }
        }
        drop(state);
        queue
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A build, else the first case that may start now, marked running.
    fn take(&self, state: &mut QueueState) -> Option<Job<'_, J::Ready<'j>>> {
        if let Some((task, part)) = state.builds.pop_front() {
            return Some(Job::Build { task, part });
        }
        while (state.tasks.get(state.first_open)).is_some_and(|task| task.next == task.count) {
            state.first_open += 1;
        }
        let (task, state, ready) = (state.tasks.iter_mut().enumerate())
            .skip(state.first_open)
            .filter(|(_, task)| task.next < task.count && !(task.one_at_a_time && task.running))
            .find_map(|(task, state)| match self.outcomes[task].get() {
                Some(Ok(ready)) => Some((task, state, ready)),
                Some(Err(_)) | None => None,
            })?;
        state.next += 1;
        state.running = true;
        Some(Job::Case {
            task,
            case: state.next - 1,
            ready,
        })
    }

    /// Waits while only cases held back or not yet built are left; `None` at the end.
    pub(super) fn next(&self) -> Option<Job<'_, J::Ready<'j>>> {
        let mut state = self.lock();
        loop {
            if state.is_empty() {
                return None;
            }
            if let Some(next) = self.take(&mut state) {
                return Some(next);
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub(super) fn try_next(&self) -> Option<Job<'_, J::Ready<'j>>> {
        self.take(&mut self.lock())
    }

    pub(super) fn done(&self, task: usize) {
        let mut state = self.lock();
        state.tasks[task].running = false;
        // Only a task held back makes a worker wait.
        if state.tasks[task].one_at_a_time {
            self.changed.notify_all();
        }
    }

    /// `ran` is false for a build not started (the judge was stopped). After a task's last
    /// build its cases may start, or are dropped.
    pub(super) fn built(&self, task: usize, ran: bool) {
        let mut state = self.lock();
        let entry = &mut state.tasks[task];
        entry.unbuilt -= 1;
        entry.ran &= ran;
        if entry.unbuilt == 0 {
            self.settle(&mut state, task);
            self.changed.notify_all();
        }
    }

    /// Once every build of `task` is done: its outcome, unless one did not run; its cases are
    /// dropped unless they can be judged.
    fn settle(&self, state: &mut QueueState, task: usize) {
        let entry = &mut state.tasks[task];
        let judgeable = entry.ran
            && self.outcomes[task]
                .get_or_init(|| self.judge.readiness(task))
                .is_ok();
        if !judgeable {
            entry.count = entry.next;
        }
    }

    /// `None` while builds are not all done, `Some(None)` when one did not run.
    pub(super) fn outcome(&self, task: usize) -> Option<Option<&BuildOutcome<'j, J>>> {
        let done = self.lock().tasks[task].unbuilt == 0;
        done.then(|| self.outcomes[task].get())
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
        type Ready<'a> = ();
        type Unjudged<'a> = ();
        fn builds(&self, task: usize) -> &[Part] {
            &[Part::Solution, Part::Checker][..self.builds[task]]
        }
        fn build_rank(&self, task: usize, _part: Part) -> u8 {
            self.ranks[task]
        }
        fn readiness(&self, _task: usize) -> Result<(), ()> {
            Ok(())
        }
        fn judge(&self, _task: &(), _case: usize) -> CaseResult {
            unreachable!("the queue only hands out work")
        }
        fn cpu_time_limit(&self, _task: &()) -> std::time::Duration {
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
        let case = |task, case| {
            Some(Job::Case {
                task,
                case,
                ready: &(),
            })
        };
        // What a task's builds came to, once done: judgeable or not.
        let readiness = |task| {
            queue
                .outcome(task)
                .map(|outcome| outcome.is_some_and(|o| o.is_ok()))
        };
        // The task without cases has nothing to build.
        assert_eq!(queue.try_next(), build(0, Part::Solution));
        assert_eq!(queue.try_next(), build(0, Part::Checker));
        assert_eq!(queue.try_next(), build(1, Part::Solution));
        assert_eq!(queue.try_next(), None, "no case before its task is built");
        queue.built(1, true);
        assert_eq!(readiness(1), Some(true));
        assert_eq!(queue.try_next(), case(1, 0));
        queue.built(0, true);
        assert_eq!(readiness(0), None, "one build of task 0 is not done");
        assert_eq!(queue.try_next(), None);
        queue.built(0, false);
        assert_eq!(readiness(0), Some(false));
        assert_eq!(
            queue.try_next(),
            None,
            "a task that failed to build has no cases"
        );
        assert_eq!(queue.next(), None, "and the queue is then empty");
    }
}
