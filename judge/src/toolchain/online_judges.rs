//! Everything about each online judge, as one value per judge (limits, languages and their
//! commands, allowances, call form, submit page, `judge new` templates): a change at a judge
//! is a field to edit here, and a new judge a new value.
//!
//! The rows say only what the judges' pages say; what a judge does not publish is `None`
//! rather than a guess.

use std::time::Duration;

use crate::compare::CompareMode;
use crate::toolchain::language::LanguageId;
use crate::toolchain::program::JVM_RUNTIME_MIB;
use crate::toolchain::Limits;

const MIB: u64 = 1024 * 1024;

/// Where a judge states none: well past any answer of ours, short of filling the disk.
const OUTPUT_LIMIT_MIB: u64 = 64;

/// One language a judge offers.
#[derive(Debug)]
pub struct Offered {
    /// As the judge's language menu shows it.
    pub label: &'static str,
    /// `None` for a language we cannot build (listed so the user sees the whole menu).
    pub language: Option<LanguageId>,
    /// As published, in the language table's placeholders; `None`: the language table's.
    /// `-static` is dropped where the machine has no static C library
    /// (`Compiler::links_statically`).
    pub compile: Option<&'static [&'static str]>,
    /// As published; `None`: the language table's.
    pub run: Option<&'static [&'static str]>,
    /// The submitted file's name in the judge's commands, where that is not `Main.` and the
    /// language's first extension (or the Java class's file).
    pub file: Option<&'static str>,
    /// Used instead, with a warning, where this row's programs are not installed (Kattis's
    /// PyPy on a machine with only CPython).
    pub stand_in: Option<&'static Offered>,
}

/// How the judge runs what is submitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallForm {
    /// Reads stdin and writes stdout.
    Program,
    /// The judge calls a function of this name with the test's arguments; there is no stdin.
    Function { name: &'static str },
}

/// The main thread's stack size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackRule {
    /// The judge lets the stack use the memory limit: we give it 7/8, so that an overflow
    /// ends as the runtime error it is before the rest of memory makes it an MLE.
    MostOfMemory,
    Bytes(u64),
}

/// Extra time and memory a judge grants slower runtimes: limit × factor + extra.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Allowance {
    pub time_factor: u32,
    pub extra_time: Duration,
    pub memory_factor: u64,
    pub extra_memory_bytes: u64,
}

impl Allowance {
    pub const NONE: Allowance = Allowance {
        time_factor: 1,
        extra_time: Duration::ZERO,
        memory_factor: 1,
        extra_memory_bytes: 0,
    };

    pub fn apply(self, limits: Limits) -> Limits {
        Limits {
            cpu_time: limits.cpu_time * self.time_factor + self.extra_time,
            memory_bytes: limits.memory_bytes * self.memory_factor + self.extra_memory_bytes,
            ..limits
        }
    }
}

/// How the address of a problem's submit page is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmitForm {
    /// `url` with `{number}` replaced by the problem's number (from its `source` address,
    /// else the end of its id).
    Numbered {
        url: &'static str,
        /// What the page is, when it is not the judge's own submit form for the problem.
        note: Option<&'static str>,
    },
    /// `<host>/problems/<name>/submit`, from a Kattis problem's `source` address.
    KattisName,
    /// From a Codeforces `source` address: the contest (or gym) and the problem's index.
    CodeforcesContest,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitPage {
    pub url: String,
    /// As `SubmitForm::Numbered`'s.
    pub note: Option<&'static str>,
}

/// The convention a judge's solutions follow, which picks `judge new`'s templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaffoldKind {
    /// One test per run, read from stdin (Baekjoon, Kattis).
    SingleTest,
    /// A count of tests, then each; each answer after `#<test number> ` (SW Expert Academy).
    NumberedTests,
    /// A count of tests, then each (Codeforces).
    CountedTests,
    /// A function the judge calls, one call per test (Programmers).
    Function,
}

