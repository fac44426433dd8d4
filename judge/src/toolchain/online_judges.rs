//! Everything about each online judge, as one value per judge: its default limits, stack and
//! code size, compare mode, the languages it takes (under the judge's own names) with its
//! commands where it publishes them, the extra time and memory it grants some of them, how it
//! calls a submission (a program on stdin/stdout, or a function such as Programmers'
//! `solution`), its submit page, the addresses of its problems, and the templates `judge new`
//! gives its problems. A judge changing any of it is a field to edit here, not a code path;
//! a new judge is a new value (and its line in `problem::profile`), and a field left out is a
//! compile error.
//!
//! The rows say only what the judges' pages say, as far as we could find; where a judge does
//! not publish a command or a version, the field is `None` rather than a guess.

use std::time::Duration;

use crate::compare::CompareMode;
use crate::toolchain::language::LanguageId;
use crate::toolchain::Limits;

const MIB: u64 = 1024 * 1024;

/// One language a judge offers.
#[derive(Debug)]
pub struct Offered {
    /// The judge's own name for it, as its language menu shows it.
    pub label: &'static str,
    /// The row of our language table it corresponds to; `None` for a language we cannot
    /// build here (it is still listed, so the user sees the whole menu).
    pub language: Option<LanguageId>,
    /// The judge's compile command as it publishes it; `None` where it publishes none (the
    /// language table's is used). In the language table's words: `{source}` the submitted
    /// file, `{exe}` the program; `-static` is dropped where the machine has no static C
    /// library (`Compiler::static_linking`).
    pub compile: Option<&'static [&'static str]>,
    /// The judge's run command as it publishes it; `None`: the language table's. `{class}` is
    /// the main class, `{memory_mib}` the run's memory limit.
    pub run: Option<&'static [&'static str]>,
    /// The compiler or runtime version the judge publishes.
    pub version: Option<&'static str>,
    /// What the judge names the submitted file in its commands, where that is not `Main.`
    /// and the language's first extension (or the Java class's file).
    pub file: Option<&'static str>,
    /// The row used in its place where this one's programs are not installed here, with a
    /// warning (Kattis's PyPy, on a machine with only CPython).
    pub stand_in: Option<&'static Offered>,
}

/// How the judge runs what is submitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallForm {
    /// A whole program reading stdin and writing stdout.
    Program,
    /// The judge calls a function of this name with the test's arguments; there is no stdin.
    Function { name: &'static str },
}

/// How big the main thread's stack is, for a given memory limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackRule {
    /// The judge lets the stack use the memory limit: we give it 7/8 of it, so that an
    /// overflow ends as the runtime error it is before the rest of the program's memory makes
    /// it an MLE.
    MostOfMemory,
    /// A fixed size, whatever the memory limit.
    Bytes(u64),
}

/// Extra time and memory a judge grants slower runtimes: limit × factor + extra.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Allowance {
    /// What the CPU time limit is multiplied by.
    pub time_factor: u32,
    /// What is added to the CPU time limit after that.
    pub extra_time: Duration,
    /// What the memory limit is multiplied by.
    pub memory_factor: u64,
    /// What is added to the memory limit after that.
    pub extra_memory_bytes: u64,
}

impl Allowance {
    /// The problem's own limits.
    pub const NONE: Allowance = Allowance {
        time_factor: 1,
        extra_time: Duration::ZERO,
        memory_factor: 1,
        extra_memory_bytes: 0,
    };

    /// The limits a program of the language runs with.
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
    /// `url` with `{number}` replaced by the problem's number (in its `source` address, else
    /// at the end of its id).
    Numbered {
        url: &'static str,
        /// What the page is, when it is not the judge's own submit form for the problem.
        note: Option<&'static str>,
    },
    /// `<host>/problems/<name>/submit`, from a Kattis problem's `source` address.
    KattisName,
    /// The contest (or gym) and the problem's index, from a Codeforces `source` address.
    CodeforcesContest,
}

/// Where a problem is handed in on its judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitPage {
    pub url: String,
    /// What the page is, when it is not the judge's own submit form for the problem.
    pub note: Option<&'static str>,
}

/// The convention a judge's solutions follow: `judge new` writes its templates and
/// placeholder task in it (the templates themselves are the corpus' own).
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

