//! Laws of the compare modes and robustness of the parsers, over generated inputs.

use std::path::Path;

use judge::compare::{compare, compare_file, CompareMode, KattisFlags, MatchedStart};
use judge::problem::kattis::parse_package;
use judge::problem::provenance::Provenance;
use judge::problem::recipe::Recipe;
use judge::problem::Problem;
use proptest::prelude::*;

const MODES: [CompareMode; 4] = [
    CompareMode::Exact,
    CompareMode::Lines,
    CompareMode::Tokens,
    CompareMode::Float {
        abs: 1e-6,
        rel: 1e-6,
    },
];

/// The Kattis default validator with every flag set.
const KATTIS: CompareMode = CompareMode::Kattis(KattisFlags {
    case_sensitive: false,
    space_change_sensitive: true,
    tolerance: Some((1e-6, 1e-6)),
});

/// A value as a user might write one, right or wrong: numbers at and past every edge,
/// negative and fractional ones, paths that escape, odd strings, arrays and tables.
fn toml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        Just("18446744073709551615".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("17592186044416".to_owned()),
        Just("0".to_owned()),
        Just("-1".to_owned()),
        Just("1e300".to_owned()),
        Just("nan".to_owned()),
        Just("inf".to_owned()),
        "\\[[0-9]{0,20}, ?[0-9]{0,20}\\]",
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| format!("[{a}, {b}]")),
        "\"[a-z{}/.\\\\-]{0,12}\"",
        Just("\"../../x\"".to_owned()),
        Just("\"/etc/passwd\"".to_owned()),
        Just("\"\"".to_owned()),
        Just("true".to_owned()),
        Just("{ a = 1 }".to_owned()),
    ]
}

/// A TOML text made of sections and `key = value` lines, the keys mostly ones the judge
/// knows (so that validation, not only the syntax, is reached).
fn toml_text(
    keys: &'static [&'static str],
    sections: &'static [&'static str],
) -> impl Strategy<Value = String> {
    let line = prop_oneof![
        4 => (proptest::sample::select(keys), toml_value()).prop_map(|(k, v)| format!("{k} = {v}\n")),
        1 => proptest::sample::select(sections).prop_map(|s| format!("{s}\n")),
        1 => "[a-z_]{1,8} = [0-9]{1,3}\n",
    ];
    proptest::collection::vec(line, 0..12).prop_map(|lines| lines.concat())
}

const PROBLEM_KEYS: &[&str] = &[
    "name",
    "source",
    "profile",
    "time_limit_ms",
    "memory_limit_mib",
    "output_limit_mib",
    "stack_limit_mib",
    "compare",
    "float_absolute_tolerance",
    "float_relative_tolerance",
    "solution",
    "checker",
    "checker_protocol",
];
const RECIPE_KEYS: &[&str] = &[
    "group",
    "name",
    "args",
    "seeds",
    "size",
    "layout",
    "terminator",
    "lines_per_case",
];
const RECIPE_SECTIONS: &[&str] = &["[[generate]]", "[stress]", "[[generate]]"];
const PROVENANCE_KEYS: &[&str] = &[
    "generator",
    "generator_hash",
    "args",
    "derived_from",
    "input_hash",
    "reference",
    "reference_hash",
    "output_hash",
];
const PROVENANCE_SECTIONS: &[&str] = &[
    "[cases.\"random/r-1\"]",
    "[cases.\"../../x\"]",
    "[cases.\"/abs\"]",
    "[cases.\"\"]",
    "[cases]",
];

/// A problem.yaml as a user might write one.
fn yaml_text() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        toml_value(),
        Just("custom".to_owned()),
        Just("default".to_owned()),
        Just("case_sensitive float_tolerance 1e-6".to_owned()),
        Just("{en: X}".to_owned()),
        Just("- a".to_owned()),
    ];
    let line = prop_oneof![
        (
            proptest::sample::select(
                &["name", "validation", "validator_flags", "limits", "author"][..]
            ),
            value.clone()
        )
            .prop_map(|(k, v)| format!("{k}: {v}\n")),
        (
            proptest::sample::select(&["time_limit", "memory", "output", "code"][..]),
            value
        )
            .prop_map(|(k, v)| format!("  {k}: {v}\n")),
        Just("limits:\n".to_owned()),
    ];
    proptest::collection::vec(line, 0..10).prop_map(|lines| lines.concat())
}

