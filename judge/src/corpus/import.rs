//! A Competitive Companion payload (JSON, one problem; `judge listen` receives it, `judge new
//! --from FILE.json` reads a saved one) turned into a problem folder. Everything is checked
//! before anything is written, and a new problem is made whole or not at all (`scaffold`). An
//! existing problem is never overwritten: it gets only the samples it lacks.

use std::path::Path;

use serde::Deserialize;

use super::scaffold::{self, Imported};
use crate::atomic_write::create_new;
use crate::error::{Error, Result};
use crate::problem::layout::METADATA_FILE;
use crate::problem::{FileIo, Repository};
use crate::problem::{Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};

/// One problem as Competitive Companion describes it (the fields we use; the others are
/// ignored).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    pub name: String,
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub interactive: bool,
    /// Megabytes; a fraction is taken down to a whole one, as the extension does.
    pub memory_limit: Option<f64>,
    /// Milliseconds.
    pub time_limit: Option<f64>,
    pub tests: Vec<Sample>,
    /// `single`, or `multiNumber`: a count of tests, then each.
    pub test_type: Option<String>,
    /// Where the program reads: standard input, or a file named on the page.
    pub input: Option<Stream>,
    pub output: Option<Stream>,
    #[serde(default)]
    pub languages: Languages,
}

/// Java's `mainClass` is the class the judge runs (`Main` unless the page says otherwise);
/// its `taskClass`, a class of the extension's Java plug-ins, is ignored.
#[derive(Debug, Default, Deserialize)]
pub struct Languages {
    pub java: Option<JavaNames>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JavaNames {
    pub main_class: Option<String>,
}

/// `{"type": "stdin"}`, `{"type": "file", "fileName": "input.txt"}`, or `{"type": "regex",
/// "pattern": "..."}` (a name the judge makes up per test).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stream {
    #[serde(rename = "type")]
    pub kind: String,
    pub file_name: Option<String>,
    pub pattern: Option<String>,
}

impl Stream {
    /// The file it names, when it is a file of a plain name.
    fn file(&self) -> Option<&str> {
        let name = self.file_name.as_deref()?.trim();
        (self.kind == "file" && FileIo::is_plain_name(name)).then_some(name)
    }
}

#[derive(Debug, Deserialize)]
pub struct Sample {
    pub input: String,
    pub output: String,
}

/// Parses and checks a payload; `origin` names it in errors (a file or the sender).
pub fn parse(text: &str, origin: &Path) -> Result<Payload> {
    // serde would read an array as a struct's fields in order, and name a field's type.
    if text.trim_start().starts_with('[') {
        let message = "a JSON array, not a Competitive Companion payload: one problem's object, \
                       as the extension sends it, is read at a time";
        return Err(Error::parse(origin, Some(1), message));
    }
    let payload: Payload = serde_json::from_str(text).map_err(|error| {
        Error::parse(
            origin,
            Some(error.line()),
            format!(
                "column {}: not a Competitive Companion payload: {error}",
                error.column()
            ),
        )
    })?;
    // A page without samples (an interactive problem, a statement in plain text) is still a
    // problem; one that names no problem is not.
    if payload.name.trim().is_empty() && payload.url.is_empty() {
        return Err(Error::parse(
            origin,
            None,
            "the payload has neither a name nor a url",
        ));
    }
    Ok(payload)
}