/// One online judge (a problem's profile names its judge: `Profile::online_judge`).
#[derive(Debug)]
pub struct OnlineJudge {
    /// The judge's name for people.
    pub name: &'static str,
    /// What the address of each of its problems contains (its host): a page imported from an
    /// address is taken to be the judge's by it.
    pub hosts: &'static [&'static str],
    /// Default limits; per-problem figures on the judge's pages override these in
    /// problem.toml.
    pub time_limit_ms: u64,
    pub memory_limit_mib: u64,
    /// The main thread's stack.
    pub stack: StackRule,
    /// The largest source the judge takes.
    pub code_limit_bytes: u64,
    /// The compare mode the judge uses when a problem names none.
    pub compare: CompareMode,
    /// What it adds to the limits for some languages; any other gets the problem's own.
    pub allowances: &'static [(LanguageId, Allowance)],
    /// How the address of a problem's submit page is made.
    pub submit: SubmitForm,
    /// The convention its solutions follow, which picks `judge new`'s templates.
    pub scaffold: ScaffoldKind,
    /// Where the list below comes from.
    pub languages_page: &'static str,
    /// Its languages; for each of ours, the first row of it is the one a solution is built
    /// and run with, the others are tried by `judge check`.
    pub offered: &'static [Offered],
    pub entry: CallForm,
    /// The class a Java submission must be (the judge compiles `<class>.java` and runs it).
    pub java_class: Option<&'static str>,
    /// A relative `dev/stdin` opens the standard input, as published Baekjoon answers in
    /// JavaScript read it: the run folder holds `dev`, a link to `/dev`.
    pub dev_in_run_folder: bool,
}

