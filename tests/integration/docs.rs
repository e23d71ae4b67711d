//! The documentation, kept true.
//!
//! - **Rust blocks compile exactly as shown, and run.** Every ```` ```rust ```` block of
//!   `README.md` and `docs/testing.md` is a file of `tests/integration/snippets/`, byte for byte,
//!   and `snippets/mod.rs` `include!`s each into a module of its own of this test binary. So
//!   each block is compiled as written — no hidden lines, nothing added around it but the
//!   module — as a test file it could be pasted into, and the scenarios it defines run with
//!   the other tests. `blocks_are_the_compiled_snippets` fails when a block and its file
//!   differ; `AGENT_TEST_UPDATE_DOCS=1 cargo test -p agent-test --test integration docs`
//!   rewrites the snippets from the documents (then build again). (rustdoc's doctests would
//!   wrap each block in `fn main`, compile it as a program rather than as a test file, and
//!   need hidden `# fn main() {}` lines to keep `agent_test!` at the top level: what they prove
//!   is not what a paste does.) The Rust blocks of the other pages of `docs/` are rustdoc
//!   doctests of the facade (`src/lib.rs`).
//! - **Every block names its language** (`rust`, `toml`, `sh`, `text`, …).
//! - **Every relative link resolves**: in `README.md` and `docs/**/*.md`, each link to a file
//!   or directory of the repository exists, and each `#anchor` is a heading of its page.
//! - **The seed-format examples** of `docs/seeds/` load, with the checks
//!   `docs/seed-formats.md` says they become.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use agent_test::load;
use agent_test::scenario::Step;

/// The documents whose Rust blocks are compiled as snippets, with the prefix of their files.
const SNIPPET_SOURCES: &[(&str, &str)] = &[("README.md", "readme"), ("docs/testing.md", "testing")];

/// Where the snippets live, relative to the crate.
const SNIPPETS: &str = "tests/integration/snippets";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A fenced block: its language (the info string) and its text, each line without the
/// fence's indentation.
struct Block {
    line: usize,
    lang: String,
    text: String,
}

/// The fenced blocks of a Markdown text (``` fences, possibly indented as in list items).
fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, String, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((i + 1, indent, info.trim().to_owned(), String::new()));
                }
            }
            Some((start, fence_indent, lang, text)) => {
                if trimmed == "```" {
                    out.push(Block {
                        line: *start,
                        lang: std::mem::take(lang),
                        text: std::mem::take(text),
                    });
                    open = None;
                } else {
                    let cut = indent.min(*fence_indent);
                    text.push_str(&line[cut..]);
                    text.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    out
}

/// The snippet files the documents make: name → content, `mod.rs` included.
fn expected_snippets() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut modules = String::from(
        "//! Generated from the documents' Rust blocks by `tests/integration/docs.rs`: do not edit;\n\
         //! `AGENT_TEST_UPDATE_DOCS=1 cargo test -p agent-test --test integration docs` rewrites\n\
         //! these files. Each block is one module, compiled exactly as shown.\n",
    );
    for (doc, prefix) in SNIPPET_SOURCES {
        let markdown = read(&root().join(doc));
        let rust = blocks(&markdown)
            .into_iter()
            .filter(|b| b.lang.starts_with("rust"));
        for (n, block) in rust.enumerate() {
            assert_eq!(
                block.lang, "rust",
                "{doc}:{}: a Rust block of {doc} is compiled and run as shown, so it takes no \
                 attributes (`ignore`, `no_run`, …)",
                block.line
            );
            assert!(
                !block.text.lines().any(|l| l == "#" || l.starts_with("# ")),
                "{doc}:{}: no hidden lines: a paste must work as shown",
                block.line
            );
            let name = format!("{prefix}_{}", n + 1);
            modules.push_str(&format!(
                "\n/// {doc}, the block at line {}.\nmod {name} {{\n    include!(\"{name}.rs\");\n}}\n",
                block.line
            ));
            files.insert(format!("{name}.rs"), block.text);
        }
    }
    files.insert("mod.rs".to_owned(), modules);
    files
}

