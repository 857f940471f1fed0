//! `mollett analyze` end to end: a known short game with a known blunder, the
//! JSON and SVG outputs parsed, and the input forms.

use std::io::Write;

mod common;
use common::Scratch;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// The shortest wipe-out from f5: after White's 8th move, e6, Black's e7 leaves
/// White no disc, so e6 is a blunder of about the whole board.
const WIPEOUT: &str = "f5d6c5f4e3f6g5e6e7";

fn analyze(args: &[&str], stdin: Option<&str>) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn the_wipeout_blunder_is_found() {
    let (ok, out, err) = analyze(&[WIPEOUT, "--level", "3", "--json"], None);
    assert!(ok, "{err}");
    let moves = json_lines(&out);
    assert_eq!(moves.len(), 9);
    // Several threads analyse the same moves.
    let (ok, two, err) = analyze(&[WIPEOUT, "--level", "3", "--json", "--threads", "2"], None);
    assert!(ok, "{err}");
    assert_eq!(json_lines(&two).len(), 9);
    // Evaluations and losses are centi-discs: two decimals, no float noise
    // (a loss of 3.1799999999999997 once).
    for m in &moves {
        for key in ["played_eval", "best_eval", "loss"] {
            let x = m[key].as_f64().unwrap();
            assert_eq!((x * 100.0).round() / 100.0, x, "{key} in {m}");
        }
    }
    let worst = moves
        .iter()
        .max_by(|a, b| {
            a["loss"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["loss"].as_f64().unwrap())
        })
        .unwrap();
    assert_eq!(worst["ply"], 8, "{out}");
    assert_eq!(worst["side"], "white");
    assert_eq!(worst["played"], "e6");
    assert_eq!(worst["mark"], "??");
    assert_eq!(worst["mistake"], true);
    assert_eq!(worst["played_eval"].as_f64(), Some(-64.0));
    assert!(worst["loss"].as_f64().unwrap() > 40.0, "{worst}");
    assert_ne!(worst["best"], "e6");
    // The last move wipes out: best and exact (the game ends on it).
    let last = &moves[8];
    assert_eq!(
        (last["played"].clone(), last["best"].clone()),
        ("e7".into(), "e7".into())
    );
    assert_eq!(last["exact"], true);
    assert_eq!(last["best_eval"].as_f64(), Some(64.0));
    // Each object has the documented fields.
    for m in &moves {
        for key in [
            "ply",
            "side",
            "empties",
            "played",
            "played_eval",
            "best",
            "best_eval",
        ] {
            assert!(m.get(key).is_some(), "{key} missing in {m}");
        }
    }
}

#[test]
fn the_table_marks_the_blunder_and_ggf_and_stdin_give_the_same() {
    let (ok, table, err) = analyze(&[WIPEOUT, "--level", "3"], None);
    assert!(ok, "{err}");
    let line = table
        .lines()
        .find(|l| l.trim_start().starts_with("8 "))
        .unwrap();
    assert!(line.contains("e6") && line.ends_with("??"), "{table}");
    let ggf = "(;GM[Othello]PB[x]PW[y]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
               B[F5]W[D6]B[C5]W[F4]B[E3]W[F6]B[G5]W[E6]B[E7];)";
    let dir = Scratch::new("analyze");
    let file = dir.join("wipeout.ggf");
    std::fs::write(&file, ggf).unwrap();
    let (ok, from_file, _) = analyze(&[file.to_str().unwrap(), "--level", "3"], None);
    assert!(ok);
    let (ok, from_stdin, _) = analyze(&["-", "--level", "3"], Some(WIPEOUT));
    assert!(ok);
    assert_eq!(from_file, table);
    assert_eq!(from_stdin, table);
}

#[test]
fn bad_games_are_clear_errors() {
    let (ok, _, err) = analyze(&["f5f5"], None);
    assert!(!ok);
    assert!(err.contains("cannot read the game"), "{err}");
    let (ok, _, err) = analyze(&["-"], Some("(;GM[Othello]BO[8 nonsense];)"));
    assert!(!ok);
    assert!(err.contains("cannot read the game"), "{err}");
}

/// A small XML well-formedness check: tags nest and close, attributes are
/// quoted, `&` starts an entity. Returns the element names in document order.
fn check_xml(text: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = text;
    let check_text = |t: &str| -> Result<(), String> {
        for (i, _) in t.match_indices('&') {
            let ent = &t[i..t[i..].find(';').map_or(t.len(), |j| i + j + 1)];
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&ent) {
                return Err(format!("bad entity near '{ent}'"));
            }
        }
        if t.contains('>') {
            Err("stray '>'".into())
        } else {
            Ok(())
        }
    };
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open])?;
        let close = rest[open..].find('>').ok_or("unclosed tag")? + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(top) if top == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body
            .split_whitespace()
            .next()
            .ok_or("empty tag")?
            .to_string();
        // Attributes: name="value" pairs.
        let mut attrs = body[name.len()..].trim();
        while !attrs.is_empty() {
            let eq = attrs
                .find('=')
                .ok_or(format!("attribute without value in <{tag}>"))?;
            let value = attrs[eq + 1..].trim_start();
            let q = value
                .chars()
                .next()
                .filter(|c| *c == '"' || *c == '\'')
                .ok_or("unquoted")?;
            let end = value[1..].find(q).ok_or("unclosed attribute")? + 1;
            check_text(&value[1..end]).map_err(|e| format!("{e} in <{tag}>"))?;
            if value[1..end].contains('<') {
                return Err(format!("'<' in an attribute of <{tag}>"));
            }
            attrs = value[end + 1..].trim_start();
        }
        names.push(name.clone());
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest)?;
    if stack.is_empty() {
        Ok(names)
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

#[test]
fn the_xml_checker_rejects_broken_documents() {
    assert!(check_xml("<a><b x=\"1\"/></a>").is_ok());
    assert!(check_xml("<a><b></a>").is_err());
    assert!(check_xml("<a x=1></a>").is_err());
    assert!(check_xml("<a>&nbsp;</a>").is_err());
    assert!(check_xml("<a>").is_err());
}

#[test]
fn the_svg_is_well_formed_and_marks_the_mistakes() {
    let dir = Scratch::new("svg");
    let svg = dir.join("curve.svg");
    let (ok, out, err) = analyze(
        &[
            WIPEOUT,
            "--level",
            "3",
            "--json",
            "--svg",
            svg.to_str().unwrap(),
        ],
        None,
    );
    assert!(ok, "{err}");
    let mistakes = json_lines(&out)
        .iter()
        .filter(|m| m["mistake"] == true)
        .count();
    assert!(mistakes >= 1);
    let text = std::fs::read_to_string(&svg).unwrap();
    let names = check_xml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(names[0], "svg");
    assert!(text.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(names.iter().filter(|n| *n == "polyline").count(), 1);
    assert_eq!(text.matches("class=\"mistake\"").count(), mistakes);
    assert_eq!(text.matches("class=\"exact\"").count(), 1);
    // The curve has one point per analysed move plus the final result.
    let points = text
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(points.split_whitespace().count(), 10);
}
