//! The documentation proves itself: every console example in README.md and
//! PROTOCOL.md written as `$ printf '…' | mollett ARGS` (or `cargo run --release
//! -- ARGS`), with the lines it prints below it, is run through the binary and
//! must print those lines, times and speeds aside (`time X` and `nps X` vary
//! from run to run; everything else is deterministic with one thread).

use std::io::Write;
use std::process::{Command, Stdio};

/// One example: the input, the arguments, the lines it prints.
#[derive(Debug)]
struct Example {
    source: String,
    input: String,
    args: Vec<String>,
    /// `| tail -N`: only the last N lines.
    tail: Option<usize>,
    output: Vec<String>,
}

/// The examples of `text` (a Markdown file): inside fenced blocks, a line
/// `$ printf 'INPUT' | mollett ARGS` or `… | cargo run --release -- ARGS`
/// (continued on the next line after a `\`), optionally piped into `tail -N`
/// and ending in a `# comment`, then its output up to the next `$` line or the
/// end of the block. An example that shows no output is not one.
fn examples(name: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if line.starts_with("```") {
            in_block = !in_block;
            out.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if line.starts_with("$ ") {
            out.extend(current.take());
        }
        let Some(command) = line.strip_prefix("$ printf '") else {
            if let Some(e) = current.as_mut() {
                e.output.push(line.to_string());
            }
            continue;
        };
        let mut command = command.to_string();
        while command.ends_with('\\') {
            command.pop();
            command.push_str(lines.next().map_or("", |(_, l)| l.trim_start()));
        }
        let (input, rest) = command.split_once("' ").expect("printf '…' | …");
        let rest = rest.split(" #").next().unwrap().trim_start_matches("| ");
        let (command, tail) = match rest.split_once(" | tail -") {
            Some((c, t)) => (c, t.trim().parse().ok()),
            None => (rest, None),
        };
        let args = command
            .strip_prefix("mollett")
            .or_else(|| command.strip_prefix("cargo run --release --"))
            .unwrap_or_else(|| panic!("{name}:{}: not a mollett command", n + 1));
        current = Some(Example {
            source: format!("{name}:{}", n + 1),
            input: input.replace("\\n", "\n"),
            args: args.split_whitespace().map(String::from).collect(),
            tail,
            output: Vec::new(),
        });
    }
    out.retain(|e| !e.output.is_empty());
    out
}

/// `line` with the values after `time` and `nps` replaced by `*`.
fn steady(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let after = i.checked_sub(1).map(|j| words[j]);
            if matches!(after, Some("time" | "nps")) {
                "*"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn run(e: &Example, dir: &std::path::Path) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(&e.args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(e.input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(steady)
        .collect();
    let skip = e.tail.map_or(0, |n| lines.len().saturating_sub(n));
    lines[skip..].to_vec()
}

#[test]
fn the_console_examples_print_what_the_documents_say() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for name in ["README.md", "PROTOCOL.md"] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        all.extend(examples(name, &text));
    }
    assert!(all.len() >= 6, "{all:?}");
    // Examples may write files (`save selfplay.ggf`): in a scratch folder.
    let dir = std::env::temp_dir().join(format!("mollett-doc-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for e in &all {
        let want: Vec<String> = e.output.iter().map(|l| steady(l)).collect();
        assert_eq!(run(e, &dir), want, "{} ({:?})", e.source, e.args);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn times_and_speeds_are_set_aside() {
    assert_eq!(
        steady("info depth 1 score +1.94 nodes 6 nps 384 time 0.02 pv f3"),
        "info depth 1 score +1.94 nodes 6 nps * time * pv f3"
    );
}
