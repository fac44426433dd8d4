//! `problem.xml`, the parts this judge reads. Every value keeps its line, so that a fault
//! names it.

use std::path::Path;

use roxmltree::{Document, Node};

use super::pattern::PathPattern;
use crate::error::{Error, Result};
use crate::problem::checker_spec::RunTwice;

/// A program of the package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SourceRef {
    /// Relative to the package.
    pub path: String,
    /// Polygon's type: `cpp.g++17`, `python.3`, ...
    pub kind: String,
    /// Of its `<source>`.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct TestEntry {
    /// `sample="true"`: shown in the statement.
    pub sample: bool,
    /// `method="generated"`: the generator's command line.
    pub generated: Option<String>,
    pub group: Option<String>,
    pub points: Option<f64>,
    pub line: usize,
}

/// The `<testset>` of a checker or validator: file patterns and each test's expected
/// verdict with its line.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SelfTests {
    pub input: PathPattern,
    /// A checker test's output, and its answer.
    pub output: Option<PathPattern>,
    pub answer: Option<PathPattern>,
    pub verdicts: Vec<(String, usize)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct GroupEntry {
    pub name: String,
    /// What the whole group is worth.
    pub points: Option<f64>,
    /// `points-policy="each-test"`: each test's points won by itself; else (`complete-group`)
    /// the group's only when every test of it passes.
    pub each_test: bool,
    /// Groups that must pass whole for this one to count.
    pub dependencies: Vec<String>,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub(super) struct Description {
    pub name: Option<String>,
    pub input_file: Option<(String, usize)>,
    /// `treat-points-from-checker-as-percent="true"`: a checker's points are a percentage of
    /// the test's.
    pub points_as_percent: bool,
    pub output_file: Option<(String, usize)>,
    pub time_limit_ms: u64,
    pub memory_bytes: u64,
    pub test_count: (usize, usize),
    pub input_pattern: PathPattern,
    pub answer_pattern: PathPattern,
    pub tests: Vec<TestEntry>,
    pub groups: Vec<GroupEntry>,
    pub checker: Option<SourceRef>,
    /// Talks with the solution; the checker then reads what it wrote.
    pub interactor: Option<SourceRef>,
    pub runs_twice: Option<RunTwice>,
    pub checker_tests: Option<SelfTests>,
    pub validators: Vec<(SourceRef, Option<SelfTests>)>,
    /// The line of `<assets>`, or of the root when there is none.
    pub assets_line: usize,
    pub main_solution: Option<SourceRef>,
    /// The main one too, in file order.
    pub solutions: Vec<ListedSolution>,
    /// `<files><executables>` (generators, validators), in file order.
    pub executables: Vec<SourceRef>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct ListedSolution {
    pub source: SourceRef,
    pub tag: Tag,
    pub extra_tags: Vec<ExtraTag>,
}

/// An `<extra-tag>`: what a solution gets on one group of a testset (or on a whole other
/// testset, such as `pretests`), beside its tag on the whole `tests` testset.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtraTag {
    /// `tests` when it does not say.
    pub testset: String,
    /// `None`: the whole testset.
    pub group: Option<String>,
    pub tag: Tag,
    pub line: usize,
}

/// What a solution's `tag` says it gets, as Polygon checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// Passes; its answers are the jury's.
    Main,
    Accepted,
    /// Fails, for any reason.
    Rejected,
    WrongAnswer,
    /// The checker's exit 2.
    PresentationError,
    TimeLimitExceeded,
    TimeLimitExceededOrAccepted,
    TimeLimitExceededOrMemoryLimitExceeded,
    MemoryLimitExceeded,
    /// Fails by crashing.
    Failed,
}

impl Tag {
    /// With their names in `problem.xml`.
    pub const ALL: [(Tag, &'static str); 10] = [
        (Tag::Main, "main"),
        (Tag::Accepted, "accepted"),
        (Tag::Rejected, "rejected"),
        (Tag::WrongAnswer, "wrong-answer"),
        (Tag::PresentationError, "presentation-error"),
        (Tag::TimeLimitExceeded, "time-limit-exceeded"),
        (
            Tag::TimeLimitExceededOrAccepted,
            "time-limit-exceeded-or-accepted",
        ),
        (
            Tag::TimeLimitExceededOrMemoryLimitExceeded,
            "time-limit-exceeded-or-memory-limit-exceeded",
        ),
        (Tag::MemoryLimitExceeded, "memory-limit-exceeded"),
        (Tag::Failed, "failed"),
    ];

    pub fn name(self) -> &'static str {
        Tag::ALL
            .iter()
            .find(|(tag, _)| *tag == self)
            .map_or("", |(_, name)| name)
    }

