//! What each online judge accepts, as data: the languages it takes (under the judge's own
//! names), its compile command where it publishes one, and how it calls a submission (a
//! program on stdin/stdout, or a function such as Programmers' `solution`). A judge changing
//! its list is a row to edit here, not a code path.
//!
//! The rows say only what the judges' pages say, as far as we could find; where a judge does
//! not publish a command or a version, the field is `None` rather than a guess.

/// One language a judge offers.
#[derive(Debug)]
pub struct Offered {
    /// The judge's own name for it, as its language menu shows it.
    pub label: &'static str,
    /// The row of our language table it corresponds to (`Language::name`); `None` for a
    /// language we cannot build here (it is still listed, so the user sees the whole menu).
    pub language: Option<&'static str>,
    /// The judge's compile command as it publishes it (less `-static`, which needs static
    /// libraries few machines have), `{source}` the submitted file and `{exe}` the program.
    /// `check` builds with it where the file's language has one.
    pub compile: Option<&'static [&'static str]>,
    /// The compiler or runtime version the judge publishes.
    pub version: Option<&'static str>,
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
    pub offered: &'static [Offered],
    pub entry: CallForm,
    /// The class a Java submission must be named (the file the judge compiles).
    pub java_class: Option<&'static str>,
}

const fn offered(label: &'static str, language: Option<&'static str>) -> Offered {
    Offered {
        label,
        language,
        compile: None,
        version: None,
    }
}

/// Baekjoon.
pub const BAEKJOON: OnlineJudge = OnlineJudge {
    name: "Baekjoon",
    languages_page: "https://help.acmicpc.net/language/info",
    offered: &[
        Offered {
            label: "C11",
            language: Some("C"),
            compile: Some(&[
                "gcc",
                "{source}",
                "-o",
                "{exe}",
                "-O2",
                "-Wall",
                "-lm",
                "-std=gnu11",
            ]),
            version: None,
        },
        Offered {
            label: "C++17",
            language: Some("C++"),
            compile: Some(&[
                "g++",
                "{source}",
                "-o",
                "{exe}",
                "-O2",
                "-Wall",
                "-lm",
                "-std=gnu++17",
            ]),
            version: None,
        },
        Offered {
            label: "Java 11",
            language: Some("Java"),
            compile: Some(&[
                "javac",
                "-J-XX:-UsePerfData",
                "--release",
                "11",
                "-encoding",
                "UTF-8",
                "{source}",
            ]),
            version: None,
        },
        offered("Python 3", Some("Python 3")),
        offered("PyPy3", Some("Python 3")),
        // Baekjoon offers both editions; a file may build under one and not the other
        // (`async` is a keyword from 2018 on, `TryFrom` is in the 2021 prelude only).
        Offered {
            label: "Rust 2018",
            language: Some("Rust"),
            compile: Some(&[
                "rustc",
                "--edition",
                "2018",
                "-O",
                "-o",
                "{exe}",
                "{source}",
            ]),
            version: None,
        },
        Offered {
            label: "Rust 2021",
            language: Some("Rust"),
            compile: Some(&[
                "rustc",
                "--edition",
                "2021",
                "-O",
                "-o",
                "{exe}",
                "{source}",
            ]),
            version: None,
        },
    ],
    entry: CallForm::Program,
    java_class: Some("Main"),
};

/// SW Expert Academy.
pub const SW_EXPERT_ACADEMY: OnlineJudge = OnlineJudge {
    name: "SW Expert Academy",
    languages_page: "https://swexpertacademy.com/main/code/problem/problemList.do",
    // C, C++, Java and Python only; no Rust.
    offered: &[
        offered("C", Some("C")),
        offered("C++", Some("C++")),
        offered("Java", Some("Java")),
        offered("Python", Some("Python 3")),
    ],
    entry: CallForm::Program,
    java_class: Some("Solution"),
};

/// Programmers.
pub const PROGRAMMERS: OnlineJudge = OnlineJudge {
    name: "Programmers",
    languages_page: "https://school.programmers.co.kr/learn/challenges",
    // As listed on the lesson pages we could find; Rust is not among them. Correct this
    // row if the judge adds it.
    offered: &[
        offered("C", Some("C")),
        offered("C++", Some("C++")),
        offered("Java", Some("Java")),
        offered("Python3", Some("Python 3")),
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
};

/// Kattis.
pub const KATTIS: OnlineJudge = OnlineJudge {
    name: "Kattis",
    languages_page: "https://open.kattis.com/languages",
    offered: &[
        offered("C", Some("C")),
        offered("C++", Some("C++")),
        offered("Java", Some("Java")),
        offered("Python 3", Some("Python 3")),
        offered("Rust", Some("Rust")),
    ],
    entry: CallForm::Program,
    java_class: None,
};

/// Codeforces.
pub const CODEFORCES: OnlineJudge = OnlineJudge {
    name: "Codeforces",
    languages_page: "https://codeforces.com/blog/entry/79",
    offered: &[
        offered("GNU C11", Some("C")),
        offered("GNU G++17", Some("C++")),
        offered("Java 21", Some("Java")),
        offered("Python 3", Some("Python 3")),
        offered("PyPy 3", Some("Python 3")),
        offered("Rust 2021", Some("Rust")),
    ],
    entry: CallForm::Program,
    java_class: None,
};

impl OnlineJudge {
    /// The judge's offers for one of our languages (empty when it does not take it).
    pub fn offers(&self, language: &str) -> Vec<&'static Offered> {
        self.offered
            .iter()
            .filter(|offer| offer.language == Some(language))
            .collect()
    }

    /// Whether the judge takes files of this language.
    pub fn accepts(&self, language: &str) -> bool {
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
                    LANGUAGES.iter().any(|known| known.name == language),
                    "{} names `{language}`, not in the language table",
                    offer.label
                );
            }
        }
    }

    #[test]
    fn what_the_issue_says_each_judge_takes() {
        let swea = SW_EXPERT_ACADEMY;
        assert!(!swea.accepts("Rust"));
        for language in ["C", "C++", "Java", "Python 3"] {
            assert!(swea.accepts(language), "{language}");
        }
        assert!(!PROGRAMMERS.accepts("Rust"));
        let editions: Vec<&str> = BAEKJOON
            .offers("Rust")
            .iter()
            .map(|offer| offer.label)
            .collect();
        assert_eq!(editions, ["Rust 2018", "Rust 2021"]);
        assert_eq!(PROGRAMMERS.entry, CallForm::Function { name: "solution" });
    }
}