/// The problem's id, from its URL where the judge is known (its query string and fragment
/// aside, but for a fragment that is a path: vjudge's `contest/480959#problem/A`), else from
/// its name.
pub fn problem_id(payload: &Payload) -> String {
    let (without_fragment, fragment) = payload.url.split_once('#').unwrap_or((&payload.url, ""));
    let (url, query) = without_fragment
        .split_once('?')
        .unwrap_or((without_fragment, ""));
    let url = url.trim_end_matches('/');
    let (host, path) = url
        .split_once("://")
        .map(|(_, rest)| rest.split_once('/').unwrap_or((rest, "")))
        .unwrap_or(("", ""));
    let fragment_path = if fragment.contains('/') { fragment } else { "" };
    let parts: Vec<&str> = (path.split('/').chain(fragment_path.split('/')))
        .filter(|part| !part.is_empty())
        .collect();
    let parameter = |key: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
    };
    let last = parts.last().copied().unwrap_or_default();
    let host = host.trim_start_matches("www.");
    let by_url = match host {
        "acmicpc.net" => Some(format!("boj_{last}")),
        // /problemset/problem/1234/A, /contest/1234/problem/A, /gym/102222/problem/A
        host if host == "codeforces.com" || host.ends_with(".codeforces.com") => {
            match parts.as_slice() {
                [.., contest, "problem", index] | ["problemset", "problem", contest, index] => {
                    Some(format!("cf_{contest}_{index}"))
                }
                // /problemsets/acmsguru/problem/99999/123
                ["problemsets", set, "problem", _, index] => Some(format!("cf_{set}_{index}")),
                // /contest/1/problems, the whole set on one page: every task has its URL, and
                // its name starts with its index (`A. Theatre Square`).
                [.., contest, "problems"] => (payload.name.split_once(". "))
                    .filter(|(index, _)| {
                        index.len() <= 2 && index.chars().all(char::is_alphanumeric)
                    })
                    .map(|(index, _)| format!("cf_{contest}_{index}")),
                _ => None,
            }
        }
        host if host.ends_with("kattis.com") => Some(format!("kattis_{last}")),
        // The page's URL holds an opaque id; its title starts with the problem's number.
        "swexpertacademy.com" => {
            let number: String = payload
                .name
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            match (number.is_empty(), parameter("contestProbId")) {
                (false, _) => Some(format!("swea_{number}")),
                (true, Some(opaque)) => Some(format!("swea_{opaque}")),
                (true, None) => None,
            }
        }
        "school.programmers.co.kr" | "programmers.co.kr" => Some(format!("programmers_{last}")),
        // /contests/abc300/tasks/abc300_a: the task's name holds its contest.
        "atcoder.jp" => match parts.as_slice() {
            [.., "tasks", task] => Some(format!("atcoder_{task}")),
            _ => None,
        },
        // Any other judge: its site and the problem's key in its URL, so that two judges'
        // "A+B Problem" stay two problems.
        host => other_judge(host, &parts, &parameter),
    };
    let mut id = sanitize(&by_url.unwrap_or_else(|| payload.name.clone()));
    // A folder name any file system takes, and a person can type.
    id.truncate(MAX_ID_LENGTH);
    let id = id.trim_end_matches('_').to_owned();
    if id.is_empty() || id == "_" {
        "problem".to_owned()
    } else {
        id
    }
}

/// The longest problem id made from a page, in bytes (ids are ASCII).
const MAX_ID_LENGTH: usize = 64;

/// `site_key` for a judge the table does not know: the site is the host's name without its
/// `www.`, its top-level domain (and a second level such as `ac.jp`), and the key is the
/// URL's `id` parameter (`problem?id=1000`), after its contest's where a `cid` names one
/// (HDU's contest pages), or its last path segment that is not a page's file name
/// (`description.jsp`), after its contest's when it is a letter.
fn other_judge<'a>(
    host: &str,
    parts: &[&str],
    parameter: &dyn Fn(&str) -> Option<&'a str>,
) -> Option<String> {
    let mut labels: Vec<&str> = host.split('.').filter(|label| !label.is_empty()).collect();
    labels.pop()?;
    if labels.len() > 1 && labels.last().is_some_and(|label| label.len() <= 3) {
        labels.pop();
    }
    let site = labels.last().copied()?;
    let page = |part: &&str| {
        part.rsplit_once('.')
            .is_some_and(|(_, extension)| extension.chars().all(|c| c.is_ascii_alphabetic()))
    };
    if let Some(key) = [
        "id",
        "ID",
        "problemId",
        "problem_id",
        "pid",
        "cpid",
        "problem",
        "num",
    ]
    .iter()
    .find_map(|key| parameter(key))
    {
        // A contest's problem: HDU's `cid`, Timus' `space` (1 is its archive).
        let contest = parameter("cid").or(parameter("space").filter(|space| *space != "1"));
        return Some(match contest {
            Some(contest) => format!("{site}_{contest}_{key}"),
            None => format!("{site}_{key}"),
        });
    }
    let mut segments = parts.iter().rev().filter(|part| !page(part));
    let key = segments.next()?;
    // A letter names a problem only within its contest (`troc-16/problems/A`).
    const GENERIC: [&str; 6] = ["problems", "problem", "tasks", "task", "p", "view"];
    match segments.find(|part| !GENERIC.contains(part)) {
        Some(contest) if key.len() <= 2 => Some(format!("{site}_{contest}_{key}")),
        _ => Some(format!("{site}_{key}")),
    }
}