impl Offered {
    /// A row that says nothing of its own, to build others from.
    pub const NONE: Offered = Offered {
        label: "",
        language: None,
        compile: None,
        run: None,
        version: None,
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

/// Baekjoon's allowance for Java and Kotlin: ×2 + 1 s, ×2 + 16 MB.
const BAEKJOON_JVM: Allowance = allowance(2, 1000, 2, 16);
/// Baekjoon's allowance for Python: ×3 + 2 s, ×2 + 32 MB.
const BAEKJOON_PYTHON: Allowance = allowance(3, 2000, 2, 32);

/// Baekjoon's JVM for Java and Kotlin alike, and what it runs.
macro_rules! boj_jvm {
    ($($program:literal),+) => {
        &[
            "java",
            "-Xms1024m",
            "-Xmx1920m",
            "-Xss512m",
            "-Dfile.encoding=UTF-8",
            "-XX:+UseSerialGC",
            "-DONLINE_JUDGE=1",
            "-DBOJ=1",
            $($program),+
        ]
    };
}

/// Declares each online judge's value and `Profile`, the name a problem gives it, from one
/// list: a judge is one entry (its variant, its name in `problem.toml`, its value), and
/// nothing else needs an edit for it (`Profile::ALL`, `name` and `online_judge` are made
/// here; a field left out of a value is a compile error).
macro_rules! online_judges {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal => $judge:ident = $value:expr;)+) => {
        $($(#[doc = $doc])* pub const $judge: OnlineJudge = $value;)+

        /// An online judge whose behaviour a problem follows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
        pub enum Profile {
            $($(#[doc = $doc])* #[serde(rename = $name)] $variant,)+
        }

        impl Profile {
            /// Every profile, in the order they are listed.
            pub const ALL: [Profile; [$(Profile::$variant),+].len()] = [$(Profile::$variant),+];

            /// As `problem.toml` and `--profile` spell it: `boj`, `swea`, ...
            pub fn name(self) -> &'static str {
                match self {
                    $(Profile::$variant => $name,)+
                }
            }

            /// The online judge this profile judges as: everything about it.
            pub fn online_judge(self) -> &'static OnlineJudge {
                match self {
                    $(Profile::$variant => &$judge,)+
                }
            }
        }
    };
}

online_judges! {
    /// Baekjoon: help.acmicpc.net/language/info, as copies of it show it (the page itself was not
    /// reachable from here); see docs/languages-and-judges.md.
    Boj = "boj" => BAEKJOON = OnlineJudge {
        name: "Baekjoon",
        hosts: &["acmicpc.net"],
        // Most problems give 1 s and 128-256 MB.
        time_limit_ms: 1000,
        memory_limit_mib: 256,
        stack: StackRule::MostOfMemory,
        // The limit most judges share (a problem's page may say otherwise).
        code_limit_bytes: 64 << 10,
        compare: CompareMode::Baekjoon,
        // The JVM and CPython get more, as its per-language table says.
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
                    "gcc",
                    "{source}",
                    "-o",
                    "{exe}",
                    "-O2",
                    "-Wall",
                    "-lm",
                    "-static",
                    "-std=gnu11",
                    "-DONLINE_JUDGE",
                    "-DBOJ",
                ]),
                ..offered("C11", Some(LanguageId::C))
            },
            Offered {
                compile: Some(&[
                    "g++",
                    "{source}",
                    "-o",
                    "{exe}",
                    "-O2",
                    "-Wall",
                    "-lm",
                    "-static",
                    "-std=gnu++17",
                    "-DONLINE_JUDGE",
                    "-DBOJ",
                ]),
                file: Some("Main.cc"),
                ..offered("C++17", Some(LanguageId::Cpp))
            },
            Offered {
                // Baekjoon writes `-release 11`, the spelling javac took before JDK 9's
                // `--release`; the newer javac accepts only the latter.
                compile: Some(&[
                    "javac",
                    "--release",
                    "11",
                    "-J-Xms1024m",
                    "-J-Xmx1920m",
                    "-J-Xss512m",
                    "-encoding",
                    "UTF-8",
                    "{source}",
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
                compile: Some(&[
                    "rustc",
                    "--edition",
                    "2021",
                    "-O",
                    "-o",
                    "{exe}",
                    "{source}",
                ]),
                ..offered("Rust 2021", Some(LanguageId::Rust))
            },
            Offered {
                compile: Some(&[
                    "rustc",
                    "--edition",
                    "2018",
                    "-O",
                    "-o",
                    "{exe}",
                    "{source}",
                ]),
                ..offered("Rust 2018", Some(LanguageId::Rust))
            },
            Offered {
                compile: Some(&[
                    "kotlinc-jvm",
                    "-J-Xms1024m",
                    "-J-Xmx1920m",
                    "-J-Xss512m",
                    "-include-runtime",
                    "-d",
                    "{exe}.jar",
                    "{source}",
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
        // It publishes no limits; generous ones stop only a runaway.
        time_limit_ms: 10_000,
        memory_limit_mib: 1024,
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
        // As listed on the lesson pages we could find; Rust is not among them. Correct this
        // row if the judge adds it.
        offered: &[
            offered("C", Some(LanguageId::C)),
            offered("C++", Some(LanguageId::Cpp)),
            offered("Java", Some(LanguageId::Java)),
            offered("Python3", Some(LanguageId::Python3)),
            offered("JavaScript", None),
            offered("Kotlin", None),
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

    /// Kattis: problemtools' `problemtools/config/languages.yaml` (the package tools' own table),
    /// where it agrees with what this machine runs.
    Kattis = "kattis" => KATTIS = OnlineJudge {
        name: "Kattis",
        hosts: &["kattis.com"],
        // The problem package format's defaults: 2048 MiB of memory, 128 KiB of code.
        time_limit_ms: 1000,
        memory_limit_mib: 2048,
        stack: StackRule::MostOfMemory,
        code_limit_bytes: 128 << 10,
        compare: CompareMode::Tokens,
        allowances: &[],
        submit: SubmitForm::KattisName,
        scaffold: ScaffoldKind::SingleTest,
        languages_page: "https://open.kattis.com/languages",
        offered: &[
            Offered {
                compile: Some(&[
                    "gcc",
                    "-g",
                    "-O2",
                    "-std=gnu17",
                    "-static",
                    "-o",
                    "{exe}",
                    "{sources}",
                    "-lm",
                ]),
                ..offered("C", Some(LanguageId::C))
            },
            Offered {
                // problemtools says gnu++23, which needs GCC 11; `-lrt` and the whole-archive
                // pthread are for static threads.
                compile: Some(&[
                    "g++",
                    "-g",
                    "-O2",
                    "-std=gnu++20",
                    "-static",
                    "-o",
                    "{exe}",
                    "{sources}",
                    "-lrt",
                    "-Wl,--whole-archive",
                    "-lpthread",
                    "-Wl,--no-whole-archive",
                ]),
                ..offered("C++", Some(LanguageId::Cpp))
            },
            Offered {
                // Its whole heap from the start, 64 MiB thread stacks.
                run: Some(&[
                    "java",
                    "-Dfile.encoding=UTF-8",
                    "-XX:+UseSerialGC",
                    "-Xss64m",
                    "-Xms{memory_mib}m",
                    "-Xmx{memory_mib}m",
                    "{class}",
                ]),
                ..offered("Java", Some(LanguageId::Java))
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
    /// It judges on Windows: its `-Wl,--stack=268435456` (and Rust's `/STACK`) set the stack at
    /// link time there; here the stack limit is the run's (`Profile::stack_bytes`).
    Codeforces = "codeforces" => CODEFORCES = OnlineJudge {
        name: "Codeforces",
        hosts: &["codeforces.com"],
        // Most problems give 1-2 s and 256 MB.
        time_limit_ms: 1000,
        memory_limit_mib: 256,
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
                    "gcc",
                    "-std=c11",
                    "-static",
                    "-DONLINE_JUDGE",
                    "-fno-asm",
                    "-s",
                    "-O2",
                    "-o",
                    "{exe}",
                    "{source}",
                    "-lm",
                ]),
                ..offered("GNU C11", Some(LanguageId::C))
            },
            Offered {
                compile: Some(&[
                    "g++",
                    "-static",
                    "-DONLINE_JUDGE",
                    "-O2",
                    "-std=c++17",
                    "-o",
                    "{exe}",
                    "{source}",
                ]),
                ..offered("GNU G++17", Some(LanguageId::Cpp))
            },
            Offered {
                run: Some(&[
                    "java",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:NewRatio=5",
                    "-Xms8M",
                    "-Xmx{memory_mib}M",
                    "-Xss64M",
                    "-DONLINE_JUDGE=true",
                    "{class}",
                ]),
                ..offered("Java 21", Some(LanguageId::Java))
            },
            offered("Python 3", Some(LanguageId::Python3)),
            offered("PyPy 3", Some(LanguageId::Python3)),
            Offered {
                compile: Some(&[
                    "rustc",
                    "--edition=2021",
                    "-O",
                    "--cfg",
                    "ONLINE_JUDGE",
                    "-o",
                    "{exe}",
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

impl OnlineJudge {
    /// Its default limits.
    pub fn limits(&self) -> Limits {
        let memory_bytes = self.memory_limit_mib * MIB;
        Limits {
            cpu_time: Duration::from_millis(self.time_limit_ms),
            memory_bytes,
            output_bytes: 64 * MIB,
            decided_at: None,
            stack_bytes: self.stack_bytes(memory_bytes),
        }
    }

    /// The main thread's stack for a given memory limit.
    pub fn stack_bytes(&self, memory_bytes: u64) -> u64 {
        match self.stack {
            StackRule::MostOfMemory => memory_bytes - memory_bytes / 8,
            StackRule::Bytes(bytes) => bytes,
        }
    }

    /// What the judge adds to the limits for a language.
    pub fn allowance(&self, language: LanguageId) -> Allowance {
        self.allowances
            .iter()
            .find(|(granted, _)| *granted == language)
            .map_or(Allowance::NONE, |(_, allowance)| *allowance)
    }

    /// Whether a problem's address is on this judge.
    pub fn hosts_page(&self, url: &str) -> bool {
        self.hosts.iter().any(|host| url.contains(host))
    }

    /// The judge's page to submit problem `id` on, where its addresses can be made from what
    /// the problem says (its `source` address, its id).
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

    /// The judge's offers for one of our languages (empty when it does not take it).
    pub fn offers(&self, language: LanguageId) -> Vec<&'static Offered> {
        self.offered
            .iter()
            .filter(|offer| offer.language == Some(language))
            .collect()
    }

    /// Whether the judge takes files of this language.
    pub fn accepts(&self, language: LanguageId) -> bool {
        !self.offers(language).is_empty()
    }

    /// The judge's languages, by its own names, for a message.
    pub fn menu(&self) -> String {
        let labels: Vec<&str> = self.offered.iter().map(|offer| offer.label).collect();
        labels.join(", ")
    }
}

/// Codeforces' submit form for the problem at `url`: a problem set's, a contest's or a gym's.
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
    use crate::problem::profile::Profile;
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
        assert_eq!(KATTIS.allowance(LanguageId::Java), Allowance::NONE);
    }
}
