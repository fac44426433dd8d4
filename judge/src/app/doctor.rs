//! `judge doctor`: what this machine allows the judge and why not, and the toolchains it
//! finds, with how to get the best containment on a laptop, in a container and in CI.

use crate::error::{Outcome, Result};
use crate::report::Table;
use crate::sandbox::Containment;
use crate::toolchain::language::LANGUAGES;

use super::Context;
use crate::problem::polygon::Tag;

pub fn doctor(context: &Context) -> Result<Outcome> {
    let who = match rustix::process::getuid().as_raw() {
        0 => "root".to_owned(),
        uid => format!("uid {uid}"),
    };
    let kernel = rustix::system::uname();
    println!(
        "judge {} as {who} on Linux {}",
        env!("CARGO_PKG_VERSION"),
        kernel.release().to_string_lossy()
    );
    // What a judged program really gets: `true` run as one.
    let held = context.sandbox.containment_probed();
    println!();
    match &held {
        Some((containment, refused)) => {
            let level = match containment.is_full() {
                true => format!("{} (full)", containment.level()),
                false => containment.level().to_owned(),
            };
            println!("Containment of a judged run: {level}");
            for weaker in containment.weaker() {
                println!("  weaker: {weaker}");
            }
            if let Some(refused) = refused {
                println!("  the file system view was refused: {refused}");
            }
        }
        None => println!("Containment: unknown (a probe run failed)"),
    }
    let mut parts = Table::new(&[("part", false), ("", false), ("how, or why not", false)]);
    for (part, found) in crate::sandbox::diagnose(std::process::id()) {
        let (mark, text) = match found {
            Ok(how) => ("yes", how),
            Err(why) => ("no", why),
        };
        parts.row(vec![part.to_owned(), mark.to_owned(), text]);
    }
    print!("{}", parts.render("  "));
    println!();
    println!("Toolchains:");
    let compiler = context.compiler();
    let mut toolchains = Table::new(&[("language", false), ("version", false), ("path", false)]);
    for language in LANGUAGES {
        let (version, path) = match compiler.toolchain(language) {
            Ok(found) => found,
            Err(why) => (format!("not found: {why}"), String::new()),
        };
        toolchains.row(vec![language.name.to_owned(), version, path]);
    }
    print!("{}", toolchains.render("  "));
    println!();
    polygon_support();
    if let Some((containment, _)) = held.filter(|(containment, _)| !containment.is_full()) {
        println!();
        advise(&containment);
    }
    Ok(Outcome::Accepted)
}

/// docs/polygon.md says more.
fn polygon_support() {
    println!("Polygon packages (problem.xml):");
    println!(
        "  read: the tests testset, named input/output files, the testlib checker, an \
         interactor then the checker, run-twice problems (all three kinds), groups and \
         points, validators and self-tests, solutions' tags and extra tags per group; \
         `judge gen` makes generated tests and missing answers, `judge new --from-polygon` \
         one of our problems"
    );
    println!("  not yet: pretests, points from the checker in a complete group");
    let mut tags = Table::new(&[("tag", false), ("kept, in `judge verify`, when", false)]);
    for (tag, name) in Tag::ALL {
        tags.row(vec![name.to_owned(), tag.kept_when().to_owned()]);
    }
    print!("{}", tags.render("  "));
    println!(
        "  checker exit codes (after its -appes report): 0 AC, 1 WA, 2, 4 and 8 WA (presentation \
         error), 3 JE (the checker failed), 7 AC with its points; anything else JE"
    );
}

/// How to get what `containment` lacks: laptop, container, CI.
fn advise(containment: &Containment) {
    println!("To get more:");
    if !containment.memory_cgroup || !containment.pids_cgroup {
        println!(
            "  laptop (systemd, cgroup v2): the judge asks your systemd for a group of its \
             own (the own cgroup line above says why it did not get one); by hand:\n    \
             systemd-run --user --scope -p Delegate=yes judge run"
        );
        println!(
            "  Docker: an unprivileged container has the cgroups read-only: docker run \
             --privileged --cgroupns=private ..."
        );
        println!("  CI: run as root (the usual CI runner), or in a job container as above");
    }
    if !containment.namespaces || !containment.view {
        println!(
            "  namespaces: allow unprivileged user namespaces (see the user namespaces line \
             above); Docker's default seccomp profile refuses them: docker run \
             --security-opt seccomp=unconfined, or run as root in the container"
        );
    }
}
