//! How far a run can be trusted: what held it, named as the reports name it.

use serde::{Deserialize, Serialize};

/// What held a slot's runs (or, met over slots, every run of a judge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Containment {
    /// The whole tree's peak (shared memory, memfd and tmpfs included), and a hard limit.
    pub memory_cgroup: bool,
    /// At most `MAX_TASKS` tasks, root or not.
    pub pids_cgroup: bool,
    /// Network, IPC, PID and mount namespaces of the slot's own.
    pub namespaces: bool,
    /// Judged programs saw the view (see `View`).
    pub view: bool,
}

impl Containment {
    /// What root gets on a machine with cgroups and namespaces.
    pub const FULL: Containment = Containment {
        memory_cgroup: true,
        pids_cgroup: true,
        namespaces: true,
        view: true,
    };

    /// The level's name: `cgroup+namespaces` (full), `namespaces`, `cgroup` or `rlimits`.
    pub fn level(&self) -> &'static str {
        let cgroup = self.memory_cgroup && self.pids_cgroup;
        let namespaces = self.namespaces && self.view;
        match (cgroup, namespaces) {
            (true, true) => "cgroup+namespaces",
            (false, true) => "namespaces",
            (true, false) => "cgroup",
            (false, false) => "rlimits",
        }
    }

    pub fn is_full(&self) -> bool {
        *self == Containment::FULL
    }

    pub fn meet(self, other: Containment) -> Containment {
        Containment {
            memory_cgroup: self.memory_cgroup && other.memory_cgroup,
            pids_cgroup: self.pids_cgroup && other.pids_cgroup,
            namespaces: self.namespaces && other.namespaces,
            view: self.view && other.view,
        }
    }

    /// What is weaker than at the full level, one phrase each.
    pub fn weaker(&self) -> Vec<&'static str> {
        let mut weaker = Vec::new();
        if !self.memory_cgroup {
            weaker.push("memory sampled every 100 ms, not a cgroup's exact peak");
        }
        if !self.pids_cgroup {
            weaker.push("processes capped by RLIMIT_NPROC, not a pids cgroup");
        }
        if !self.namespaces {
            weaker.push("no namespaces: programs see the machine's processes and network");
        }
        if !self.view {
            weaker.push("programs can read and write your files, expected outputs included");
        }
        weaker
    }
}

/// For `judge doctor`: how each part is had here, or why it is not.
pub fn diagnose(owner: u32) -> Vec<(&'static str, Result<String, String>)> {
    let turned_off = |variable: &str| {
        std::env::var_os(variable)
            .is_some_and(|value| value != "0")
            .then(|| format!("turned off by {variable}=1"))
    };
    let mut parts = Vec::new();
    if let Some(how) = super::scope::how() {
        parts.push(("own cgroup", how.clone()));
    }
    for (part, controller) in [("memory cgroup", "memory"), ("pids cgroup", "pids")] {
        let found = match turned_off("JUDGE_NO_CGROUPS") {
            Some(why) => Err(why),
            None => super::cgroup::where_groups_go(
                std::path::Path::new("/sys/fs/cgroup"),
                controller,
                owner,
            )
            .and_then(|(dir, v2, how)| {
                let writable = rustix::fs::access(&dir, rustix::fs::Access::WRITE_OK).is_ok();
                if !writable {
                    return Err(format!("{}: not writable by this user", dir.display()));
                }
                if v2 && controller == "memory" && !peak_resettable(&dir) {
                    return Ok(format!(
                        "{how}, a new group each run (memory.peak cannot be reset before \
                         Linux 6.12): {}",
                        dir.display()
                    ));
                }
                Ok(format!("{how}: {}", dir.display()))
            }),
        };
        parts.push((part, found));
    }
    parts.push((
        "user namespaces",
        user_namespaces(turned_off("JUDGE_NO_NAMESPACES")),
    ));
    parts
}

/// Whether cgroup v2's `memory.peak` can be reset: the kernel makes it writable only then. A
/// group without one yet (controller not on) is judged by its parent's.
fn peak_resettable(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    [Some(dir), dir.parent()]
        .into_iter()
        .flatten()
        .find_map(|dir| std::fs::metadata(dir.join("memory.peak")).ok())
        .is_some_and(|peak| peak.permissions().mode() & 0o222 != 0)
}

/// By the kernel's switches.
fn user_namespaces(turned_off: Option<String>) -> Result<String, String> {
    if let Some(why) = turned_off {
        return Err(why);
    }
    if rustix::process::getuid().is_root() {
        return Ok("not needed: root makes the namespaces itself".into());
    }
    let switch = |file: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/proc/sys/{file}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    if switch("user/max_user_namespaces") == Some(0) {
        return Err(
            "user.max_user_namespaces is 0 (sysctl -w user.max_user_namespaces=15000)".into(),
        );
    }
    if switch("kernel/unprivileged_userns_clone") == Some(0) {
        return Err(
            "kernel.unprivileged_userns_clone is 0 (sysctl -w kernel.unprivileged_userns_clone=1)"
                .into(),
        );
    }
    if switch("kernel/apparmor_restrict_unprivileged_userns") == Some(1) {
        return Err(
            "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10 on): \
            sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile \
            for the judge's binary that allows userns"
                .into(),
        );
    }
    Ok("allowed by the kernel's switches".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_is_the_weakest_part_of_each_half() {
        let no_view = Containment {
            view: false,
            ..Containment::FULL
        };
        let no_memory_cgroup = Containment {
            memory_cgroup: false,
            ..Containment::FULL
        };
        assert_eq!(Containment::FULL.level(), "cgroup+namespaces");
        assert_eq!(no_view.level(), "cgroup");
        assert_eq!(no_memory_cgroup.level(), "namespaces");
        assert_eq!(no_view.meet(no_memory_cgroup).level(), "rlimits");
        assert_eq!(no_view.weaker().len(), 1);
        assert!(Containment::FULL.weaker().is_empty());
    }
}