    /// When `judge verify` finds a solution keeps it: Codeforces' verdict is the first failed
    /// test's.
    pub fn kept_when(self) -> &'static str {
        match self {
            Tag::Main | Tag::Accepted => "every test AC, with its full points where scored",
            Tag::Rejected => "some test not AC, or points short of the full",
            Tag::WrongAnswer => "the first failed test WA",
            Tag::PresentationError => "the first failed test WA by the checker's exit 2 or 4",
            Tag::TimeLimitExceeded => "the first failed test TLE",
            Tag::TimeLimitExceededOrAccepted => "every test AC, or the first failed one TLE",
            Tag::TimeLimitExceededOrMemoryLimitExceeded => "the first failed test TLE or MLE",
            Tag::MemoryLimitExceeded => "the first failed test MLE",
            Tag::Failed => "the first failed test RE",
        }
    }

    fn named(name: &str) -> Option<Tag> {
        Tag::ALL
            .iter()
            .find(|(_, known)| *known == name)
            .map(|(tag, _)| *tag)
    }

    /// A tag's name, or the two letters Polygon's interface and API give it (`TO` is time
    /// limit or OK).
    fn extra_named(name: &str) -> Option<Tag> {
        let short = match name.to_ascii_uppercase().as_str() {
            "OK" => Tag::Accepted,
            "RJ" => Tag::Rejected,
            "WA" => Tag::WrongAnswer,
            "PE" => Tag::PresentationError,
            "TL" => Tag::TimeLimitExceeded,
            "TO" => Tag::TimeLimitExceededOrAccepted,
            "ML" => Tag::MemoryLimitExceeded,
            "RE" => Tag::Failed,
            _ => return Tag::named(name),
        };
        Some(short)
    }
}

pub(super) fn parse(path: &Path, text: &str) -> Result<Description> {
    let document = Document::parse(text).map_err(|error| {
        Error::parse(
            path,
            Some(error.pos().row as usize),
            format!("not well-formed XML: {error}"),
        )
    })?;
    let reader = Reader {
        path,
        document: &document,
    };
    reader.description()
}

struct Reader<'a, 'input> {
    path: &'a Path,
    document: &'a Document<'input>,
}

impl<'a, 'input> Reader<'a, 'input> {
    fn line(&self, node: Node) -> usize {
        self.document.text_pos_at(node.range().start).row as usize
    }

    fn fault(&self, node: Node, message: impl Into<String>) -> Error {
        Error::parse(self.path, Some(self.line(node)), message)
    }

