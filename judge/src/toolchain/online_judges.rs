//! What each online judge accepts, as data: the languages it takes (under the judge's own
//! names), its compile command where it publishes one, and how it calls a submission (a
//! program on stdin/stdout, or a function such as Programmers' `solution`). A judge changing
//! its list is a row to edit here, not a code path.
//!
//! The rows say only what the judges' pages say, as far as we could find; where a judge does
//! not publish a command or a version, the field is `None` rather than a guess.

use crate::toolchain::language::LanguageId;

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
}

/// How the judge runs what is submitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallForm {
    /// A whole program reading stdin and writing stdout.
    Program,
    /// The judge calls a function of this name with the test's arguments; there is no stdin.
    Function { name: &'static str },
}

/// What one judge takes (a problem's profile names its judge: `Profile::online_judge`).
#[derive(Debug)]
pub struct OnlineJudge {
    /// The judge's name for people.
    pub name: &'static str,
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

const fn offered(label: &'static str, language: Option<LanguageId>) -> Offered {
    Offered {
        label,
        language,
        compile: None,
        run: None,
        version: None,
        file: None,
    }
}

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

/// Baekjoon: help.acmicpc.net/language/info, as copies of it show it (the page itself was not
/// reachable from here); see docs/languages-and-judges.md.
pub const BAEKJOON: OnlineJudge = OnlineJudge {
    name: "Baekjoon",
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
pub const SW_EXPERT_ACADEMY: OnlineJudge = OnlineJudge {
    name: "SW Expert Academy",
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
pub const PROGRAMMERS: OnlineJudge = OnlineJudge {
    name: "Programmers",
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
pub const KATTIS: OnlineJudge = OnlineJudge {
    name: "Kattis",
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
        offered("Python 3", Some(LanguageId::Python3)),
        offered("Rust", Some(LanguageId::Rust)),
    ],
    entry: CallForm::Program,
    java_class: None,
    dev_in_run_folder: false,
};

/// Codeforces: codeforces.com/blog/entry/121114 ("command lines"), as copies of it show it.
/// It judges on Windows: its `-Wl,--stack=268435456` (and Rust's `/STACK`) set the stack at
/// link time there; here the stack limit is the run's (`Profile::stack_bytes`).
pub const CODEFORCES: OnlineJudge = OnlineJudge {
    name: "Codeforces",
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

impl OnlineJudge {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::language::LANGUAGES;

    #[test]
    fn every_row_names_known_languages() {
        let judges = [BAEKJOON, SW_EXPERT_ACADEMY, PROGRAMMERS, KATTIS, CODEFORCES];
        for offer in judges.iter().flat_map(|judge| judge.offered) {
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
}