#[test]
fn blocks_are_the_compiled_snippets() {
    let dir = root().join(SNIPPETS);
    let expected = expected_snippets();
    let on_disk: BTreeMap<String, String> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .map(|p| (file_name(&p), read(&p)))
                .collect()
        })
        .unwrap_or_default();
    if std::env::var_os("AGENT_TEST_UPDATE_DOCS").is_some() {
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {SNIPPETS}: {e}"));
        for name in on_disk.keys().filter(|n| !expected.contains_key(*n)) {
            fs::remove_file(dir.join(name)).unwrap_or_else(|e| panic!("cannot remove {name}: {e}"));
        }
        for (name, text) in &expected {
            fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("cannot write {name}: {e}"));
        }
        return;
    }
    assert_eq!(
        on_disk.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "the snippets are not the documents' Rust blocks: run \
         `AGENT_TEST_UPDATE_DOCS=1 cargo test -p agent-test --test integration docs`"
    );
    for (name, text) in &expected {
        assert!(
            on_disk[name] == *text,
            "{SNIPPETS}/{name} is not its block as the document shows it: run \
             `AGENT_TEST_UPDATE_DOCS=1 cargo test -p agent-test --test integration docs`"
        );
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `README.md` and every Markdown file under `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out
}

#[test]
fn every_block_names_its_language() {
    for file in markdown_files() {
        for block in blocks(&read(&file)) {
            assert!(
                !block.lang.is_empty(),
                "{}:{}: a fenced block without a language (write ```rust, ```text, ```sh, ...)",
                file.display(),
                block.line
            );
        }
    }
}

/// The text outside fenced blocks and inline code, where links and headings are.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code spans (`` `…` `` and ```` ``…`` ````).
        let mut rest = line;
        while let Some(start) = rest.find('`') {
            out.push_str(&rest[..start]);
            let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
            let after = &rest[start + ticks..];
            match after.find(&"`".repeat(ticks)) {
                Some(end) => rest = &after[end + ticks..],
                None => {
                    rest = after;
                    break;
                }
            }
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

/// GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as `-`,
/// repeats numbered.
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(title) = line
            .strip_prefix('#')
            .map(|t| t.trim_start_matches('#'))
            .filter(|t| t.starts_with(' ') && !fenced)
        else {
            continue;
        };
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.push(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links and images of a page's prose.
fn links(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(end) => {
                let target = after[..end].split_whitespace().next().unwrap_or("");
                out.push(target.to_owned());
                rest = &after[end..];
            }
            None => break,
        }
    }
    out
}