    fn child<'n>(&self, node: Node<'n, 'input>, tag: &str) -> Option<Node<'n, 'input>> {
        node.children().find(|child| child.has_tag_name(tag))
    }

    fn required<'n>(&self, node: Node<'n, 'input>, tag: &str) -> Result<Node<'n, 'input>> {
        self.child(node, tag)
            .ok_or_else(|| self.fault(node, format!("<{}> has no <{tag}>", node.tag_name().name())))
    }

    fn number(&self, node: Node, what: &str) -> Result<u64> {
        let text = node.text().unwrap_or_default().trim();
        text.parse::<u64>()
            .map_err(|_| self.fault(node, format!("<{what}> `{text}` is not a whole number")))
    }

    fn description(&self) -> Result<Description> {
        let root = self.document.root_element();
        if !root.has_tag_name("problem") {
            return Err(self.fault(root, "the root element is not <problem>"));
        }
        let (judging, testset) = self.judging_tests(root)?;
        let (time_limit_ms, memory_bytes) = self.limits(testset)?;
        let count = self.required(testset, "test-count")?;
        let test_count = (self.number(count, "test-count")? as usize, self.line(count));
        let pattern = |tag: &str| -> Result<PathPattern> {
            let node = self.required(testset, tag)?;
            PathPattern::parse(node.text().unwrap_or_default())
                .map_err(|message| self.fault(node, format!("<{tag}>: {message}")))
        };
        let input_pattern = pattern("input-path-pattern")?;
        let answer_pattern = pattern("answer-path-pattern")?;
        let (tests, groups) = self.tests_and_groups(testset)?;
        let file = |attribute: &str| {
            judging
                .attribute(attribute)
                .filter(|name| !name.is_empty())
                .map(|name| (name.to_owned(), self.line(judging)))
        };
        let assets = self.child(root, "assets");
        let interactor_node = assets.and_then(|assets| self.child(assets, "interactor"));
        let interactor = match interactor_node {
            Some(interactor) => Some(self.source(interactor)?),
            None => None,
        };
        let runs_twice = self.runs_twice(root, judging, interactor_node)?;
        let checker_node = assets.and_then(|assets| self.child(assets, "checker"));
        let (checker, checker_tests) = match checker_node {
            Some(checker) => (Some(self.checker(checker)?), self.self_tests(checker)?),
            None => (None, None),
        };
        let solutions = match assets.and_then(|assets| self.child(assets, "solutions")) {
            Some(solutions) => self.solutions(solutions)?,
            None => Vec::new(),
        };
        let executables = (self.grandchildren(root, "files", "executables"))
            .flat_map(|executables| executables.children())
            .filter(|node| node.has_tag_name("executable"))
            .map(|executable| self.source(executable))
            .collect::<Result<Vec<_>>>()?;
        let validators = (assets.into_iter())
            .flat_map(|assets| self.grandchildren(assets, "validators", "validator"))
            .map(|validator| Ok((self.source(validator)?, self.self_tests(validator)?)))
            .collect::<Result<Vec<_>>>()?;
        let main_solution = (solutions.iter())
            .find(|solution| solution.tag == Tag::Main)
            .map(|solution| solution.source.clone());
        Ok(Description {
            name: self.name(root),
            input_file: file("input-file"),
            points_as_percent: judging.attribute("treat-points-from-checker-as-percent")
                == Some("true"),
            output_file: file("output-file"),
            time_limit_ms,
            memory_bytes,
            test_count,
            input_pattern,
            answer_pattern,
            tests,
            groups,
            checker,
            interactor,
            runs_twice,
            checker_tests,
            validators,
            assets_line: self.line(assets.unwrap_or(root)),
            main_solution,
            solutions,
            executables,
        })
    }

    /// `<judging>` and its `<testset name="tests">`, the one testset a judge runs.
    fn judging_tests<'n>(
        &self,
        root: Node<'n, 'input>,
    ) -> Result<(Node<'n, 'input>, Node<'n, 'input>)> {
        let judging = self.required(root, "judging")?;
        // PCMS2 (NEERC's judge) names its file problem.xml too, with tests in a <script>.
        if let Some(script) = self.child(judging, "script") {
            return Err(self.fault(
                script,
                "a PCMS2 problem description (<judging><script>), not a Polygon package's: \
                 this judge reads Polygon's, whose tests are a <testset name=\"tests\"> in <judging>",
            ));
        }
        let testset = judging
            .children()
            .find(|node| node.has_tag_name("testset") && node.attribute("name") == Some("tests"))
            .ok_or_else(|| self.fault(judging, "<judging> has no <testset name=\"tests\">"))?;
        Ok((judging, testset))
    }

    /// The children named `tag` of `node`'s children named `parent`.
    fn grandchildren<'n>(
        &self,
        node: Node<'n, 'input>,
        parent: &'n str,
        tag: &'n str,
    ) -> impl Iterator<Item = Node<'n, 'input>> {
        (node
            .children()
            .filter(move |child| child.has_tag_name(parent)))
        .flat_map(|child| child.children())
        .filter(move |child| child.has_tag_name(tag))
    }

    /// Time limit (ms) and memory limit (bytes), each in its range.
    fn limits(&self, testset: Node) -> Result<(u64, u64)> {
        let time = self.required(testset, "time-limit")?;
        let time_limit_ms = self.number(time, "time-limit")?;
        if !(1..=3_600_000).contains(&time_limit_ms) {
            return Err(self.fault(
                time,
                format!("<time-limit> {time_limit_ms} ms is not from 1 to 3600000"),
            ));
        }
        let memory = self.required(testset, "memory-limit")?;
        let memory_bytes = self.number(memory, "memory-limit")?;
        if !(1 << 20..=1 << 40).contains(&memory_bytes) {
            return Err(self.fault(
                memory,
                format!("<memory-limit> {memory_bytes} bytes is not from 1 MiB to 1 TiB"),
            ));
        }
        Ok((time_limit_ms, memory_bytes))
    }

    fn tests_and_groups(&self, testset: Node) -> Result<(Vec<TestEntry>, Vec<GroupEntry>)> {
        let tests = (self.grandchildren(testset, "tests", "test"))
            .map(|test| {
                Ok(TestEntry {
                    sample: test.attribute("sample") == Some("true"),
                    generated: (test.attribute("method") == Some("generated"))
                        .then(|| test.attribute("cmd").unwrap_or_default().to_owned()),
                    group: test.attribute("group").map(str::to_owned),
                    points: self.points(test)?,
                    line: self.line(test),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let groups = (self.grandchildren(testset, "groups", "group"))
            .map(|group| self.group(group))
            .collect::<Result<Vec<_>>>()?;
        Ok((tests, groups))
    }

    /// Whether the solution runs twice, and how (Polygon's default strategy): `run-count="2"`,
    /// or without a `run-count`, a `run-twice` tag; with an interactor, it talks with both
    /// runs where it lists them (`<runs>`), as the tag alone also means.
    fn runs_twice(
        &self,
        root: Node,
        judging: Node,
        interactor: Option<Node>,
    ) -> Result<Option<RunTwice>> {
        let twice = match judging.attribute("run-count") {
            None => (self.grandchildren(root, "tags", "tag"))
                .any(|tag| tag.attribute("value") == Some("run-twice")),
            Some("1") => false,
            Some("2") => true,
            Some(count) => {
                let message = format!("run-count=\"{count}\": a solution runs once or twice");
                return Err(self.fault(judging, message));
            }
        };
        let lists_runs = |node: Node| self.child(node, "runs").is_some();
        Ok(twice.then(|| match interactor {
            None => RunTwice::Checked,
            Some(node) if lists_runs(node) || judging.attribute("run-count").is_none() => {
                RunTwice::BothInteractive
            }
            Some(_) => RunTwice::FirstInteractive,
        }))
    }

    /// Only testlib checkers are judged.
    fn checker(&self, checker: Node) -> Result<SourceRef> {
        if let Some(kind) = checker.attribute("type").filter(|kind| *kind != "testlib") {
            return Err(self.fault(
                checker,
                format!("<checker type=\"{kind}\">: only testlib checkers are judged"),
            ));
        }
        self.source(checker)
    }

    /// A tag Polygon does not have is a fault.
    fn solutions(&self, solutions: Node) -> Result<Vec<ListedSolution>> {
        let known = || Tag::ALL.map(|(_, name)| name).join(", ");
        (solutions.children())
            .filter(|node| node.has_tag_name("solution"))
            .map(|solution| {
                let name = solution.attribute("tag").unwrap_or_default();
                let tag = Tag::named(name).ok_or_else(|| {
                    let message = format!("<solution tag=\"{name}\">: the tags are {}", known());
                    self.fault(solution, message)
                })?;
                let extra_tags = (self.grandchildren(solution, "extra-tags", "extra-tag"))
                    .map(|extra| self.extra_tag(extra))
                    .collect::<Result<_>>()?;
                Ok(ListedSolution {
                    source: self.source(solution)?,
                    tag,
                    extra_tags,
                })
            })
            .collect()
    }

    fn extra_tag(&self, extra: Node) -> Result<ExtraTag> {
        let name = extra.attribute("tag").unwrap_or_default();
        let tag = Tag::extra_named(name).ok_or_else(|| {
            let message = format!(
                "<extra-tag tag=\"{name}\">: the tags are OK, RJ, WA, PE, TL, TO, ML, RE or {}",
                Tag::ALL.map(|(_, name)| name).join(", ")
            );
            self.fault(extra, message)
        })?;
        let group = extra.attribute("group").map(str::to_owned);
        let testset = extra.attribute("testset").map(str::to_owned);
        if group.is_none() && testset.is_none() {
            let message = "<extra-tag> names neither a group nor a testset".to_owned();
            return Err(self.fault(extra, message));
        }
        Ok(ExtraTag {
            testset: testset.unwrap_or_else(|| "tests".to_owned()),
            group,
            tag,
            line: self.line(extra),
        })
    }

    fn self_tests(&self, program: Node) -> Result<Option<SelfTests>> {
        let Some(testset) = self.child(program, "testset") else {
            return Ok(None);
        };
        let pattern = |tag: &str| -> Result<Option<PathPattern>> {
            let Some(node) = self.child(testset, tag) else {
                return Ok(None);
            };
            let parsed = PathPattern::parse(node.text().unwrap_or_default())
                .map_err(|message| self.fault(node, format!("<{tag}>: {message}")))?;
            Ok(Some(parsed))
        };
        let verdicts = (self.child(testset, "tests").into_iter())
            .flat_map(|tests| tests.children().filter(|node| node.has_tag_name("test")))
            .map(|test| {
                let verdict = test.attribute("verdict").unwrap_or_default().to_owned();
                (verdict, self.line(test))
            })
            .collect::<Vec<_>>();
        if verdicts.is_empty() {
            return Ok(None);
        }
        let input = pattern("input-path-pattern")?
            .ok_or_else(|| self.fault(testset, "<testset> has no <input-path-pattern>"))?;
        Ok(Some(SelfTests {
            input,
            output: pattern("output-path-pattern")?,
            answer: pattern("answer-path-pattern")?,
            verdicts,
        }))
    }

    /// Not below 0.
    fn points(&self, node: Node) -> Result<Option<f64>> {
        let Some(text) = node.attribute("points") else {
            return Ok(None);
        };
        match text.trim().parse::<f64>() {
            Ok(points) if points.is_finite() && points >= 0.0 => Ok(Some(points)),
            _ => Err(self.fault(node, format!("points=\"{text}\" is not a number of points"))),
        }
    }

    fn group(&self, group: Node) -> Result<GroupEntry> {
        let name = group.attribute("name").filter(|name| !name.is_empty());
        let name = name.ok_or_else(|| self.fault(group, "<group> has no `name`"))?;
        let each_test = match group.attribute("points-policy") {
            None | Some("complete-group") => false,
            Some("each-test") => true,
            Some(other) => {
                return Err(self.fault(
                    group,
                    format!(
                        "<group name=\"{name}\">: points-policy=\"{other}\" is neither \
                         complete-group nor each-test"
                    ),
                ))
            }
        };
        let dependencies = (self.child(group, "dependencies").into_iter())
            .flat_map(|dependencies| dependencies.children())
            .filter(|node| node.has_tag_name("dependency"))
            .map(|dependency| {
                (dependency.attribute("group").map(str::to_owned))
                    .ok_or_else(|| self.fault(dependency, "<dependency> has no `group`"))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(GroupEntry {
            name: name.to_owned(),
            points: self.points(group)?,
            each_test,
            dependencies,
            line: self.line(group),
        })
    }

    /// The English one, else the first.
    fn name(&self, root: Node) -> Option<String> {
        let names: Vec<Node> = self
            .child(root, "names")?
            .children()
            .filter(|node| node.has_tag_name("name"))
            .collect();
        names
            .iter()
            .find(|name| name.attribute("language") == Some("english"))
            .or(names.first())
            .and_then(|name| name.attribute("value"))
            .map(str::to_owned)
    }

    fn source(&self, node: Node) -> Result<SourceRef> {
        let what = node.tag_name().name();
        let source = self.required(node, "source")?;
        let attribute = |name: &str| {
            source
                .attribute(name)
                .filter(|value| !value.is_empty())
                .ok_or_else(|| {
                    self.fault(source, format!("the <source> of <{what}> has no `{name}`"))
                })
        };
        Ok(SourceRef {
            path: attribute("path")?.to_owned(),
            kind: attribute("type")?.to_owned(),
            line: self.line(source),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="sum">
    <names>
        <name language="russian" value="Сумма"/>
        <name language="english" value="Sum"/>
    </names>
    <judging input-file="" output-file="output.txt">
        <testset name="pretests">
            <time-limit>1</time-limit>
        </testset>
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test cmd="gen 5" method="generated"/>
            </tests>
        </testset>
    </judging>
    <assets>
        <checker name="std::wcmp.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
        </checker>
        <solutions>
            <solution tag="accepted"><source path="solutions/other.py" type="python.3"/></solution>
            <solution tag="main"><source path="solutions/main.cpp" type="cpp.g++17"/></solution>
        </solutions>
    </assets>
</problem>
"#;

    #[test]
    fn the_tests_testset_the_name_checker_and_main_solution_are_read() {
        let read = parse(Path::new("problem.xml"), SMALL).unwrap();
        assert_eq!(read.name.as_deref(), Some("Sum"));
        assert_eq!(read.input_file, None);
        assert_eq!(read.output_file, Some(("output.txt".to_owned(), 7)));
        assert_eq!(read.time_limit_ms, 2000);
        assert_eq!(read.memory_bytes, 256 << 20);
        assert_eq!(read.test_count, (2, 14));
        assert_eq!(read.input_pattern.path(2), "tests/02");
        assert_eq!(
            read.tests,
            vec![
                TestEntry {
                    sample: true,
                    generated: None,
                    group: None,
                    points: None,
                    line: 18,
                },
                TestEntry {
                    sample: false,
                    generated: Some("gen 5".into()),
                    group: None,
                    points: None,
                    line: 19,
                },
            ]
        );
        let checker = read.checker.unwrap();
        assert_eq!(
            (checker.path.as_str(), checker.line),
            ("files/check.cpp", 25)
        );
        let main = read.main_solution.unwrap();
        assert_eq!(
            (main.path.as_str(), main.kind.as_str()),
            ("solutions/main.cpp", "cpp.g++17")
        );
        let tagged: Vec<(&str, Tag)> = (read.solutions.iter())
            .map(|solution| (solution.source.path.as_str(), solution.tag))
            .collect();
        assert_eq!(
            tagged,
            [
                ("solutions/other.py", Tag::Accepted),
                ("solutions/main.cpp", Tag::Main)
            ]
        );
    }

    #[test]
    fn run_twice_is_read_from_run_count_or_the_tag_and_the_interactors_runs() {
        let kind = |run_count: &str, tag: bool, interactor: &str| {
            let mut xml = SMALL.replace("output-file=", &format!("{run_count} output-file="));
            if tag {
                xml = xml.replace(
                    "<judging",
                    "<tags><tag value=\"run-twice\"/></tags><judging",
                );
            }
            let interactor = format!("<interactor>{interactor}</interactor><solutions>");
            if !interactor.starts_with("<interactor></") {
                xml = xml.replace("<solutions>", &interactor);
            }
            parse(Path::new("problem.xml"), &xml).unwrap().runs_twice
        };
        let source = r#"<source path="files/interactor.cpp" type="cpp.g++17"/>"#;
        let runs = format!("{source}<runs><run>1</run><run>2</run></runs>");
        assert_eq!(kind("", false, ""), None);
        assert_eq!(kind("run-count=\"1\"", true, ""), None);
        assert_eq!(kind("", false, source), None);
        assert_eq!(kind("run-count=\"2\"", false, ""), Some(RunTwice::Checked));
        assert_eq!(
            kind("run-count=\"2\"", false, source),
            Some(RunTwice::FirstInteractive)
        );
        assert_eq!(
            kind("run-count=\"2\"", false, &runs),
            Some(RunTwice::BothInteractive)
        );
        assert_eq!(kind("", true, ""), Some(RunTwice::Checked));
        assert_eq!(kind("", true, source), Some(RunTwice::BothInteractive));
    }

    #[test]
    fn faults_name_their_line() {
        let refused = |xml: &str| {
            parse(Path::new("problem.xml"), xml)
                .unwrap_err()
                .to_string()
        };
        let broken = SMALL.replace("<test-count>2</test-count>", "<test-count>two</test-count>");
        let error = refused(&broken);
        assert_eq!(
            error,
            "problem.xml: line 14: <test-count> `two` is not a whole number"
        );
        let unclosed = SMALL.replace("</tests>", "");
        let error = refused(&unclosed);
        assert!(error.starts_with("problem.xml: line "), "{error}");
        assert!(error.contains("not well-formed XML"), "{error}");
        let interactive = SMALL.replace("<solutions>", "<interactor/><solutions>");
        let error = refused(&interactive);
        assert!(
            error.contains("line 27: <interactor> has no <source>"),
            "{error}"
        );
        let thrice = SMALL.replace("output-file=", "run-count=\"3\" output-file=");
        let error = refused(&thrice);
        assert!(
            error.contains("line 7: run-count=\"3\": a solution runs once or twice"),
            "{error}"
        );
        let unknown_tag = SMALL.replace("tag=\"accepted\"", "tag=\"ok\"");
        let error = refused(&unknown_tag);
        assert!(
            error.contains("line 28: <solution tag=\"ok\">: the tags are main, accepted,"),
            "{error}"
        );
        let no_number = SMALL.replace("tests/%02d.a", "tests/answer.a");
        let error = refused(&no_number);
        assert!(error.contains("line 16: <answer-path-pattern>"), "{error}");
        // NEERC's PCMS2 writes a problem.xml of its own.
        let pcms2 = "<problem id=\"a\" version=\"1.0\">\n  <judging>\n    <script type=\"%icpc\">\n      \
                     <testset test-count=\"2\" input-href=\"tests/##\"/>\n    </script>\n  </judging>\n</problem>\n";
        let error = refused(pcms2);
        assert!(
            error.starts_with("problem.xml: line 3: a PCMS2 problem description (<judging><script>), not a Polygon package's"),
            "{error}"
        );
    }
}