/// One online judge (`Profile::online_judge`).
#[derive(Debug)]
pub struct OnlineJudge {
    pub name: &'static str,
    /// A page imported from an address that contains one of these is the judge's.
    pub hosts: &'static [&'static str],
    /// Defaults; a problem's own figures in problem.toml override them.
    pub time_limit_ms: u64,
    pub memory_limit_mib: u64,
    /// Output past it is OLE.
    pub output_limit_mib: u64,
    pub stack: StackRule,
    pub code_limit_bytes: u64,
    /// When a problem names none.
    pub compare: CompareMode,
    /// Languages not listed get the problem's own limits.
    pub allowances: &'static [(LanguageId, Allowance)],
    pub submit: SubmitForm,
    pub scaffold: ScaffoldKind,
    /// Where `offered` comes from.
    pub languages_page: &'static str,
    /// For each of our languages, the first row is the one a solution is built and run
    /// with; `judge check` tries the others.
    pub offered: &'static [Offered],
    pub entry: CallForm,
    /// The class a Java submission must be (the judge compiles `<class>.java` and runs it).
    pub java_class: Option<&'static str>,
    /// The run folder holds `dev`, a link to `/dev`, so that a relative `dev/stdin` opens the
    /// standard input, as published Baekjoon answers in JavaScript read it.
    pub dev_in_run_folder: bool,
}

impl Offered {
    /// A row that says nothing of its own, to build others from.
    pub const NONE: Offered = Offered {
        label: "",
        language: None,
        compile: None,
        run: None,
        file: None,
        stand_in: None,
    };
}

const fn offered(label: &'static str, language: Option<LanguageId>) -> Offered {
    Offered {
        label,
        language,
        ..Offered::NONE
    }
}

const fn allowance(
    time_factor: u32,
    extra_ms: u64,
    memory_factor: u64,
    extra_mib: u64,
) -> Allowance {
    Allowance {
        time_factor,
        extra_time: Duration::from_millis(extra_ms),
        memory_factor,
        extra_memory_bytes: extra_mib * MIB,
    }
}

const BAEKJOON_JVM: Allowance = allowance(2, 1000, 2, 16);
/// Kattis' limit is the JVM's heap (`-Xmx`); the runtime beside it is not counted against it.
const KATTIS_JVM: Allowance = allowance(1, 0, 1, JVM_RUNTIME_MIB);
const BAEKJOON_PYTHON: Allowance = allowance(3, 2000, 2, 32);

/// Baekjoon's JVM for Java and Kotlin alike, and what it runs.
macro_rules! boj_jvm {
    ($($program:literal),+) => {
        &[
            "java", "-Xms1024m", "-Xmx1920m", "-Xss512m", "-Dfile.encoding=UTF-8",
            "-XX:+UseSerialGC", "-DONLINE_JUDGE=1", "-DBOJ=1", $($program),+
        ]
    };
}

