//! Judge profiles: the defaults a real online judge applies when a problem does not say
//! otherwise (limits, stack size, comparison). `problem.toml` picks one and may override any key.

use std::time::Duration;

use serde::Deserialize;

use crate::compare::CompareMode;
use crate::toolchain::language::LanguageId;

const MIB: u64 = 1024 * 1024;

/// The ranges a problem's files may give the limits in (README, "A problem folder"): wide
/// enough for any real judge, narrow enough that no product or sum the judge makes of them
/// (bytes, allowances, the wall-clock backstop, `-Xmx`) can overflow.
pub const TIME_LIMIT_MS: std::ops::RangeInclusive<u64> = 1..=3_600_000;
/// Memory, stack and output limits, in MiB: up to 1 TiB.
pub const SIZE_LIMIT_MIB: std::ops::RangeInclusive<u64> = 1..=1 << 20;

/// An online judge whose behaviour a problem follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Baekjoon Online Judge.
    Boj,
    /// SW Expert Academy.
    Swea,
    /// Programmers.
    Programmers,
    /// Kattis, and the Kattis / ICPC package format.
    Kattis,
    /// Codeforces.
    Codeforces,
}

use crate::toolchain::online_judges::{self, OnlineJudge};
use crate::toolchain::Limits;

impl Profile {
    /// Every profile, in the order they are listed.
    pub const ALL: [Profile; 5] = [
        Profile::Boj,
        Profile::Swea,
        Profile::Programmers,
        Profile::Kattis,
        Profile::Codeforces,
    ];

    /// As `problem.toml` and `--profile` spell it: `boj`, `swea`, ...
    pub fn name(self) -> &'static str {
        match self {
            Profile::Boj => "boj",
            Profile::Swea => "swea",
            Profile::Programmers => "programmers",
            Profile::Kattis => "kattis",
            Profile::Codeforces => "codeforces",
        }
    }

    /// Default limits. Per-problem figures on the judges' pages override these in problem.toml;
    /// the README says where each default comes from.
    pub fn limits(self) -> Limits {
        let (time_ms, memory_mib) = match self {
            // Baekjoon: most problems give 1 s and 128-256 MB.
            Profile::Boj => (1000, 256),
            // SW Expert Academy: 256 MB of heap.
            Profile::Swea => (2000, 256),
            // Programmers publishes no limits; generous ones stop only a runaway.
            Profile::Programmers => (10_000, 1024),
            // Kattis problem package format: 2048 MiB default memory.
            Profile::Kattis => (1000, 2048),
            // Codeforces: most problems give 1-2 s and 256 MB.
            Profile::Codeforces => (1000, 256),
        };
        let memory_bytes = memory_mib * MIB;
        Limits {
            cpu_time: Duration::from_millis(time_ms),
            memory_bytes,
            output_bytes: 64 * MIB,
            decided_at: None,
            stack_bytes: self.stack_bytes(memory_bytes),
        }
    }

    /// The main thread's stack for a given memory limit. Baekjoon and Kattis let the stack use
    /// the memory limit: we give it 7/8 of it, so that an overflow ends as the runtime error
    /// it is before the rest of the program's memory makes it an MLE. SW Expert Academy gives
    /// a famously small 1 MB; Programmers does not say, so the usual 8 MiB of Linux.
    pub fn stack_bytes(self, memory_bytes: u64) -> u64 {
        match self {
            // Codeforces sets the stack to the memory limit as well.
            Profile::Boj | Profile::Kattis | Profile::Codeforces => memory_bytes - memory_bytes / 8,
            Profile::Swea => MIB,
            Profile::Programmers => 8 * MIB,
        }
    }

    /// The largest source the judge takes. Kattis: the problem package format's default;
    /// the others: 64 KiB, the limit most judges share (a problem's page may say otherwise).
    pub fn code_limit_bytes(self) -> u64 {
        match self {
            Profile::Kattis => 128 << 10,
            Profile::Boj | Profile::Swea | Profile::Programmers | Profile::Codeforces => 64 << 10,
        }
    }

    /// The compare mode the judge uses when a problem names none.
    pub fn compare(self) -> CompareMode {
        match self {
            Profile::Kattis | Profile::Codeforces => CompareMode::Tokens,
            Profile::Boj | Profile::Swea | Profile::Programmers => CompareMode::Lines,
        }
    }
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

