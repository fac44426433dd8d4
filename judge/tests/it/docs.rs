//! The README is for a newcomer and short; the rest is in `docs/`, and every link between
//! them (to a file, and to a heading of it) leads somewhere.

use std::path::{Path, PathBuf};

use crate::common::repository_root;

/// The README's length at most, in lines.
const README_LINES: usize = 300;

#[test]
fn the_readme_fits_on_a_screen_or_two() {
    let readme = std::fs::read_to_string(repository_root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= README_LINES,
        "README.md has {lines} lines, at most {README_LINES}: move the rest to docs/"
    );
}

#[test]
fn every_link_of_the_readme_and_the_docs_resolves() {
    let root = repository_root();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in links(&text) {
            if let Err(why) = resolves(page, &target) {
                broken.push(format!(
                    "{}: ({target}): {why}",
                    page.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("a.md");
    std::fs::write(&page, "# A page\n\n## From the judge's page\n").unwrap();
    assert!(resolves(&page, "a.md#from-the-judges-page").is_ok());
    assert!(resolves(&page, "#a-page").is_ok());
    assert!(resolves(&page, "b.md").is_err());
    assert!(resolves(&page, "a.md#no-such-heading").is_err());
    assert_eq!(
        links("see [x](a.md) and [y](b.md#c), not `[z](d.md)`"),
        ["a.md", "b.md#c"]
    );
}

/// The targets of the Markdown links `[text](target)` of `text`, outside code.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        // Outside code spans: the even-numbered pieces between backticks.
        let prose = line.split('`').step_by(2).filter(|_| !fenced);
        for piece in prose {
            let mut rest = piece;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                if let Some(end) = rest.find(')') {
                    found.push(rest[..end].to_owned());
                    rest = &rest[end..];
                }
            }
        }
    }
    found
}

/// Whether `target`, a link of `page`, leads to a file that exists and, with `#heading`, to
/// one of its headings (as GitHub makes their anchors). Links out of the repository are
/// not followed.
fn resolves(page: &Path, target: &str) -> Result<(), String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return Ok(());
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let path = match file {
        "" => page.to_path_buf(),
        file => page.parent().unwrap().join(file),
    };
    if !path.exists() {
        return Err(format!("no {}", path.display()));
    }
    let Some(anchor) = anchor else {
        return Ok(());
    };
    let text = std::fs::read_to_string(&path).map_err(|error| error.to_string())?;
    let found = text
        .lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| slug(heading.trim_start_matches('#')))
        .any(|slug| slug == anchor);
    match found {
        true => Ok(()),
        false => Err(format!("no heading #{anchor} in {}", path.display())),
    }
}

/// A heading's anchor as GitHub makes it: lowercase, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Where a path in backticks on docs/architecture.md is: from the repository (`judge/...`),
/// from `judge/src`, or a bare file name of `judge/src` or of the integration tests.
fn architecture_path_exists(root: &Path, path: &str) -> bool {
    let src = root.join("judge/src");
    let candidates = [
        root.join(path),
        src.join(path),
        root.join("judge/tests/it").join(path),
    ];
    candidates.iter().any(|candidate| candidate.exists())
}

/// The paths in backticks of a page that name source files or folders (`*.rs`, `*/`), build
/// output (`target/`) aside.
fn source_paths(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            (span.ends_with(".rs") || span.ends_with('/'))
                && !span.starts_with("target/")
                && span
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
        })
        .collect()
}

#[test]
fn every_path_the_architecture_page_names_exists() {
    let root = repository_root();
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let paths = source_paths(&text);
    assert!(paths.len() > 40, "the page names few paths: {paths:?}");
    let missing: Vec<&str> = paths
        .into_iter()
        .filter(|path| !architecture_path_exists(&root, path))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md names paths that do not exist: {missing:?}"
    );
    assert_eq!(
        source_paths("`a/b.rs`, `c/`, `target/x/`, `Problem`, `x.toml`"),
        ["a/b.rs", "c/"]
    );
}
