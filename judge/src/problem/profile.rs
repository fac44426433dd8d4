//! Judge profiles: the online judge whose defaults (limits, stack, comparison) a problem
//! follows unless `problem.toml` overrides them. The judges themselves are in
//! `toolchain::online_judges`.

use crate::compare::CompareMode;
pub use crate::toolchain::online_judges::Profile;
use crate::toolchain::Limits;

/// The ranges a problem's files may give the limits in (docs/problems.md, "A problem
/// folder"): wide enough for any real judge, narrow enough that nothing the judge computes
/// from them (bytes, allowances, the wall-clock backstop, `-Xmx`) can overflow.
pub const TIME_LIMIT_MS: std::ops::RangeInclusive<u64> = 1..=3_600_000;
/// Memory, stack and output limits, in MiB.
pub const SIZE_LIMIT_MIB: std::ops::RangeInclusive<u64> = 1..=1 << 20;

impl Profile {
    pub fn limits(self) -> Limits {
        self.online_judge().limits()
    }

    pub fn stack_bytes(self, memory_bytes: u64) -> u64 {
        self.online_judge().stack_bytes(memory_bytes)
    }

    pub fn code_limit_bytes(self) -> u64 {
        self.online_judge().code_limit_bytes
    }

    /// When a problem names none.
    pub fn compare(self) -> CompareMode {
        self.online_judge().compare
    }
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
        let boj = Profile::Boj.limits();
        assert_eq!(boj.cpu_time, std::time::Duration::from_secs(1));
        assert_eq!(boj.memory_bytes, 256 << 20);
        assert_eq!(boj.stack_bytes, 224 << 20);
        assert_eq!(Profile::Swea.stack_bytes(256 << 20), 1 << 20);
        assert_eq!(Profile::Programmers.stack_bytes(256 << 20), 8 << 20);
        assert_eq!(Profile::Kattis.code_limit_bytes(), 128 << 10);
        assert_eq!(Profile::Codeforces.code_limit_bytes(), 64 << 10);
        assert_eq!(Profile::Kattis.compare(), CompareMode::Tokens);
        assert_eq!(Profile::Swea.compare(), CompareMode::Lines);
    }
}