/// Outputs that look like program output: numbers, words, odd whitespace and line endings,
/// and now and then arbitrary bytes.
fn output() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        "-?[0-9]{1,4}(\\.[0-9]{1,6})?".prop_map(String::into_bytes),
        "[a-zA-Z#:]{1,5}".prop_map(String::into_bytes),
        Just(b" ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"  \n\n".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..4),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// A variant of `text` with its layout disturbed: trailing spaces, CRLF, blank lines at the
/// end, or runs of spaces.
fn disturbed(text: &[u8], how: u8) -> Vec<u8> {
    let text = String::from_utf8_lossy(text).into_owned();
    match how % 4 {
        0 => text.replace('\n', "  \n"),
        1 => text.replace('\n', "\r\n"),
        2 => format!("{text}\n\n \n"),
        _ => text.replace(' ', "   "),
    }
    .into_bytes()
}

/// `cases` per property, or `PROPTEST_CASES` when set (`PROPTEST_CASES=20000` for a long
/// search). The counts are what a test run affords: in a debug build these laws took 26 s
/// of one core at 2000 and 1000 cases, most of it generating inputs.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    match std::env::var_os("PROPTEST_CASES") {
        Some(_) => default,
        None => ProptestConfig { cases, ..default },
    }
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn no_input_makes_a_mode_panic(expected in output(), actual in output()) {
        for mode in MODES.into_iter().chain([KATTIS]) {
            let _ = compare(mode, &expected, &actual);
            let _ = compare(mode, &actual, &expected);
        }
    }

    #[test]
    fn a_text_matches_itself_in_every_mode(text in output()) {
        for mode in MODES.into_iter().chain([KATTIS]) {
            prop_assert!(compare(mode, &text, &text).is_ok(), "{mode}: {text:?}");
        }
    }

    #[test]
    fn exact_implies_lines_implies_tokens_implies_float(expected in output(), actual in output(), how in any::<u8>(), pick in any::<bool>()) {
        // Half the pairs are near misses of each other, so that every implication is tried on
        // pairs that match in the weaker modes.
        let actual = if pick { disturbed(&expected, how) } else { actual };
        let results: Vec<bool> = MODES.iter().map(|&mode| compare(mode, &expected, &actual).is_ok()).collect();
        for stronger in 0..MODES.len() - 1 {
            if results[stronger] {
                prop_assert!(results[stronger + 1], "{} matches but {} does not: {expected:?} vs {actual:?}", MODES[stronger], MODES[stronger + 1]);
            }
        }
    }

    #[test]
    fn comparing_against_a_file_agrees_with_comparing_whole_texts(expected in output(), actual in output(), how in any::<u8>(), pick in any::<bool>()) {
        let actual = if pick { disturbed(&expected, how) } else { actual };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expected");
        std::fs::write(&path, &expected).unwrap();
        // Also as a run that compared while the output arrived gives it: without the start
        // it had found equal to the expected output.
        let common = expected.iter().zip(&actual).take_while(|(e, a)| e == a).count();
        for mode in MODES.into_iter().chain([KATTIS]) {
            let whole = compare(mode, &expected, &actual);
            for offset in [0, common] {
                let from_file = compare_file(mode, &path, &actual[offset..], MatchedStart::of(&expected[..offset])).unwrap().map_err(|found| found.mismatch);
                prop_assert_eq!(from_file, whole.clone(), "{}, {} not kept: {:?} vs {:?}", mode, offset, expected, actual);
            }
        }
    }

    #[test]
    fn float_tolerance_is_symmetric(a in -1e6f64..1e6, b in -1e6f64..1e6, abs in 0f64..1.0, rel in 0f64..0.1, near in any::<bool>()) {
        let b = if near { a + (b / 1e12) } else { b };
        let mode = CompareMode::Float { abs, rel };
        let (a, b) = (format!("{a}\n"), format!("{b}\n"));
        prop_assert_eq!(
            compare(mode, a.as_bytes(), b.as_bytes()).is_ok(),
            compare(mode, b.as_bytes(), a.as_bytes()).is_ok()
        );
    }

    #[test]
    fn problem_toml_never_panics(text in "[a-z_]{0,20}( = )?(\"[a-z0-9]*\"|[0-9.e-]{0,8}|\\[[0-9, ]*\\]|true)?\n?\\[?[a-z]*\\]?") {
        let _ = Problem::parse("p".into(), Path::new("problems/p"), &text, "s.rs".into());
    }

    #[test]
    fn problem_toml_of_any_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Problem::parse("p".into(), Path::new("problems/p"), &text, "s.rs".into());
    }

    #[test]
    fn keys_with_good_values_always_load(time in 1u64..100_000, memory in 1u64..65_536, mode in 0usize..3) {
        let compare = ["exact", "lines", "tokens"][mode];
        let text = format!("time_limit_ms = {time}\nmemory_limit_mib = {memory}\ncompare = \"{compare}\"\n");
        let problem = Problem::parse("p".into(), Path::new("problems/p"), &text, "s.rs".into()).unwrap();
        prop_assert_eq!(problem.limits.cpu_time.as_millis() as u64, time);
        prop_assert_eq!(problem.limits.memory_bytes, memory << 20);
        prop_assert_eq!(problem.compare.name(), compare);
    }
}

proptest! {
    // The parsers of a problem's files: no text, however wrong, makes the judge panic.
    #![proptest_config(config(300))]

    #[test]
    fn problem_toml_with_any_values_never_panics(text in toml_text(PROBLEM_KEYS, &["[limits]"])) {
        let _ = Problem::parse("p".into(), Path::new("problems/p"), &text, "s.rs".into());
    }

    #[test]
    fn generators_toml_never_panics(text in toml_text(RECIPE_KEYS, RECIPE_SECTIONS)) {
        if let Ok(recipe) = Recipe::parse(Path::new("problems/p"), &text) {
            // Whatever loads is bounded: listing its cases is cheap.
            prop_assert!(recipe.cases().len() <= 10 * 10_000);
        }
    }

    #[test]
    fn provenance_toml_never_panics(text in toml_text(PROVENANCE_KEYS, PROVENANCE_SECTIONS)) {
        if let Ok(provenance) = Provenance::parse(Path::new("problems/p"), &text) {
            for name in provenance.cases.keys() {
                prop_assert!(!name.starts_with('/') && !name.split('/').any(|part| part == ".."), "{name}");
            }
        }
    }

    #[test]
    fn problem_yaml_never_panics(text in yaml_text()) {
        let _ = parse_package(Path::new("problems/p"), "p".into(), &text);
    }

    #[test]
    fn any_bytes_never_panic_any_parser(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Recipe::parse(Path::new("problems/p"), &text);
        let _ = Provenance::parse(Path::new("problems/p"), &text);
        let _ = parse_package(Path::new("problems/p"), "p".into(), &text);
    }
}