/// Declares each judge's value and its `Profile` variant from one list (`Profile::ALL`,
/// `name` and `online_judge` are made here), so a new judge is one entry.
macro_rules! online_judges {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal => $judge:ident = $value:expr;)+) => {
        $($(#[doc = $doc])* pub const $judge: OnlineJudge = $value;)+

        /// An online judge whose behaviour a problem follows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
        pub enum Profile {
            $($(#[doc = $doc])* #[serde(rename = $name)] $variant,)+
        }

        impl Profile {
            pub const ALL: [Profile; [$(Profile::$variant),+].len()] = [$(Profile::$variant),+];

            /// As `problem.toml` and `--profile` spell it: `boj`, `swea`, ...
            pub fn name(self) -> &'static str {
                match self {
                    $(Profile::$variant => $name,)+
                }
            }

            pub fn online_judge(self) -> &'static OnlineJudge {
                match self {
                    $(Profile::$variant => &$judge,)+
                }
            }
        }
    };
}

online_judges! {
    /// Baekjoon: help.acmicpc.net/language/info, as copies of it show it (the page itself was
    /// not reachable); see docs/languages-and-judges.md.
    Boj = "boj" => BAEKJOON = OnlineJudge {
        name: "Baekjoon",
        hosts: &["acmicpc.net"],
        // Most problems give 1 s and 128-256 MB.
        time_limit_ms: 1000,
        memory_limit_mib: 256,
        output_limit_mib: OUTPUT_LIMIT_MIB,
        stack: StackRule::MostOfMemory,
        // The limit most judges share (a problem's page may say otherwise).
        code_limit_bytes: 64 << 10,
        compare: CompareMode::Baekjoon,
        // As its per-language table says.
        allowances: &[
            (LanguageId::Java, BAEKJOON_JVM),
            (LanguageId::Kotlin, BAEKJOON_JVM),
            (LanguageId::Python3, BAEKJOON_PYTHON),
        ],
        submit: SubmitForm::Numbered {
            url: "https://www.acmicpc.net/submit/{number}",
            note: None,
        },
        scaffold: ScaffoldKind::SingleTest,
        languages_page: "https://help.acmicpc.net/language/info",
        offered: &[
            Offered {
                compile: Some(&[
                    "gcc", "{source}", "-o", "{exe}", "-O2", "-Wall", "-lm", "-static",
                    "-std=gnu11", "-DONLINE_JUDGE", "-DBOJ",
                ]),
                ..offered("C11", Some(LanguageId::C))
            },
            Offered {
                compile: Some(&[
                    "g++", "{source}", "-o", "{exe}", "-O2", "-Wall", "-lm", "-static",
                    "-std=gnu++17", "-DONLINE_JUDGE", "-DBOJ",
                ]),
                file: Some("Main.cc"),
                ..offered("C++17", Some(LanguageId::Cpp))
            },
            Offered {
                // Baekjoon writes `-release 11`, the spelling javac took before JDK 9's
                // `--release`; the newer javac accepts only the latter.
                compile: Some(&[
                    "javac", "--release", "11", "-J-Xms1024m", "-J-Xmx1920m", "-J-Xss512m",
                    "-encoding", "UTF-8", "{source}",
                ]),
                run: Some(boj_jvm!("{class}")),
                ..offered("Java 11", Some(LanguageId::Java))
            },
            Offered {
                run: Some(&["python3", "-W", "ignore", "{source}"]),
                ..offered("Python 3", Some(LanguageId::Python3))
            },
            Offered {
                compile: Some(&["pypy3", "-W", "ignore", "-m", "py_compile", "{source}"]),
                run: Some(&["pypy3", "-W", "ignore", "{source}"]),
                ..offered("PyPy3", Some(LanguageId::Python3))
            },
            // Baekjoon offers both editions; a file may build under one and not the other
            // (`async` is a keyword from 2018 on, `TryFrom` is in the 2021 prelude only).
            Offered {
                compile: Some(&["rustc", "--edition", "2021", "-O", "-o", "{exe}", "{source}"]),
                ..offered("Rust 2021", Some(LanguageId::Rust))
            },
            Offered {
                compile: Some(&["rustc", "--edition", "2018", "-O", "-o", "{exe}", "{source}"]),
                ..offered("Rust 2018", Some(LanguageId::Rust))
            },
            Offered {
                compile: Some(&[
                    "kotlinc-jvm", "-J-Xms1024m", "-J-Xmx1920m", "-J-Xss512m", "-include-runtime",
                    "-d", "{exe}.jar", "{source}",
                ]),
                run: Some(boj_jvm!("-jar", "{exe}.jar")),
                ..offered("Kotlin (JVM)", Some(LanguageId::Kotlin))
            },
            Offered {
                run: Some(&["node", "--stack-size=65536", "{source}"]),
                ..offered("node.js", Some(LanguageId::JavaScript))
            },
            Offered {
                compile: Some(&["go", "build", "-o", "{exe}", "{source}"]),
                ..offered("Go", Some(LanguageId::Go))
            },
        ],
        entry: CallForm::Program,
        java_class: Some("Main"),
        dev_in_run_folder: true,
    };

    /// SW Expert Academy: it publishes no commands; its Java template names the class.
    Swea = "swea" => SW_EXPERT_ACADEMY = OnlineJudge {
        name: "SW Expert Academy",
        hosts: &["swexpertacademy.com"],
        // 256 MB of heap.
        time_limit_ms: 2000,
        memory_limit_mib: 256,
        output_limit_mib: OUTPUT_LIMIT_MIB,
        // A famously small stack.
        stack: StackRule::Bytes(MIB),
        code_limit_bytes: 64 << 10,
        compare: CompareMode::Lines,
        allowances: &[],
        submit: SubmitForm::Numbered {
            url: "https://swexpertacademy.com/main/code/problem/problemList.do?problemTitle={number}",
            note: Some(
                "SW Expert Academy's problem list searched for the number: its problem \
                 pages have addresses of their own, not made from the number",
            ),
        },
        scaffold: ScaffoldKind::NumberedTests,
        languages_page: "https://swexpertacademy.com/main/code/problem/problemList.do",
        // C, C++, Java and Python only; no Rust.
        offered: &[
            offered("C", Some(LanguageId::C)),
            offered("C++", Some(LanguageId::Cpp)),
            offered("Java", Some(LanguageId::Java)),
            offered("Python", Some(LanguageId::Python3)),
        ],
        entry: CallForm::Program,
        java_class: Some("Solution"),
        dev_in_run_folder: false,
    };

    /// Programmers.
    Programmers = "programmers" => PROGRAMMERS = OnlineJudge {
        name: "Programmers",
        hosts: &["programmers.co.kr"],
        // It publishes none; generous ones stop only a runaway.
        time_limit_ms: 10_000,
        memory_limit_mib: 1024,
        output_limit_mib: OUTPUT_LIMIT_MIB,
        // It does not say: the usual stack of Linux.
        stack: StackRule::Bytes(8 * MIB),
        code_limit_bytes: 64 << 10,
        compare: CompareMode::Lines,
        allowances: &[],
        submit: SubmitForm::Numbered {
            url: "https://school.programmers.co.kr/learn/courses/30/lessons/{number}",
            note: Some("the problem's page: its editor is where the answer goes"),
        },
        scaffold: ScaffoldKind::Function,
        languages_page: "https://school.programmers.co.kr/learn/challenges",
        // As listed on the lesson pages we could find (no Rust).
        offered: &[
            offered("C", Some(LanguageId::C)),
            offered("C++", Some(LanguageId::Cpp)),
            offered("Java", Some(LanguageId::Java)),
            offered("Python3", Some(LanguageId::Python3)),
            offered("JavaScript", Some(LanguageId::JavaScript)),
            offered("Kotlin", Some(LanguageId::Kotlin)),
            offered("Swift", None),
            offered("Go", None),
            offered("C#", None),
            offered("Ruby", None),
            offered("Scala", None),
        ],
        entry: CallForm::Function { name: "solution" },
        java_class: Some("Solution"),
        dev_in_run_folder: false,
    };

    /// Kattis: problemtools' `problemtools/config/languages.yaml`, where it agrees with what
    /// this machine runs.
    Kattis = "kattis" => KATTIS = OnlineJudge {
        name: "Kattis",
        hosts: &["kattis.com"],
        // The system's defaults where the package format leaves them to it, as problemtools'
        // `config/problem.yaml` gives them: 1024 MiB of memory, 8 MiB of output (its OLE),
        // 128 KiB of code.
        time_limit_ms: 1000,
        memory_limit_mib: 1024,
        output_limit_mib: 8,
        stack: StackRule::MostOfMemory,
        code_limit_bytes: 128 << 10,
        compare: CompareMode::Tokens,
        allowances: &[
            (LanguageId::Java, KATTIS_JVM),
            (LanguageId::Kotlin, KATTIS_JVM),
        ],
        submit: SubmitForm::KattisName,
        scaffold: ScaffoldKind::SingleTest,
        languages_page: "https://open.kattis.com/languages",
        offered: &[
            // Its GCC is Ubuntu's (problemtools' reference image is ubuntu:24.04), which
            // protects the stack by default where Debian's does not: a stack buffer overflow
            // is a run-time error there.
            Offered {
                compile: Some(&[
                    "gcc", "-g", "-O2", "-std=gnu17", "-static", "-fstack-protector-strong", "-o",
                    "{exe}", "{sources}", "-lm",
                ]),
                ..offered("C", Some(LanguageId::C))
            },
            Offered {
                // problemtools says gnu++23, which needs GCC 11; `-lrt` and the whole-archive
                // pthread are for static threads.
                compile: Some(&[
                    "g++", "-g", "-O2", "-std=gnu++20", "-static", "-fstack-protector-strong",
                    "-o", "{exe}", "{sources}", "-lrt", "-Wl,--whole-archive", "-lpthread",
                    "-Wl,--no-whole-archive",
                ]),
                ..offered("C++", Some(LanguageId::Cpp))
            },
            Offered {
                // Its whole heap from the start, 64 MiB thread stacks; the heap is the
                // problem's limit, as problemtools sets no other for a JVM.
                run: Some(&[
                    "java", "-Dfile.encoding=UTF-8", "-XX:+UseSerialGC", "-Xss64m",
                    "-Xms{heap_mib}m", "-Xmx{heap_mib}m", "{class}",
                ]),
                ..offered("Java", Some(LanguageId::Java))
            },
            Offered {
                // As Java's: the heap is the limit.
                run: Some(&[
                    "kotlin", "-Dfile.encoding=UTF-8", "-J-XX:+UseSerialGC", "-J-Xss64m",
                    "-J-Xms{heap_mib}m", "-J-Xmx{heap_mib}m", "-cp", "{dir}", "{class}",
                ]),
                ..offered("Kotlin", Some(LanguageId::Kotlin))
            },
            Offered {
                // problemtools' "Python 3 (w/PyPy3)"; the language table's CPython where PyPy
                // is not installed.
                compile: Some(&["pypy3", "-m", "py_compile", "{sources}"]),
                run: Some(&["pypy3", "{source}"]),
                stand_in: Some(&offered("Python 3 (CPython)", Some(LanguageId::Python3))),
                ..offered("Python 3 (PyPy)", Some(LanguageId::Python3))
            },
            offered("Rust", Some(LanguageId::Rust)),
        ],
        entry: CallForm::Program,
        java_class: None,
        dev_in_run_folder: false,
    };

    /// Codeforces: codeforces.com/blog/entry/121114 ("command lines"), as copies of it show it.
    /// It judges on Windows, where `-Wl,--stack=268435456` (and Rust's `/STACK`) set the stack
    /// at link time; here the run's stack limit does (`Profile::stack_bytes`).
    Codeforces = "codeforces" => CODEFORCES = OnlineJudge {
        name: "Codeforces",
        hosts: &["codeforces.com"],
        // Most problems give 1-2 s and 256 MB.
        time_limit_ms: 1000,
        memory_limit_mib: 256,
        output_limit_mib: OUTPUT_LIMIT_MIB,
        // It sets the stack to the memory limit, as Baekjoon does.
        stack: StackRule::MostOfMemory,
        code_limit_bytes: 64 << 10,
        compare: CompareMode::Tokens,
        allowances: &[],
        submit: SubmitForm::CodeforcesContest,
        scaffold: ScaffoldKind::CountedTests,
        languages_page: "https://codeforces.com/blog/entry/79",
        offered: &[
            Offered {
                // `-lm` after the file: on Linux a static link takes libraries in order.
                compile: Some(&[
                    "gcc", "-std=c11", "-static", "-DONLINE_JUDGE", "-fno-asm", "-s", "-O2", "-o",
                    "{exe}", "{source}", "-lm",
                ]),
                ..offered("GNU C11", Some(LanguageId::C))
            },
            Offered {
                compile: Some(&[
                    "g++", "-static", "-DONLINE_JUDGE", "-O2", "-std=c++17", "-o", "{exe}",
                    "{source}",
                ]),
                ..offered("GNU G++17", Some(LanguageId::Cpp))
            },
            Offered {
                run: Some(&[
                    "java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:NewRatio=5",
                    "-Xms8M", "-Xmx{memory_mib}M", "-Xss64M", "-DONLINE_JUDGE=true", "{class}",
                ]),
                ..offered("Java 21", Some(LanguageId::Java))
            },
            offered("Python 3", Some(LanguageId::Python3)),
            Offered {
                // A Polygon solution of type `python.pypy3` (`Sources::on_pypy`); the
                // language table's CPython where PyPy is not installed.
                compile: Some(&["pypy3", "-m", "py_compile", "{sources}"]),
                run: Some(&["pypy3", "{source}"]),
                stand_in: Some(&offered("Python 3 (CPython)", Some(LanguageId::Python3))),
                ..offered("PyPy 3", Some(LanguageId::Python3))
            },
            Offered {
                compile: Some(&[
                    "rustc", "--edition=2021", "-O", "--cfg", "ONLINE_JUDGE", "-o", "{exe}",
                    "{source}",
                ]),
                ..offered("Rust 2021", Some(LanguageId::Rust))
            },
        ],
        entry: CallForm::Program,
        java_class: None,
        dev_in_run_folder: false,
    };
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl OnlineJudge {
    /// The row of `language` that runs on PyPy, if the judge offers one.
    pub fn pypy_row(&self, language: LanguageId) -> Option<&'static Offered> {
        let on_pypy = |offer: &&Offered| offer.run.is_some_and(|run| run[0].starts_with("pypy"));
        self.offers(language).into_iter().find(on_pypy)
    }

    pub fn limits(&self) -> Limits {
        let memory_bytes = self.memory_limit_mib * MIB;
        Limits {
            cpu_time: Duration::from_millis(self.time_limit_ms),
            memory_bytes,
            output_bytes: self.output_limit_mib * MIB,
            decided_at: None,
            stack_bytes: self.stack_bytes(memory_bytes),
        }
    }

    pub fn stack_bytes(&self, memory_bytes: u64) -> u64 {
        match self.stack {
            StackRule::MostOfMemory => memory_bytes - memory_bytes / 8,
            StackRule::Bytes(bytes) => bytes,
        }
    }

    pub fn allowance(&self, language: LanguageId) -> Allowance {
        self.allowances
            .iter()
            .find(|(granted, _)| *granted == language)
            .map_or(Allowance::NONE, |(_, allowance)| *allowance)
    }

    pub fn hosts_page(&self, url: &str) -> bool {
        self.hosts.iter().any(|host| url.contains(host))
    }

    /// The page to submit problem `id` on, where its address can be made from the problem's
    /// `source` address or id.
    pub fn submit_page(&self, id: &str, source: Option<&str>) -> Option<SubmitPage> {
        let page = |url: String| SubmitPage { url, note: None };
        match self.submit {
            SubmitForm::Numbered { url, note } => {
                let from_source =
                    source.and_then(|url| trailing_number(url.split(['?', '#']).next()?));
                let number = from_source.or_else(|| trailing_number(id))?;
                Some(SubmitPage {
                    url: url.replace("{number}", number),
                    note,
                })
            }
            SubmitForm::KattisName => {
                let url = source?;
                let name = url
                    .split("/problems/")
                    .nth(1)?
                    .split(['/', '?', '#'])
                    .next()?;
                let host = url.split("/problems/").next()?;
                Some(page(format!("{host}/problems/{name}/submit")))
            }
            SubmitForm::CodeforcesContest => codeforces_submit(source?).map(page),
        }
    }

    pub fn offers(&self, language: LanguageId) -> Vec<&'static Offered> {
        self.offered
            .iter()
            .filter(|offer| offer.language == Some(language))
            .collect()
    }

    pub fn accepts(&self, language: LanguageId) -> bool {
        !self.offers(language).is_empty()
    }

    /// The judge's language labels, for a message.
    pub fn menu(&self) -> String {
        let labels: Vec<&str> = self.offered.iter().map(|offer| offer.label).collect();
        labels.join(", ")
    }
}