/// Lowercase letters, digits and single `_`, as problem ids are.
fn sanitize(text: &str) -> String {
    let mut id = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    id.trim_end_matches('_').to_owned()
}

/// The profile of the judge at the payload's URL; Baekjoon's for any other judge. Baekjoon
/// is asked last: an address naming another judge's host is that judge's.
pub fn profile_for(url: &str) -> Profile {
    const FALLBACK: Profile = Profile::Boj;
    Profile::ALL
        .into_iter()
        .filter(|profile| *profile != FALLBACK)
        .find(|profile| profile.online_judge().hosts_page(url))
        .unwrap_or(FALLBACK)
}

/// The class the page says its judge runs a Java solution as, where the profile's judge
/// would run another. `Main` is the extension's default, sent for every page whose parser
/// says nothing, so it is no word about the judge.
fn java_class(payload: &Payload, profile: Profile) -> Option<&str> {
    let class = payload
        .languages
        .java
        .as_ref()?
        .main_class
        .as_deref()?
        .trim();
    let said = class != "Main" && crate::toolchain::language::is_java_identifier(class);
    (said && profile.online_judge().java_class != Some(class)).then_some(class)
}

/// The statement's page: its name, where the statement is, and its group.
fn statement_of(payload: &Payload) -> String {
    let mut statement = format!("# {}\n\n", payload.name);
    if !payload.url.is_empty() {
        statement += &format!("The statement: <{}>", payload.url);
    }
    if !payload.group.is_empty() {
        statement += &format!(" ({})", payload.group);
    }
    statement.push('\n');
    statement
}

fn file_named(stream: &Option<Stream>) -> Option<String> {
    stream.as_ref().and_then(Stream::file).map(str::to_owned)
}

/// The `input_file` / `output_file` keys of a page that names its files, added to `metadata`;
/// what the user must set by hand where the page names them otherwise.
fn name_stream_files(payload: &Payload, id: &str, metadata: &mut String) -> Vec<String> {
    let mut to_do = Vec::new();
    for (stream, what, key) in [
        (&payload.input, "input", "input_file"),
        (&payload.output, "output", "output_file"),
    ] {
        let Some(stream) = stream else { continue };
        match (stream.file(), stream.kind.as_str()) {
            (Some(name), _) => *metadata += &format!("{key} = {}\n", toml_string(name)),
            (None, "stdin" | "stdout") => {}
            (None, kind) => {
                to_do.push(format!(
                "the page names its {what} as `{kind}` {}: set `{key}` in problems/{id}/problem.toml",
                stream.pattern.as_deref().or(stream.file_name.as_deref()).unwrap_or_default()
            ))
            }
        }
    }
    to_do
}

