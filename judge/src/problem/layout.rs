//! Every file and folder name of a repository and of a problem, in one place: our problem
//! folders (`problem.toml`, `tests/`, the recipe and its provenance) and the Kattis package
//! format (`problem.yaml`, `data/`, `submissions/`, ...) and Polygon's (`problem.xml`). Code that reads or writes one of
//! them names it from here.

/// The repository's folder of problems, one folder each.
pub const PROBLEMS_DIR: &str = "problems";
/// The repository's folder of solutions: `solutions/<id>.<ext>`.
pub const SOLUTIONS_DIR: &str = "solutions";

/// A problem's metadata (every key optional).
pub const METADATA_FILE: &str = "problem.toml";
/// A problem's statement, in our own words.
pub const STATEMENT_FILE: &str = "statement.md";
/// A problem's independent brute force, which writes expected outputs.
pub const REFERENCE_FILE: &str = "reference.rs";
/// A problem's input validator: `validator.rs`, or this stem with another language's
/// extension (`validator.cpp`, a testlib validator).
pub const VALIDATOR_STEM: &str = "validator";
/// A problem's generator of inputs.
pub const GENERATOR_FILE: &str = "gen.rs";
/// How `judge gen` makes a problem's generated cases.
pub const RECIPE_FILE: &str = "generators.toml";
/// Where each written case came from, kept by the corpus commands.
pub const PROVENANCE_FILE: &str = "provenance.toml";
/// An interrupted corpus command's unfinished change, completed by the next command.
pub const JOURNAL_FILE: &str = ".judge-journal.toml";
/// Our problems' cases: `tests/<group>/<name>.in` and `.out`.
pub const TESTS_DIR: &str = "tests";
/// The folders that hold cases, ours first, then the package format's.
pub const CASE_DIRS: [&str; 2] = [TESTS_DIR, DATA_DIR];
/// The group of a problem's official examples (and the package format's other spelling).
pub const SAMPLE_GROUPS: [&str; 2] = ["sample", "samples"];

/// A Kattis package's metadata.
pub const PACKAGE_FILE: &str = "problem.yaml";
/// A package's test data: `data/sample/`, `data/secret/`, ...
pub const DATA_DIR: &str = "data";
/// The folders of `data/` that are judged, in the order they are.
pub const JUDGED_DATA_DIRS: [&str; 2] = ["sample", "secret"];
/// The judged folder whose groups make a scoring package's score.
pub const SECRET_DIR: &str = "secret";
/// A test group's settings in legacy and 2023-07 packages.
pub const TESTDATA_FILE: &str = "testdata.yaml";
/// A test group's settings in 2025-09 packages.
pub const TEST_GROUP_FILE: &str = "test_group.yaml";
/// A legacy package's time limit, in seconds, when `problem.yaml` gives none.
pub const TIMELIMIT_FILE: &str = ".timelimit";
/// A package's output validator (2023-07 and later).
pub const OUTPUT_VALIDATOR_DIR: &str = "output_validator";
/// A legacy package's folder of output validators.
pub const LEGACY_OUTPUT_VALIDATORS_DIR: &str = "output_validators";
/// A package's input validators, each file or folder one program (`.ctd` and `.viva` files
/// are checktestdata and Viva scripts); legacy packages may use the deprecated name.
pub const INPUT_VALIDATORS_DIRS: [&str; 2] = ["input_validators", "input_format_validators"];
/// A package's answer validators (BAPCtools, 2023-07 drafts): `validator input < answer`.
pub const ANSWER_VALIDATORS_DIR: &str = "answer_validators";
/// Folders of `data/` that test the validators, not submissions: inputs some input validator
/// must reject,
pub const INVALID_INPUT_DIR: &str = "invalid_input";
/// answers (to valid inputs) some answer validator must reject,
pub const INVALID_ANSWER_DIR: &str = "invalid_answer";
/// outputs the output validator must reject,
pub const INVALID_OUTPUT_DIR: &str = "invalid_output";
/// and outputs it must accept.
pub const VALID_OUTPUT_DIR: &str = "valid_output";
/// Files added to every submission, per language: `include/<language code>/`.
pub const INCLUDE_DIR: &str = "include";
/// A Codeforces Polygon package's description.
pub const POLYGON_FILE: &str = "problem.xml";
/// A Polygon package's folder of resources and programs (its `testlib.h`).
pub const POLYGON_FILES_DIR: &str = "files";
/// A package's submissions, in one folder per verdict they promise.
pub const SUBMISSIONS_DIR: &str = "submissions";
/// The folder of submissions that must be accepted.
pub const ACCEPTED_DIR: &str = "accepted";
/// What 2025-09 submissions promise beyond their folder's default.
pub const SUBMISSIONS_YAML: &str = "submissions.yaml";
