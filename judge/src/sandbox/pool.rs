//! The judge's run slots: a pool of idle supervisors, one per slot.

use std::fmt;
use std::io;
use std::os::fd::BorrowedFd;
use std::sync::{Mutex, MutexGuard};

use super::handle::SupervisorHandle;
use super::{placement, Containment, Limits, RunOutput, RunSpec, Streams, View};

/// Enough for `true`.
const PROBE: Limits = Limits {
    cpu_time: std::time::Duration::from_secs(2),
    memory_bytes: 64 << 20,
    output_bytes: 1 << 20,
    stack_bytes: 8 << 20,
    decided_at: None,
};

/// Idle supervisors, one per slot, started when a run finds none idle. Dropping it ends them
/// without waiting: each kills what is left of its runs, removes its folder and cgroups, and
/// exits (as it does when a judge dies: its socket closes).
#[derive(Default)]
pub struct Sandbox {
    idle: Mutex<Vec<SupervisorHandle>>,
    /// Every run stops when this is readable (the judge's interrupt, see `runner::interrupt`):
    /// the sandbox knows nothing of signals.
    stop_every_run: Option<BorrowedFd<'static>>,
    /// The first supervisor sweeps what earlier judges left.
    started: std::sync::atomic::AtomicBool,
    /// What judged programs see of the files: as given, and as settled (once, at first use).
    view: Mutex<(Option<View>, Option<View>)>,
    /// What held every judged run so far (`None` before the first), and why a slot refused
    /// the view, if one did.
    held: Mutex<Option<(Containment, Option<String>)>>,
}

impl Sandbox {
    /// Every run stops once `stop` is readable.
    pub fn stopped_by(stop: BorrowedFd<'static>) -> Sandbox {
        let mut sandbox = Sandbox::default();
        sandbox.stop_every_run = Some(stop);
        sandbox
    }

    pub fn run(&self, spec: &RunSpec) -> io::Result<RunOutput> {
        self.run_with(spec, Streams::default())
    }

    /// Runs on different threads take different supervisors, so two programs can run at once
    /// and talk.
    pub fn run_with(&self, spec: &RunSpec, streams: Streams) -> io::Result<RunOutput> {
        // The one this thread used last, if idle: the thread stays on its CPU.
        let taken = {
            let mut idle = self.idle();
            let me = std::thread::current().id();
            match idle.iter().rposition(|idle| idle.last_thread == Some(me)) {
                Some(index) => Some(idle.remove(index)),
                None => idle.pop(),
            }
        };
        let mut supervisor = match taken {
            Some(supervisor) => supervisor,
            None => SupervisorHandle::start(self.first_start())?,
        };
        if let Err(error) = supervisor.offer_for(spec, || self.settled_view()) {
            supervisor.close();
            return Err(error);
        }
        let cpu = placement::slot_cpu(supervisor.cpu);
        if let Some(cpu) = cpu {
            let _ = placement::pin_this_thread(cpu);
        }
        // A program that could not start (a missing toolchain) does not end the supervisor;
        // only a broken conversation does.
        let run = supervisor.run(spec, streams, cpu, self.stop_every_run);
        let containment = run.and_then(|run| Ok((run, supervisor.containment(spec)?)));
        let (run, containment) = match containment {
            Ok(both) => both,
            Err(error) => {
                supervisor.close();
                return Err(error);
            }
        };
        if spec.contained {
            let refused = supervisor.view_refused().map(str::to_owned);
            let mut held = self
                .held
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            *held = Some(match held.take() {
                Some((before, why)) => (before.meet(containment), why.or(refused)),
                None => (containment, refused),
            });
        }
        supervisor.last_thread = Some(std::thread::current().id());
        self.idle().push(supervisor);
        run
    }

    /// Starts a supervisor now, so that its set-up overlaps with the judge's own start.
    pub fn prepare(&self) {
        let mut idle = self.idle();
        if idle.is_empty() {
            if let Ok(supervisor) = SupervisorHandle::start(self.first_start()) {
                idle.push(supervisor);
            }
        }
    }

    /// `prepare` by forking rather than starting the binary again, which the first run would
    /// wait for.
    ///
    /// # Safety
    /// Only while this process has a single thread: at the start of `main`.
    pub unsafe fn prepare_by_fork(&self) {
        let first = self.first_start();
        // SAFETY: the caller promises a single thread.
        if let Ok(supervisor) = unsafe { SupervisorHandle::fork(first) } {
            self.idle().push(supervisor);
        }
    }

    /// From the first judged run on (a slot takes the view once).
    pub fn set_view(&self, view: View) {
        *self.view() = (Some(view), None);
    }

    /// Gives the view to idle slots now, so that they make it while the judge builds; call
    /// once every folder it names (the build cache) exists.
    pub fn offer_view(&self) {
        let Some(view) = self.settled_view() else {
            return;
        };
        for supervisor in self.idle().iter_mut() {
            let _ = supervisor.offer_view(&view);
        }
    }

    fn settled_view(&self) -> Option<View> {
        let mut view = self.view();
        if view.1.is_none() {
            view.1 = view.0.clone().map(View::settle);
        }
        view.1.clone()
    }

    fn view(&self) -> MutexGuard<'_, (Option<View>, Option<View>)> {
        self.view
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Hides `folder` too (a problem named by its path, outside the repository).
    pub fn hide(&self, folder: &std::path::Path) {
        let mut view = self.view();
        if let Some(given) = view.0.as_mut() {
            given.hide(folder);
            view.1 = None;
        }
    }

    /// What held the judged runs so far, and why the view was refused if it was; `None`
    /// before the first.
    pub fn containment(&self) -> Option<(Containment, Option<String>)> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// `containment`, learnt by running `true` as a judged program if none ran yet.
    pub fn containment_probed(&self) -> Option<(Containment, Option<String>)> {
        if let Some(known) = self.containment() {
            return Some(known);
        }
        let argv = [std::ffi::OsString::from("true")];
        let mut probe = RunSpec::new(&argv, std::path::Path::new("/dev/null"), PROBE);
        probe.contained = true;
        self.run(&probe).ok()?;
        self.containment()
    }

    fn first_start(&self) -> bool {
        !self
            .started
            .swap(true, std::sync::atomic::Ordering::Relaxed)
    }

    fn idle(&self) -> MutexGuard<'_, Vec<SupervisorHandle>> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sandbox({} idle)", self.idle().len())
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        for supervisor in std::mem::take(&mut *self.idle()) {
            supervisor.close();
        }
    }
}