/// The submit form for a Codeforces problem set's, contest's or gym's problem at `url`.
fn codeforces_submit(url: &str) -> Option<String> {
    let parts: Vec<&str> = url.split(['/', '?', '#']).collect();
    let at = |key: &str| parts.iter().position(|part| *part == key);
    let (contest, index) = if let Some(at) = at("problemset") {
        (parts.get(at + 2)?, parts.get(at + 3)?)
    } else {
        let at = at("contest").or_else(|| at("gym"))?;
        (parts.get(at + 1)?, parts.get(at + 3)?)
    };
    let kind = if at("gym").is_some() {
        "gym"
    } else {
        "contest"
    };
    Some(format!(
        "https://codeforces.com/{kind}/{contest}/submit/{index}"
    ))
}

/// The digits at the end of `text` (`boj_2615`, `.../problem/2615`), if any.
fn trailing_number(text: &str) -> Option<&str> {
    let text = text.trim_end_matches('/');
    let digits = text.len() - text.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| &text[text.len() - digits..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::language::LANGUAGES;

    /// Every judge, found through its profile, so that a test of them all leaves none out.
    fn judges() -> impl Iterator<Item = &'static OnlineJudge> {
        Profile::ALL.into_iter().map(Profile::online_judge)
    }

    #[test]
    fn every_row_names_known_languages() {
        for offer in judges().flat_map(|judge| judge.offered) {
            if let Some(language) = offer.language {
                assert!(
                    LANGUAGES.iter().any(|known| known.id == language),
                    "{} names `{language:?}`, not in the language table",
                    offer.label
                );
            }
        }
    }

    #[test]
    fn what_the_issue_says_each_judge_takes() {
        let swea = SW_EXPERT_ACADEMY;
        assert!(!swea.accepts(LanguageId::Rust));
        for language in [
            LanguageId::C,
            LanguageId::Cpp,
            LanguageId::Java,
            LanguageId::Python3,
        ] {
            assert!(swea.accepts(language), "{language:?}");
        }
        assert!(!PROGRAMMERS.accepts(LanguageId::Rust));
        let editions: Vec<&str> = BAEKJOON
            .offers(LanguageId::Rust)
            .iter()
            .map(|offer| offer.label)
            .collect();
        assert_eq!(
            editions,
            ["Rust 2021", "Rust 2018"],
            "2021 first: solutions build so"
        );
        assert_eq!(PROGRAMMERS.entry, CallForm::Function { name: "solution" });
    }

    #[test]
    fn every_judge_grants_allowances_only_to_languages_it_takes() {
        for judge in judges() {
            for (language, _) in judge.allowances {
                assert!(judge.accepts(*language), "{}: {language:?}", judge.name);
            }
        }
    }

    #[test]
    fn every_judge_says_where_its_problems_are_and_numbered_pages_take_the_number() {
        for judge in judges() {
            assert!(!judge.hosts.is_empty(), "{}", judge.name);
            if let SubmitForm::Numbered { url, .. } = judge.submit {
                assert!(url.contains("{number}"), "{}: {url}", judge.name);
            }
        }
    }

    #[test]
    fn allowances_are_the_judges_own() {
        let python = BAEKJOON.allowance(LanguageId::Python3);
        assert_eq!(python.time_factor, 3);
        assert_eq!(python.extra_time, Duration::from_secs(2));
        assert_eq!(BAEKJOON.allowance(LanguageId::Kotlin), BAEKJOON_JVM);
        assert_eq!(BAEKJOON.allowance(LanguageId::Rust), Allowance::NONE);
        assert_eq!(KATTIS.allowance(LanguageId::Python3), Allowance::NONE);
        let java = KATTIS.allowance(LanguageId::Java).apply(KATTIS.limits());
        assert_eq!(java.memory_bytes, (1024 + JVM_RUNTIME_MIB) * MIB);
    }

    #[test]
    fn submit_pages_are_made_from_the_problems_number_where_the_judge_allows() {
        let url = |profile: Profile, id: &str, source: Option<&str>| {
            profile
                .online_judge()
                .submit_page(id, source)
                .map(|page| page.url)
        };
        assert_eq!(
            url(
                Profile::Boj,
                "boj_2615",
                Some("https://www.acmicpc.net/problem/2615")
            )
            .as_deref(),
            Some("https://www.acmicpc.net/submit/2615")
        );
        assert_eq!(
            url(Profile::Boj, "boj_1000", None).as_deref(),
            Some("https://www.acmicpc.net/submit/1000")
        );
        assert_eq!(url(Profile::Boj, "omok", None), None);
        assert_eq!(
            url(
                Profile::Swea,
                "swea_11545",
                Some("https://swexpertacademy.com/x (problem 11545)")
            )
            .as_deref(),
            Some("https://swexpertacademy.com/main/code/problem/problemList.do?problemTitle=11545")
        );
        assert_eq!(
            url(
                Profile::Programmers,
                "p",
                Some("https://school.programmers.co.kr/learn/courses/30/lessons/160585")
            )
            .as_deref(),
            Some("https://school.programmers.co.kr/learn/courses/30/lessons/160585")
        );
        assert_eq!(
            url(
                Profile::Codeforces,
                "cf",
                Some("https://codeforces.com/problemset/problem/1950/A")
            )
            .as_deref(),
            Some("https://codeforces.com/contest/1950/submit/A")
        );
        assert_eq!(
            url(
                Profile::Codeforces,
                "cf",
                Some("https://codeforces.com/gym/104114/problem/B")
            )
            .as_deref(),
            Some("https://codeforces.com/gym/104114/submit/B")
        );
        assert_eq!(
            url(
                Profile::Kattis,
                "hello",
                Some("https://open.kattis.com/problems/hello")
            )
            .as_deref(),
            Some("https://open.kattis.com/problems/hello/submit")
        );
        assert_eq!(url(Profile::Kattis, "hello", None), None);
    }

    #[test]
    fn every_profile_has_a_judge_of_its_own() {
        let judges: Vec<&str> = Profile::ALL
            .iter()
            .map(|profile| profile.online_judge().name)
            .collect();
        // The first five in their order; a judge added later goes after them, and no two
        // profiles share one.
        assert_eq!(
            judges[..5],
            [
                "Baekjoon",
                "SW Expert Academy",
                "Programmers",
                "Kattis",
                "Codeforces"
            ]
        );
        let distinct: std::collections::BTreeSet<&str> = judges.iter().copied().collect();
        assert_eq!(distinct.len(), judges.len());
    }

    #[test]
    fn every_profile_is_spelled_as_problem_toml_takes_it() {
        use serde::de::{value, IntoDeserializer};
        use serde::Deserialize;
        for profile in Profile::ALL {
            let read = Profile::deserialize(IntoDeserializer::<value::Error>::into_deserializer(
                profile.name(),
            ));
            assert_eq!(read, Ok(profile));
        }
    }

    #[test]
    fn defaults_are_each_judges_own() {
        let boj = BAEKJOON.limits();
        assert_eq!(boj.cpu_time, std::time::Duration::from_secs(1));
        assert_eq!(boj.memory_bytes, 256 << 20);
        assert_eq!(boj.stack_bytes, 224 << 20);
        assert_eq!(SW_EXPERT_ACADEMY.stack_bytes(256 << 20), 1 << 20);
        assert_eq!(PROGRAMMERS.stack_bytes(256 << 20), 8 << 20);
        assert_eq!(KATTIS.code_limit_bytes, 128 << 10);
        assert_eq!(CODEFORCES.code_limit_bytes, 64 << 10);
        assert_eq!(KATTIS.compare, CompareMode::Tokens);
        assert_eq!(SW_EXPERT_ACADEMY.compare, CompareMode::Lines);
    }
}
