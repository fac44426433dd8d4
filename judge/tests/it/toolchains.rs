//! Toolchains are found as the user's shell finds them: in the official Rust container
//! image's layout (rustup under `RUSTUP_HOME`, nothing in `HOME`), and with a repository's
//! `rust-toolchain.toml` choosing the toolchain.

use std::path::{Path, PathBuf};

use crate::common::*;

/// Where rustup keeps its toolchains and where its proxies are, when rustup is how Rust is
/// installed here; `None` (and the tests say so) when it is not.
fn rustup() -> Option<(PathBuf, PathBuf)> {
    let output = std::process::Command::new("rustup")
        .args(["show", "home"])
        .output()
        .ok()?;
    let home = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    let proxies = std::env::split_paths(&std::env::var_os("PATH")?)
        .find(|dir| dir.join("rustup").is_file() && dir.join("rustc").exists())?;
    (output.status.success() && home.join("toolchains").is_dir()).then_some((home, proxies))
}

/// The judge in `repo` with only these variables (and a cache of its own), as a container
/// or CI job starts it: no `.rustup` in `HOME`.
fn judge_with(
    repo: &Path,
    home: &Path,
    proxies: &Path,
    variables: &[(&str, &Path)],
) -> std::process::Output {
    let system = ["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from);
    let path = std::env::join_paths(std::iter::once(proxies.to_path_buf()).chain(system)).unwrap();
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("judge"));
    command
        .current_dir(repo)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("JUDGE_CACHE_DIR", home.join("cache"))
        .args(["run", "--color", "never"]);
    for (key, value) in variables {
        command.env(key, value);
    }
    command.output().unwrap()
}

#[test]
fn in_the_rust_images_layout_a_rust_solution_builds() {
    let Some((rustup_home, proxies)) = rustup() else {
        skip_off_ci(
            "rustup is not how Rust is installed here: the Rust image's layout is not tried",
        );
        return;
    };
    let repo = sum_repository();
    let home = tempfile::tempdir().unwrap();
    let cargo_home = proxies.parent().unwrap();
    let output = judge_with(
        repo.path(),
        home.path(),
        &proxies,
        &[("RUSTUP_HOME", &rustup_home), ("CARGO_HOME", cargo_home)],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("AC "), "{stdout}");
}

#[test]
fn a_repositorys_rust_toolchain_file_chooses_the_toolchain() {
    let Some((rustup_home, proxies)) = rustup() else {
        skip_off_ci("rustup is not how Rust is installed here: rust-toolchain.toml is not tried");
        return;
    };
    // A rustup home with the machine's toolchains and no default: only the file can choose.
    let home = tempfile::tempdir().unwrap();
    let no_default = home.path().join("rustup");
    std::fs::create_dir(&no_default).unwrap();
    std::os::unix::fs::symlink(
        rustup_home.join("toolchains"),
        no_default.join("toolchains"),
    )
    .unwrap();
    let toolchain = std::fs::read_dir(rustup_home.join("toolchains"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .find(|name| name.starts_with("stable-") || name.starts_with("1."))
        .expect("an installed stable toolchain");
    let channel = toolchain.split('-').next().unwrap().to_owned();
    let repo = sum_repository();
    let variables = [("RUSTUP_HOME", no_default.as_path())];

    let without = judge_with(repo.path(), home.path(), &proxies, &variables);
    let stderr = String::from_utf8_lossy(&without.stderr);
    assert_eq!(without.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot run `rustc`"),
        "no default and no file: {stderr}"
    );

    std::fs::write(
        repo.path().join("rust-toolchain.toml"),
        format!("[toolchain]\nchannel = \"{channel}\"\n"),
    )
    .unwrap();
    let with = judge_with(repo.path(), home.path(), &proxies, &variables);
    let stdout = String::from_utf8_lossy(&with.stdout);
    assert_eq!(
        with.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&with.stderr)
    );
}

#[test]
fn programs_built_ahead_are_found_built_and_a_compile_error_still_says_so() {
    use judge::toolchain::{Build, Sources};
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.c");
    let bad = dir.path().join("bad.c");
    std::fs::write(&good, "int main(void) { return 0; }\n").unwrap();
    std::fs::write(&bad, "int main(void) { return }\n").unwrap();
    let compiler = library_compiler(&dir.path().join("cache"));
    let programs = [&good, &bad].map(|path| (path.clone(), Sources::read(path)));
    compiler.prebuild(programs.into(), 2);
    let built = compiler.build(&good).unwrap();
    assert!(
        matches!(&built, Build::Ready(program) if program.cached),
        "{built:?}"
    );
    let Build::CompileError(message) = compiler.build(&bad).unwrap() else {
        panic!("bad.c compiled");
    };
    assert!(message.contains("bad.c"), "{message}");
}

#[test]
fn a_program_asked_for_by_two_threads_at_once_is_compiled_once() {
    use judge::toolchain::Build;
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("twice.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let compiler = library_compiler(&dir.path().join("cache"));
    let start = std::sync::Barrier::new(2);
    let compiled: Vec<bool> = std::thread::scope(|scope| {
        let both = [(); 2].map(|_| {
            scope.spawn(|| {
                start.wait();
                match compiler.build(&source).unwrap() {
                    Build::Ready(program) => !program.cached,
                    Build::CompileError(message) => panic!("{message}"),
                }
            })
        });
        both.map(|thread| thread.join().unwrap()).into()
    });
    assert_eq!(compiled.iter().filter(|&&c| c).count(), 1, "{compiled:?}");
}

#[test]
fn two_judges_sharing_a_cache_compile_a_program_once() {
    // A C++ file that takes the compiler a second: the second judge asks for it while the
    // first still builds it.
    let solution = "#include <bits/stdc++.h>\nint main() { long a, b; std::cin >> a >> b; \
                    std::cout << a + b << '\\n'; }\n";
    let repo = repository_with(&[
        ("problems/sum/problem.toml", "name = \"Sum\"\n"),
        ("problems/sum/tests/1.in", "1 2\n"),
        ("problems/sum/tests/1.out", "3\n"),
        ("solutions/sum.cpp", solution),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let start = || {
        judge_std_in(repo.path())
            .env("JUDGE_CACHE_DIR", cache.path())
            .args(["run", "--color", "never"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let both = [start(), start()];
    let said: Vec<String> = both
        .map(|judge| {
            let output = judge.wait_with_output().unwrap();
            assert_eq!(output.status.code(), Some(0));
            String::from_utf8_lossy(&output.stdout).into_owned()
        })
        .into();
    let compiled = said
        .iter()
        .filter(|s| s.contains("sum.cpp (compiled)"))
        .count();
    let cached = said
        .iter()
        .filter(|s| s.contains("sum.cpp (cached)"))
        .count();
    assert_eq!((compiled, cached), (1, 1), "{said:#?}");
    let left: Vec<_> = std::fs::read_dir(judge::toolchain::builds_dir(cache.path()))
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
