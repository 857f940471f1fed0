//! Helpers of the `mollett match` tests: entrants, a match run to its games
//! file, and readings of its report and records.

use super::Scratch;
use mollett::format::{GgfGame, parse_ggf_records};
use std::process::Command;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mollett");

/// A fresh scratch folder for one test, removed when the test ends.
pub fn scratch(tag: &str) -> Scratch {
    Scratch::new(&format!("arena-{tag}"))
}

/// A Mollett entrant at `level`: one thread, a small table.
pub fn mollett(name: &str, level: u32) -> String {
    format!("{name}={BIN} --level {level} --threads 1 --hash 4")
}

/// A record's game number (`RO`, 1-based).
pub fn number(g: &GgfGame) -> usize {
    let ro = g.extra.iter().find(|(t, _)| t == "RO").expect("RO[..]");
    ro.1.parse().unwrap()
}

/// Runs `mollett match ARGS --games-file FILE --overwrite`: the report and
/// the games, in schedule order (the file has them in the order they ended).
pub fn run_match(dir: &std::path::Path, args: &[&str]) -> (String, Vec<GgfGame>) {
    let file = dir.join("games.ggf");
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--games-file")
        .arg(&file)
        .arg("--overwrite")
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = parse_ggf_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
    games.sort_by_key(number);
    assert!(games.iter().enumerate().all(|(i, g)| number(g) == i + 1));
    (report, games)
}

/// The W/D/L line's three numbers.
pub fn wdl(report: &str) -> [u32; 3] {
    let line = report.lines().find(|l| l.contains("W/D/L")).unwrap();
    let nums = line.split(": ").nth(1).unwrap().split(',').next().unwrap();
    let v: Vec<u32> = nums.split('/').map(|n| n.trim().parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

/// Black's margin from `RE`, and whether it was a forfeit.
pub fn result(g: &GgfGame) -> (i32, bool) {
    let re = g.re.as_deref().unwrap();
    let (score, suffix) = re.split_once(':').unwrap_or((re, ""));
    (score.parse().unwrap(), !suffix.is_empty())
}

/// The moves alone (no times), as text.
pub fn moves(games: &[GgfGame]) -> Vec<String> {
    games
        .iter()
        .map(|g| g.moves.iter().map(|m| m.mv.to_string()).collect())
        .collect()
}
