//! Every file and folder name of a repository, a problem folder, a Kattis package and a
//! Polygon package: code that reads or writes one names it from here.

pub const PROBLEMS_DIR: &str = "problems";
/// `solutions/<id>.<ext>`.
pub const SOLUTIONS_DIR: &str = "solutions";

pub const METADATA_FILE: &str = "problem.toml";
pub const STATEMENT_FILE: &str = "statement.md";
/// An independent brute force, which writes expected outputs.
pub const REFERENCE_FILE: &str = "reference.rs";
/// With any language's extension (`validator.cpp`, a testlib validator).
pub const VALIDATOR_STEM: &str = "validator";
pub const GENERATOR_FILE: &str = "gen.rs";
/// How `judge gen` makes a problem's generated cases.
pub const RECIPE_FILE: &str = "generators.toml";
/// Where each written case came from, kept by the corpus commands.
pub const PROVENANCE_FILE: &str = "provenance.toml";
/// An interrupted corpus command's unfinished change, completed by the next command.
pub const JOURNAL_FILE: &str = ".judge-journal.toml";
/// `tests/<group>/<name>.in` and `.out`.
pub const TESTS_DIR: &str = "tests";
/// Ours first, then the package format's.
pub const CASE_DIRS: [&str; 2] = [TESTS_DIR, DATA_DIR];
/// The official examples' group (and the package format's other spelling).
pub const SAMPLE_GROUPS: [&str; 2] = ["sample", "samples"];

/// A Kattis package's metadata.
pub const PACKAGE_FILE: &str = "problem.yaml";
pub const DATA_DIR: &str = "data";
/// The judged folders of `data/`, in judging order.
pub const JUDGED_DATA_DIRS: [&str; 2] = [SAMPLE_DIR, SECRET_DIR];
pub const SAMPLE_DIR: &str = "sample";
/// Its groups make a scoring package's score.
pub const SECRET_DIR: &str = "secret";
/// A test group's settings in legacy and 2023-07 packages.
pub const TESTDATA_FILE: &str = "testdata.yaml";
/// A test group's settings in 2025-09 packages.
pub const TEST_GROUP_FILE: &str = "test_group.yaml";
/// A legacy package's time limit in seconds, when `problem.yaml` gives none.
pub const TIMELIMIT_FILE: &str = ".timelimit";
/// 2023-07 and later.
pub const OUTPUT_VALIDATOR_DIR: &str = "output_validator";
pub const LEGACY_OUTPUT_VALIDATORS_DIR: &str = "output_validators";
/// Each file or folder one program (`.ctd` and `.viva` are checktestdata and Viva scripts);
/// legacy packages may use the deprecated name.
pub const INPUT_VALIDATORS_DIRS: [&str; 2] = ["input_validators", "input_format_validators"];
/// BAPCtools, 2023-07 drafts: `validator input < answer`.
pub const ANSWER_VALIDATORS_DIR: &str = "answer_validators";
// Folders of `data/` that test the validators, not submissions: inputs some input validator
// must reject, answers some answer validator must reject, and outputs the output validator
// must reject or accept.
pub const INVALID_INPUT_DIR: &str = "invalid_input";
pub const INVALID_ANSWER_DIR: &str = "invalid_answer";
pub const INVALID_OUTPUT_DIR: &str = "invalid_output";
pub const VALID_OUTPUT_DIR: &str = "valid_output";
/// Every folder the top of `data/` may hold: the judged ones, then the validation ones.
pub const DATA_DIRS: [&str; 6] = [
    "sample",
    SECRET_DIR,
    INVALID_INPUT_DIR,
    INVALID_ANSWER_DIR,
    INVALID_OUTPUT_DIR,
    VALID_OUTPUT_DIR,
];
/// Files added to every submission: `include/<language code>/`.
pub const INCLUDE_DIR: &str = "include";
/// A Polygon package's description.
pub const POLYGON_FILE: &str = "problem.xml";
/// A Polygon package's resources and programs (its `testlib.h`).
pub const POLYGON_FILES_DIR: &str = "files";
/// One folder per verdict the submissions promise.
pub const SUBMISSIONS_DIR: &str = "submissions";
pub const ACCEPTED_DIR: &str = "accepted";
/// What 2025-09 submissions promise beyond their folder's default.
pub const SUBMISSIONS_YAML: &str = "submissions.yaml";

/// What a folder holds, told by the metadata file in it: one of our problems
/// (`problem.toml`, which wins beside another, or no metadata file at all), a Kattis package
/// (`problem.yaml`) or a Polygon package (`problem.xml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemFormat {
    Folder,
    Kattis,
    Polygon,
}

impl ProblemFormat {
    pub fn of(dir: &std::path::Path) -> ProblemFormat {
        if dir.join(METADATA_FILE).is_file() {
            ProblemFormat::Folder
        } else if dir.join(PACKAGE_FILE).is_file() {
            ProblemFormat::Kattis
        } else if dir.join(POLYGON_FILE).is_file() {
            ProblemFormat::Polygon
        } else {
            ProblemFormat::Folder
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::test_files::touch;

    #[test]
    fn a_folders_metadata_file_tells_its_format_and_ours_wins() {
        let format_with = |files: &[&str]| {
            let dir = tempfile::tempdir().unwrap();
            for file in files {
                touch(dir.path(), file);
            }
            ProblemFormat::of(dir.path())
        };
        assert_eq!(format_with(&[]), ProblemFormat::Folder);
        assert_eq!(format_with(&[PACKAGE_FILE]), ProblemFormat::Kattis);
        assert_eq!(format_with(&[POLYGON_FILE]), ProblemFormat::Polygon);
        assert_eq!(
            format_with(&[PACKAGE_FILE, POLYGON_FILE]),
            ProblemFormat::Kattis
        );
        assert_eq!(
            format_with(&[METADATA_FILE, PACKAGE_FILE, POLYGON_FILE]),
            ProblemFormat::Folder
        );
    }
}