#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    for file in markdown_files() {
        let markdown = read(&file);
        let dir = file.parent().unwrap_or(root());
        for target in links(&markdown) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            if !resolved.exists() {
                broken.push(format!("{}: {target}: no such file", file.display()));
                continue;
            }
            if let Some(anchor) = anchor
                && resolved.extension().is_some_and(|x| x == "md")
                && !anchors(&read(&resolved)).iter().any(|a| a == anchor)
            {
                broken.push(format!("{}: {target}: no such heading", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_checker_sees_links_and_headings() {
    let page = "# Title\n## Judged qualities (semantic checks)\n## The `agent-test` command\n\
                See [a](other.md#x) and ![b](img.png), not `[c](code.md)`.\n```text\n[d](e.md)\n# no\n```\n";
    assert_eq!(links(page), ["other.md#x", "img.png"]);
    assert_eq!(
        anchors(page),
        [
            "title",
            "judged-qualities-semantic-checks",
            "the-agent-test-command"
        ]
    );
}

/// Each check of a file's cases as `scope: label` (what a report shows), and its variable
/// checks as steps.
fn checks_of(file: &str) -> Vec<String> {
    let path = root().join(file);
    let cases = load::cases(&path, None).unwrap_or_else(|e| panic!("{file} should load: {e}"));
    let mut out = Vec::new();
    for case in &cases {
        for e in case.scenario.expectations() {
            let label = e.label.clone().unwrap_or_else(|| e.check.describe());
            out.push(format!("{}: {label}", e.scope));
        }
        for step in &case.scenario.steps {
            if let Step::CheckVariable {
                path,
                op,
                equals,
                warning,
                ..
            } = step
            {
                out.push(format!(
                    "variable {path} {} {equals}{}",
                    op.phrase(),
                    if *warning { " (warning)" } else { "" }
                ));
            }
        }
    }
    out
}

#[test]
fn seed_examples_load_with_their_checks() {
    assert_eq!(
        checks_of("docs/seeds/mibo.json"),
        [
            "conversation: call `create_calendar` called with attendees = [\"*\",\"ana@example.com\"], calendar_id: any value, date: a date AT_TIME(DATE_ADD(TODAY(), 2, 'days'), '12:00') ± 5 min, duration: one of 30, valid against {\"maximum\":90,\"minimum\":45,\"type\":\"integer\"}, notes: optionally text containing \"lunch\", owner: = CONCAT('user-', USER_ID), room: /^R-\\d{3}$/, summary = \"Client Lunch\", title: text containing \"Lunch\" without payment_card",
            "conversation: call `cancel_event` not called",
            "conversation: reply matches /(?i)booked/",
            "conversation: event.status of the response is \"confirmed\"",
            "conversation: HTTP status 200",
            "conversation: judge \"confirms the event with the correct date and time\" (score ≥ 0.85)",
        ]
    );
    assert_eq!(
        checks_of("docs/seeds/mcplab.yaml"),
        [
            "conversation: tools called: search_hotels",
            "conversation: tools not called: create_booking",
            "conversation: tool sequence: search_hotels → get_hotel_details",
            "conversation: Tool input · search_hotels contains madrid",
            "conversation: Tool input · search_hotels matches regex \"guests\":2",
            "conversation: Tool input · search_hotels JSONPath $.city == Madrid",
            "conversation: reply contains \"madrid\"",
            "conversation: reply does not contain \"error\"",
            "conversation: reply matches /found \\d+ hotels?/",
        ]
    );
    assert_eq!(
        checks_of("docs/seeds/promptkit.yaml"),
        [
            "turn 1: tools called: search_hotels, create_booking (successful calls only)",
            "turn 1: tool `create_booking` called with nights: one of /^2$/, 2, hotel_id: /^H-\\d+$/ (every call)",
            "turn 1: gives the booking reference",
            "conversation: replies contains \"madrid\"",
        ]
    );
    assert_eq!(
        checks_of("docs/seeds/lamdis.json"),
        [
            "turn 1: reply contains \"Lisbon\"",
            "turn 1: reply contains \"hotel\"",
            "turn 1: judge \"lists hotels with their prices\" on conversation (score ≥ 0.7)",
            "variable last.assistant matches \"\\\\d+ hotels?\" (warning)",
        ]
    );
    assert_eq!(
        checks_of("docs/seeds/morganabench.jsonl"),
        [
            "conversation: tool `schedule_meeting` called with attendee: the email \"ana@example.com\", duration: optionally 30, room: absent, start: (judged) a date/time meaning \"tomorrow at 3pm\", topic: (judged) means \"the Q3 plan\"",
        ]
    );
    let cases = load::cases(root().join("docs/seeds/morganabench.jsonl"), None)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        cases[0].recording.is_some(),
        "a MorganaBench example carries its recorded run"
    );
}

/// The workflow of docs/reports.md ("On the pull request") is valid YAML whose steps do what
/// the text says: test the base branch and the pull request, annotate and summarise, keep the
/// reports, write the comment, post or update it by the diff's marker, then fail on failures.
#[test]
fn the_pull_request_workflow_does_what_the_guide_says() {
    let text = read(&root().join("docs/reports.md"));
    let section = text
        .split("## On the pull request")
        .nth(1)
        .expect("the section");
    let block = blocks(section)
        .into_iter()
        .find(|b| b.lang == "yaml")
        .expect("the workflow");
    let workflow: serde_json::Value =
        serde_saphyr::from_str(&block.text).unwrap_or_else(|e| panic!("not YAML: {e}"));
    assert!(
        workflow["on"]
            .as_object()
            .is_some_and(|on| on.contains_key("pull_request")),
        "{workflow:#}"
    );
    assert_eq!(workflow["permissions"]["pull-requests"], "write");
    let steps = workflow["jobs"]["agents"]["steps"]
        .as_array()
        .expect("steps");
    let run = |s: &serde_json::Value| s["run"].as_str().unwrap_or_default().to_owned();
    let position = |what: &dyn Fn(&serde_json::Value) -> bool| {
        steps
            .iter()
            .position(what)
            .unwrap_or_else(|| panic!("no such step in {steps:#?}"))
    };
    let base =
        position(&|s| run(s).contains("AGENT_TEST_REPORT_DIR") && run(s).contains("cargo test"));
    let test = position(&|s| run(s).trim() == "cargo test");
    assert_eq!(steps[test]["continue-on-error"], true);
    let report = position(&|s| run(s).contains("agent-test report --github"));
    let upload = position(&|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("actions/upload-artifact"))
    });
    assert_eq!(steps[upload]["with"]["path"], "target/agent-test/");
    let pending = position(&|s| s["with"]["path"] == "**/*.snap.new");
    assert_eq!(steps[pending]["if"], "always()");
    assert_eq!(steps[pending]["with"]["if-no-files-found"], "ignore");
    let diff = position(&|s| {
        run(s).contains("agent-test diff ../base-reports target/agent-test --comment comment.md")
    });
    let post = position(&|s| {
        s["with"]["script"].as_str().is_some_and(|js| {
            js.contains("'<!-- agent-test:diff -->'") && js.contains("updateComment")
        })
    });
    let fail = position(&|s| s["if"] == "steps.test.outcome == 'failure'");
    assert!(
        base < test
            && test < report
            && report < upload
            && upload < diff
            && diff < post
            && post < fail
    );
    for later in [report, upload, diff, post] {
        assert_eq!(
            steps[later]["if"], "always()",
            "step {later} runs whatever the tests found"
        );
    }
}