/// `problem.toml`'s first lines for `payload`, and the time (ms) and memory (MiB) limits they
/// give: the page's, where given and within the ranges `problem.toml` accepts.
fn metadata_head(payload: &Payload, profile: Profile) -> (String, u64, u64) {
    let limits = profile.online_judge().limits();
    // A negative or huge figure saturates out of the range, and the profile's stands.
    let whole = |figure: Option<f64>| figure.map(|figure| figure.floor() as u64);
    let time_ms = whole(payload.time_limit)
        .filter(|ms| TIME_LIMIT_MS.contains(ms))
        .unwrap_or(limits.cpu_time.as_millis() as u64);
    let memory_mib = whole(payload.memory_limit)
        .filter(|mib| SIZE_LIMIT_MIB.contains(mib))
        .unwrap_or(limits.memory_bytes >> 20);
    let mut metadata = format!("name = {}\n", toml_string(&payload.name));
    if !payload.url.is_empty() {
        metadata += &format!("source = {}\n", toml_string(&payload.url));
    }
    metadata += &format!(
        "profile = \"{profile}\"\ntime_limit_ms = {time_ms}\nmemory_limit_mib = {memory_mib}\ncompare = \"{}\"\n",
        profile.online_judge().compare.name()
    );
    (metadata, time_ms, memory_mib)
}

/// Makes the problem (or completes its samples); the lines to print. Where its id holds
/// another problem, it takes the next free one (`_2`, `_3`, ...): a URL may leave out what
/// tells two problems apart, and one problem's samples must never go into another.
pub fn import(repository: &Repository, payload: &Payload) -> Result<Vec<String>> {
    let wanted = problem_id(payload);
    let mut id = wanted.clone();
    for number in 2.. {
        let dir = repository.problems_dir().join(&id);
        if dir.symlink_metadata().is_err() {
            break;
        }
        if is_the_same_problem(&dir, payload) {
            return add_missing_samples(repository, &dir, &id, payload);
        }
        id = format!("{wanted}_{number}");
    }
    let profile = profile_for(&payload.url);
    let (mut metadata, time_ms, memory_mib) = metadata_head(payload, profile);
    let mut statement = statement_of(payload);
    let mut to_do = Vec::new();
    to_do.extend(name_stream_files(payload, &id, &mut metadata));
    if let Some(class) = java_class(payload, profile) {
        metadata += &format!("java_class = {}\n", toml_string(class));
    }
    if payload.interactive {
        statement += "\nAn interactive problem: the samples show one exchange only.\n";
        // Named, so that no run judges the exchange as a batch problem's input until it is
        // written.
        metadata += "# Interactive: the interactor (testlib protocol) to write.\n\
                     interactor = \"interactor.cpp\"\n";
        to_do.push(format!(
            "interactive: write an interactor as problems/{id}/interactor.cpp (testlib protocol), \
             which problem.toml names; until then the problem is not judged"
        ));
    }
    if payload.tests.is_empty() {
        to_do.push(format!(
            "the page sent no samples: add cases with `judge add {id} --input FILE --expected FILE`"
        ));
    }
    let imported = Imported {
        metadata,
        statement,
        samples: payload
            .tests
            .iter()
            .map(|test| (test.input.clone(), test.output.clone()))
            .collect(),
        counted: payload.test_type.as_deref() == Some("multiNumber"),
        files: FileIo {
            input: file_named(&payload.input),
            output: file_named(&payload.output),
        },
    };
    let made = scaffold::new_problem(repository, &id, profile, Some(&imported))?;
    let mut lines = vec![format!(
        "new problem {id} ({profile}, {time_ms} ms, {memory_mib} MiB): {}",
        payload.name
    )];
    if id != wanted {
        lines.push(format!(
            "  problems/{wanted} holds another problem, so this one is {id}"
        ));
    }
    lines.extend(made.files.iter().map(|file| format!("  created {file}")));
    if made.registered_bin {
        lines.push(format!("  added [[bin]] `{id}` to solutions/Cargo.toml"));
    }
    lines.extend(to_do.iter().map(|line| format!("  to do: {line}")));
    lines.push(format!("next: judge watch {id}"));
    Ok(lines)
}