impl Profile {
    /// What the judge adds for a language. Baekjoon grants the JVM and CPython more (Java and
    /// Kotlin ×2 + 1 s and ×2 + 16 MB, Python ×3 + 2 s and ×2 + 32 MB, as its per-language
    /// table says); the other profiles give every language the problem's own limits.
    pub fn allowance(self, language: LanguageId) -> Allowance {
        let (time_factor, extra_ms, memory_factor, extra_mib) = match (self, language) {
            (Profile::Boj, LanguageId::Java | LanguageId::Kotlin) => (2, 1000, 2, 16),
            (Profile::Boj, LanguageId::Python3) => (3, 2000, 2, 32),
            _ => return Allowance::NONE,
        };
        Allowance {
            time_factor,
            extra_time: Duration::from_millis(extra_ms),
            memory_factor,
            extra_memory_bytes: extra_mib * MIB,
        }
    }
}

impl Profile {
    /// The online judge this profile judges as: what it takes and how it calls a submission.
    pub fn online_judge(self) -> &'static OnlineJudge {
        match self {
            Profile::Boj => &online_judges::BAEKJOON,
            Profile::Swea => &online_judges::SW_EXPERT_ACADEMY,
            Profile::Programmers => &online_judges::PROGRAMMERS,
            Profile::Kattis => &online_judges::KATTIS,
            Profile::Codeforces => &online_judges::CODEFORCES,
        }
    }
}

/// Where a problem is handed in on its judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitPage {
    pub url: String,
    /// What the page is, when it is not the judge's own submit form for the problem.
    pub note: Option<&'static str>,
}

impl Profile {
    /// The judge's page to submit problem `id` on: made from the problem's number (in its
    /// `source` address, else at the end of its id) where the judge's addresses allow.
    pub fn submit_page(self, id: &str, source: Option<&str>) -> Option<SubmitPage> {
        let number = || {
            let from_source = source.and_then(|url| trailing_number(url.split(['?', '#']).next()?));
            from_source.or_else(|| trailing_number(id))
        };
        let page = |url: String| SubmitPage { url, note: None };
        match self {
            Profile::Boj => Some(page(format!(
                "https://www.acmicpc.net/submit/{}",
                number()?
            ))),
            Profile::Programmers => Some(SubmitPage {
                url: format!(
                    "https://school.programmers.co.kr/learn/courses/30/lessons/{}",
                    number()?
                ),
                note: Some("the problem's page: its editor is where the answer goes"),
            }),
            Profile::Swea => Some(SubmitPage {
                url: format!(
                    "https://swexpertacademy.com/main/code/problem/problemList.do?problemTitle={}",
                    number()?
                ),
                note: Some(
                    "SW Expert Academy's problem list searched for the number: its problem \
                     pages have addresses of their own, not made from the number",
                ),
            }),
            Profile::Kattis => {
                let url = source?;
                let id = url
                    .split("/problems/")
                    .nth(1)?
                    .split(['/', '?', '#'])
                    .next()?;
                let host = url.split("/problems/").next()?;
                Some(page(format!("{host}/problems/{id}/submit")))
            }
            Profile::Codeforces => {
                let url = source?;
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
                Some(page(format!(
                    "https://codeforces.com/{kind}/{contest}/submit/{index}"
                )))
            }
        }
    }
}

/// The digits at the end of `text` (`boj_2615`, `.../problem/2615`), if any.
fn trailing_number(text: &str) -> Option<&str> {
    let text = text.trim_end_matches('/');
    let digits = text.len() - text.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| &text[text.len() - digits..])
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submit_pages_are_made_from_the_problems_number_where_the_judge_allows() {
        let url = |profile: Profile, id: &str, source: Option<&str>| {
            profile.submit_page(id, source).map(|page| page.url)
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
        assert_eq!(
            judges,
            [
                "Baekjoon",
                "SW Expert Academy",
                "Programmers",
                "Kattis",
                "Codeforces"
            ]
        );
    }
}