/// Whether the problem in `dir` is the payload's: made from the same page, or of the same
/// name, or holding one of its samples as it is (the same problem in another layout or
/// language of its site). A folder that shows none of these is another problem.
fn is_the_same_problem(dir: &Path, payload: &Payload) -> bool {
    let metadata = std::fs::read_to_string(dir.join(METADATA_FILE)).unwrap_or_default();
    let table = metadata.parse::<toml::Table>().unwrap_or_default();
    let said = |key: &str| table.get(key).and_then(toml::Value::as_str);
    let holds = |number: usize, test: &Sample| {
        let (input, output) = sample_files(dir, number);
        std::fs::read(input).is_ok_and(|input| input == test.input.as_bytes())
            && std::fs::read(output).is_ok_and(|output| output == test.output.as_bytes())
    };
    (!payload.url.is_empty() && said("source") == Some(&payload.url))
        || said("name") == Some(&payload.name)
        || (payload.tests.iter().enumerate()).any(|(index, test)| holds(index + 1, test))
}

/// The input and answer of the problem's sample `number` (from 1).
fn sample_files(dir: &Path, number: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let samples = dir.join("tests").join("sample");
    (
        samples.join(format!("{number}.in")),
        samples.join(format!("{number}.out")),
    )
}

/// An existing problem: each sample whose number is free is added; the rest is kept.
fn add_missing_samples(
    repository: &Repository,
    dir: &Path,
    id: &str,
    payload: &Payload,
) -> Result<Vec<String>> {
    let mut lines = vec![format!("{id} exists: adding only the samples it lacks")];
    lines.extend(differing_limits(dir, payload));
    if payload.tests.is_empty() {
        lines.push("  the page sent no samples: nothing to add".to_owned());
        return Ok(lines);
    }
    let samples = dir.join("tests").join("sample");
    std::fs::create_dir_all(&samples).map_err(|error| Error::io(&samples, error))?;
    for (number, test) in payload.tests.iter().enumerate() {
        let (input, output) = sample_files(dir, number + 1);
        let shown = repository
            .relative(&input)
            .with_extension("")
            .display()
            .to_string();
        if input.exists() || output.exists() {
            let same = |path: &Path, text: &str| {
                std::fs::read(path).is_ok_and(|bytes| bytes == text.as_bytes())
            };
            let note = match same(&input, &test.input) && same(&output, &test.output) {
                true => "already there",
                false => "already there; the page's differs, so compare them",
            };
            lines.push(format!("  kept    {shown} ({note})"));
            continue;
        }
        // The answer first: an input without one is an error for discovery, the reverse too,
        // but a crash between the two leaves a file a user sees at once either way.
        create_new(&output, test.output.as_bytes())?;
        create_new(&input, test.input.as_bytes())?;
        lines.push(format!("  added   {shown}"));
    }
    Ok(lines)
}

/// A line for each limit `problem.toml` states otherwise than the page: the user's stays.
fn differing_limits(dir: &Path, payload: &Payload) -> Vec<String> {
    let (_, time_ms, memory_mib) = metadata_head(payload, profile_for(&payload.url));
    let metadata = std::fs::read_to_string(dir.join(METADATA_FILE)).unwrap_or_default();
    let table = metadata.parse::<toml::Table>().unwrap_or_default();
    let stated = |key: &str| table.get(key).and_then(toml::Value::as_integer);
    [
        ("time_limit_ms", time_ms, "ms"),
        ("memory_limit_mib", memory_mib, "MiB"),
    ]
    .into_iter()
    .filter_map(|(key, page, unit)| {
        let kept = stated(key).filter(|&kept| kept != page as i64)?;
        Some(format!(
            "  kept    {key} = {kept} in problem.toml (the page says {page} {unit})"
        ))
    })
    .collect()
}

/// A value as `problem.toml` writes it.
pub(super) fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// `judge new --from FILE.json`.
pub fn import_file(repository: &Repository, file: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(file).map_err(|error| Error::io(file, error))?;
    import(repository, &parse(&text, file)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(name: &str, url: &str) -> Payload {
        Payload {
            name: name.into(),
            group: String::new(),
            url: url.into(),
            interactive: false,
            memory_limit: None,
            time_limit: None,
            tests: Vec::new(),
            input: None,
            output: None,
            test_type: None,
            languages: Languages::default(),
        }
    }

    #[test]
    fn the_java_class_is_kept_where_the_judge_would_run_another() {
        let with_class = |url: &str, class: &str| {
            let text = format!(
                r#"{{"name": "x", "url": "{url}", "tests": [],
                    "languages": {{"java": {{"mainClass": "{class}", "taskClass": "X"}}}}}}"#
            );
            let payload = parse(&text, Path::new("p.json")).unwrap();
            java_class(&payload, profile_for(url)).map(str::to_owned)
        };
        let google = "https://codingcompetitions.withgoogle.com/codejam/round/1/00";
        assert_eq!(with_class(google, "Solution").as_deref(), Some("Solution"));
        // Baekjoon runs Main, Codeforces any class: `Main`, the extension's default, says nothing.
        assert_eq!(
            with_class("https://www.acmicpc.net/problem/1000", "Main"),
            None
        );
        assert_eq!(
            with_class("https://codeforces.com/contest/1/problem/A", "Main"),
            None
        );
        // SW Expert Academy runs Solution whatever the default says; a page that says it
        // adds nothing.
        let swea =
            "https://swexpertacademy.com/main/code/problem/problemDetail.do?contestProbId=AX";
        assert_eq!(with_class(swea, "Main"), None);
        assert_eq!(with_class(swea, "Solution"), None);
        assert_eq!(
            with_class("https://train.usaco.org/x", "ride").as_deref(),
            Some("ride")
        );
        assert_eq!(with_class(google, "not a class"), None);
    }

    #[test]
    fn ids_from_urls() {
        const SWEA: &str =
            "https://swexpertacademy.com/main/code/problem/problemDetail.do?contestProbId=AX";
        // (the page's name, its URL, the id)
        let cases = [
            ("A Name", "https://www.acmicpc.net/problem/1000", "boj_1000"),
            ("A Name", "https://codeforces.com/contest/1234/problem/A", "cf_1234_a"),
            ("A Name", "https://codeforces.com/problemset/problem/1234/B1", "cf_1234_b1"),
            ("A Name", "https://open.kattis.com/problems/hello", "kattis_hello"),
            ("A Name", "https://school.programmers.co.kr/learn/courses/30/lessons/160585", "programmers_160585"),
            ("A Name", "https://swexpertacademy.com/main/code/problem/problemDetail.do?contestProbId=AWqPvqoqSHWDFAWB&categoryId=x", "swea_awqpvqoqshwdfawb"),
            ("A Name", "https://example.com/x", "example_x"),
            ("A Name", "", "a_name"),
            ("  --- ", "", "problem"),
            // Other judges: the site and the problem's key.
            ("A Name", "http://poj.org/problem?id=1000", "poj_1000"),
            ("A Name", "https://dmoj.ca/problem/aplusb", "dmoj_aplusb"),
            ("A Name", "https://vjudge.net/problem/51Nod-1289", "vjudge_51nod_1289"),
            ("A Name", "https://tlx.toki.id/contests/troc-16/problems/A", "toki_troc_16_a"),
            ("A Name", "https://codeforces.com/problemsets/acmsguru/problem/99999/123?locale=en", "cf_acmsguru_123"),
            ("B. Spreadsheets", "https://codeforces.com/contest/1/problems?locale=en", "cf_1_b"),
            ("A Name", "http://usaco.org/index.php?page=viewproblem2&cpid=840", "usaco_840"),
            ("A Name", "https://acm.timus.ru/problem.aspx?space=1&num=1098&locale=ru", "timus_1098"),
            ("A Name", "https://acm.timus.ru/problem.aspx?space=340&num=1", "timus_340_1"),
            ("A Name", "https://judge.u-aizu.ac.jp/onlinejudge/description.jsp?id=CGL_1_A&lang=en", "u_aizu_cgl_1_a"),
            ("11545. Tomek", SWEA, "swea_11545"),
            // A contest's problems are told apart by the contest (the extension's own payloads).
            ("A Name", "https://vjudge.net/contest/480959#problem/A", "vjudge_480959_a"),
            ("A Name", "http://acm.hdu.edu.cn/contest_showproblem.php?pid=1004&cid=26", "hdu_26_1004"),
            ("A Name", "http://acm.hdu.edu.cn/showproblem.php?pid=1004", "hdu_1004"),
            // Query strings and fragments are not the problem's.
            ("A Name", "https://codeforces.com/problemset/problem/234/A?locale=en", "cf_234_a"),
            ("A Name", "https://codeforces.com/gym/102222/problem/C#top", "cf_102222_c"),
            ("A Name", "https://m1.codeforces.com/contest/1/problem/A", "cf_1_a"),
            ("A Name", "https://www.acmicpc.net/problem/1000?lang=ko", "boj_1000"),
            ("A Name", "https://nwerc.kattis.com/contests/nwerc2023/problems/hello?tab=x", "kattis_hello"),
            ("A Name", "https://atcoder.jp/contests/abc300/tasks/abc300_a?lang=en", "atcoder_abc300_a"),
            ("A Name", "https://school.programmers.co.kr/learn/courses/30/lessons/160585?language=java", "programmers_160585"),
        ];
        for (name, url, id) in cases {
            assert_eq!(problem_id(&payload(name, url)), id, "{name:?} at {url:?}");
        }
        // A name of any length makes a folder name a file system takes.
        let long = problem_id(&payload(&"Very long name ".repeat(300), ""));
        assert_eq!(
            long,
            "very_long_name_".repeat(5)[..64].trim_end_matches('_')
        );
    }

    /// A fraction is taken down, as the extension does; a figure out of range leaves the
    /// profile's limit.
    #[test]
    fn limits_are_whole_figures_within_range() {
        let limits = |time: f64, memory: f64| {
            let page = Payload {
                time_limit: Some(time),
                memory_limit: Some(memory),
                ..payload("A", "https://www.acmicpc.net/problem/1000")
            };
            let (_, time_ms, memory_mib) = metadata_head(&page, Profile::Boj);
            (time_ms, memory_mib)
        };
        assert_eq!(limits(1500.0, 62.5), (1500, 62));
        let default = limits(f64::NAN, -1.0);
        assert_eq!(default, limits(0.0, 1e30));
        assert_ne!(default.1, 0);
    }

    #[test]
    fn profiles_from_hosts() {
        assert_eq!(
            profile_for("https://www.acmicpc.net/problem/1"),
            Profile::Boj
        );
        assert_eq!(
            profile_for("https://swexpertacademy.com/main/x"),
            Profile::Swea
        );
        assert_eq!(
            profile_for("https://school.programmers.co.kr/learn/courses/30/lessons/1"),
            Profile::Programmers
        );
        assert_eq!(
            profile_for("https://open.kattis.com/problems/a"),
            Profile::Kattis
        );
        // Baekjoon is the fallback: another judge's host wins over a mention of it.
        assert_eq!(
            profile_for("https://codeforces.com/problemset/problem/1/A?from=acmicpc.net"),
            Profile::Codeforces
        );
    }

    #[test]
    fn bad_payloads_name_the_fault() {
        let origin = Path::new("p.json");
        let error = parse("{\"name\": \"x\",\n \"tests\": [}", origin).unwrap_err();
        assert!(
            error.to_string().starts_with("p.json: line 2: column"),
            "{error}"
        );
        let error = parse("{\"name\": \" \", \"tests\": []}", origin).unwrap_err();
        assert_eq!(
            error.to_string(),
            "p.json: the payload has neither a name nor a url"
        );
        // No samples is still a problem.
        assert!(parse("{\"name\": \"x\", \"tests\": []}", origin).is_ok());
        let error = parse(" [{\"name\": \"x\"}, {\"name\": \"y\"}]", origin).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("p.json: line 1: a JSON array, not a Competitive Companion payload"),
            "{error}"
        );
    }

    #[test]
    fn every_judge_is_recognised_by_each_of_its_hosts() {
        for profile in Profile::ALL {
            for host in profile.online_judge().hosts {
                assert_eq!(profile_for(&format!("https://{host}/problem/1")), profile);
            }
        }
    }
}
