//! Multi-ProbCut: the shipped regressions (Othello's and Anti-Reversi's)
//! load and belong to the shipped weights of their rules; a selective search
//! is much smaller than a full-width one of the same depth and mostly agrees
//! with it; surer selectivities search more; a selective result never passes
//! for a full-width one in the table; and under Anti-Reversi a selective
//! search plays legal moves and its solves stay exact.

use mollett::Board;
use mollett::rng::Rng;

#[path = "common/positions.rs"]
mod positions;

use mollett::eval::EvalKind;
use mollett::knowledge::mpc::ProbCutFile;
use mollett::knowledge::{self, embedded_weights, fnv1a};
use mollett::rules::Position;
use mollett::rules::Variant;
use mollett::rules::{Anti, Othello};
use mollett::search::endgame::Solver;
use mollett::search::midgame::{INF, Midgame};
use mollett::search::probcut::ProbCut;
use mollett::search::{Level, RuleSearch, ScoreKind, SearchRequest, Selectivity, probcut, search};
use mollett::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

mod common;

/// Depth of the searches compared: deep enough for several levels of cuts.
const DEPTH: u32 = 8;

/// Midgame positions (30–44 empties) of seeded random games, every fifth.
fn positions() -> Vec<Board> {
    positions::random_positions(12)
        .into_iter()
        .filter(|b| (30..=44).contains(&b.empties()) && b.moves() != 0)
        .step_by(5)
        .take(10)
        .collect()
}

/// Score, nodes and first move of a fresh search of `board` under the rules
/// `R` at `selectivity`.
fn searched_as<R: RuleSearch<Pos = Board>>(
    board: Board,
    selectivity: Selectivity,
) -> (i32, u64, u8) {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let mut m = Midgame::<R>::new(&tt, &stop, EvalKind::Learned).with_selectivity(selectivity);
    let line = m.pvs(board, DEPTH, -INF, INF);
    (line.score, m.nodes(), line.pv[0])
}

/// Score and nodes of a fresh Othello search of `board` at `selectivity`.
fn searched(board: Board, selectivity: Selectivity) -> (i32, u64) {
    let (score, nodes, _) = searched_as::<Othello>(board, selectivity);
    (score, nodes)
}

#[test]
fn the_embedded_regressions_load_and_match_the_embedded_weights() {
    knowledge::check_embedded(true).expect("the shipped regression files are sound");
    for (rules, text) in [
        (Variant::Othello, knowledge::OTHELLO_REGRESSIONS),
        (Variant::Anti, knowledge::ANTI_REGRESSIONS),
    ] {
        probcut::embedded(rules).expect("the shipped regression file is sound");
        let file = ProbCutFile::parse(text).unwrap();
        assert_eq!(file.weights, fnv1a(embedded_weights(rules)), "{rules:?}");
        assert!(
            file.pairs.len() >= 6 * 6,
            "{rules:?}: rows for several depths in each of the six phases"
        );
        assert!(file.pairs.iter().all(|p| p.fit.a > 0.5 && p.fit.a < 1.5));
    }
    // Each file belongs to its own rules' weights only.
    assert!(ProbCut::for_weights(knowledge::OTHELLO_REGRESSIONS, knowledge::ANTI_WEIGHTS).is_err());
    let e =
        ProbCut::for_weights(knowledge::ANTI_REGRESSIONS, knowledge::OTHELLO_WEIGHTS).unwrap_err();
    assert!(e.contains("fitted with weights"), "{e}");
}

#[test]
fn selective_search_is_smaller_and_close_to_full_width() {
    let (mut full_nodes, mut sel_nodes, mut off) = (0u64, 0u64, 0);
    let boards = positions();
    assert!(boards.len() >= 10);
    for &b in &boards {
        let (full, n_full) = searched(b, Selectivity::FULL);
        let (sel, n_sel) = searched(b, Selectivity::LEAST);
        full_nodes += n_full;
        sel_nodes += n_sel;
        off += (full - sel).abs();
    }
    assert!(
        sel_nodes * 3 < full_nodes,
        "73% searched {sel_nodes} nodes, full width {full_nodes}"
    );
    // On average within 3 discs of the full-width score (these are random
    // games' positions: many are lopsided, where the error is largest).
    let mean = off as f64 / boards.len() as f64;
    assert!(
        mean <= 300.0,
        "selective scores {mean:.0} centi-discs off on average"
    );
}

#[test]
fn surer_selectivities_search_more() {
    let boards = positions();
    let totals: Vec<u64> = Selectivity::all()
        .map(|s| boards.iter().map(|&b| searched(b, s).1).sum())
        .collect();
    // 73 % .. 98 % rise; at 99 % the probes cut so little that they may
    // cost more than they save at this depth, so 99 % is compared with
    // 95 % only, and full width must still be the largest but for it.
    let [s73, s87, s95, s98, s99, full] = totals[..] else {
        panic!("six selectivities");
    };
    assert!(
        s73 < s87 && s87 < s95 && s95 < s98 && s95 < s99 && s98 < full,
        "nodes by selectivity: {totals:?}"
    );
}

/// A full-width search under `R` in a table that a 73% search has filled
/// must score every position as a full-width search in a fresh table does
/// (the node counts may differ: the selective entries still order the moves).
fn check_selective_entries_are_not_taken_at_full_width<R: RuleSearch<Pos = Board>>() {
    let stop = AtomicBool::new(false);
    for b in positions() {
        let tt = TranspositionTable::new(16).unwrap();
        let mut sel =
            Midgame::<R>::new(&tt, &stop, EvalKind::Learned).with_selectivity(Selectivity::LEAST);
        assert_eq!(sel.selectivity(), Selectivity::LEAST, "{:?}", R::VARIANT);
        sel.pvs(b, DEPTH, -INF, INF);
        let mut full = Midgame::<R>::new(&tt, &stop, EvalKind::Learned);
        let after = full.pvs(b, DEPTH, -INF, INF).score;
        assert_eq!(
            after,
            searched_as::<R>(b, Selectivity::FULL).0,
            "{:?}: {b:?}",
            R::VARIANT
        );
    }
}

#[test]
fn a_selective_result_never_passes_for_a_full_width_one() {
    check_selective_entries_are_not_taken_at_full_width::<Othello>();
    check_selective_entries_are_not_taken_at_full_width::<Anti>();
}

#[test]
fn evaluations_without_regressions_stay_full_width() {
    let tt = TranspositionTable::new(1).unwrap();
    let stop = AtomicBool::new(false);
    for eval in [EvalKind::Mobility, EvalKind::Discs] {
        let m = Midgame::<Othello>::new(&tt, &stop, eval).with_selectivity(Selectivity::LEAST);
        assert_eq!(m.selectivity(), Selectivity::FULL, "{eval:?}");
        let m = Midgame::<Anti>::new(&tt, &stop, eval).with_selectivity(Selectivity::LEAST);
        assert_eq!(m.selectivity(), Selectivity::FULL, "anti, {eval:?}");
    }
    let m =
        Midgame::<Othello>::new(&tt, &stop, EvalKind::Learned).with_selectivity(Selectivity::LEAST);
    assert_eq!(m.selectivity(), Selectivity::LEAST);
    let m =
        Midgame::<Anti>::new(&tt, &stop, EvalKind::Learned).with_selectivity(Selectivity::LEAST);
    assert_eq!(m.selectivity(), Selectivity::LEAST, "anti, learned");
}

#[test]
fn anti_selective_search_is_smaller_and_plays_legal_moves() {
    let (mut full_nodes, mut sel_nodes, mut off) = (0u64, 0u64, 0);
    let boards = positions();
    for &b in &boards {
        let (full, n_full, _) = searched_as::<Anti>(b, Selectivity::FULL);
        let (sel, n_sel, mv) = searched_as::<Anti>(b, Selectivity::LEAST);
        assert!(b.moves() & (1u64 << mv) != 0, "{mv} is not a move of {b:?}");
        full_nodes += n_full;
        sel_nodes += n_sel;
        off += (full - sel).abs();
    }
    assert!(
        sel_nodes * ANTI_SAVING < full_nodes,
        "anti: 73% searched {sel_nodes} nodes, full width {full_nodes}"
    );
    let mean = off as f64 / boards.len() as f64;
    assert!(
        mean <= 300.0,
        "anti: selective scores {mean:.0} centi-discs off on average"
    );
}

/// How many times fewer nodes an Anti-Reversi search at 73% must take than a
/// full-width one on [`positions`] at [`DEPTH`].
const ANTI_SAVING: u64 = 3;

#[test]
fn anti_solves_stay_exact_at_a_selective_level() {
    // The default level searches its midgame at 73% and solves exactly from 24
    // empties: every solve there must be the solver's own value, below the
    // selective endgame passes (from 18 empties) and with them.
    let level = Level::default();
    assert_eq!(level.limits.selectivity, Selectivity::LEAST);
    let stop = AtomicBool::new(false);
    let in_band = |lo: u32, hi: u32| {
        positions::random_positions(6)
            .into_iter()
            .filter(move |b| (lo..=hi).contains(&b.empties()) && b.moves() != 0)
            .take(4)
    };
    let boards: Vec<Board> = in_band(13, 15).chain(in_band(18, 20)).collect();
    assert_eq!(boards.len(), 8);
    for b in boards {
        let tt = TranspositionTable::new(4).unwrap();
        let want = Solver::<Anti>::new(&tt, &stop).solve(b, -65, 65).score;
        let tt = TranspositionTable::new(4).unwrap();
        let req = SearchRequest {
            threads: 1,
            ..SearchRequest::<Anti>::new(b, level)
        };
        let res = search(&req, &tt, &stop, &mut |_| {});
        assert_eq!(
            (res.score, res.kind),
            (want * 100, ScoreKind::Exact),
            "{b:?}"
        );
        let mv = res.best.expect("a move");
        let pos = Position {
            board: b,
            ..Position::START
        };
        let legal = pos.othello_like(Variant::Anti).legal_moves();
        assert!(legal.contains(&mv), "{mv:?} is not a move of {b:?}");
    }
}

/// The nodes of the console's `go` after f5 with `--level 14` and `flags`.
fn console_nodes(flags: &[&str]) -> u64 {
    let mut args = vec!["--threads", "1"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--level", "14"]);
    let (out, _) = common::run_script(&args, "play f5\ngo\nquit\n");
    let line = out
        .lines()
        .find(|l| l.starts_with("move "))
        .expect("a move line");
    let nodes = line.split_whitespace().skip_while(|&w| w != "nodes").nth(1);
    nodes.and_then(|n| n.parse().ok()).expect("a node count")
}

#[test]
fn the_selectivity_flag_sets_the_search_and_refuses_bad_values() {
    let level = console_nodes(&[]);
    let full = console_nodes(&["--selectivity", "100"]);
    let sure = console_nodes(&["--selectivity", "95"]);
    assert!(
        level < sure && sure < full,
        "73%: {level}, 95%: {sure}, 100%: {full}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["--selectivity", "80"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a selectivity"));
}

/// `mollett probcut ARGS`: the exit code and the error output.
fn probcut_cli(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mollett"))
        .arg("probcut")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn probcut_fits_anti_data_for_the_anti_weights_and_keeps_the_rules_apart() {
    use mollett::tools::learn::sample::{LabelKind, Line, Sample};
    let dir = std::env::temp_dir().join(format!("mollett-probcut-anti-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // Anti-Reversi data: the positions of seeded random games, as datagen
    // writes them under --variant anti.
    let mut data = String::new();
    for (game, board) in positions::random_positions(40).into_iter().enumerate() {
        let sample = Sample {
            position: Position {
                board,
                ..Position::START
            },
            label: 0,
            kind: LabelKind::Game,
            game: game as u64,
        };
        let line = Line {
            sample,
            rules: Variant::Anti,
        };
        data += &format!("{line}\n");
    }
    std::fs::write(path("anti.txt"), data).unwrap();
    let (data, scores, out) = (path("anti.txt"), path("scores.txt"), path("anti.mpc"));
    let anti = [
        data.as_str(),
        "--variant",
        "anti",
        "--scores",
        &scores,
        "--out",
        &out,
        "--per-phase",
        "40",
        "--max-depth",
        "4",
        "--threads",
        "1",
    ];
    let (code, err) = probcut_cli(&anti);
    assert_eq!(code, Some(0), "{err}");
    let file = ProbCutFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.weights, fnv1a(knowledge::ANTI_WEIGHTS));
    assert!(file.pairs.iter().all(|p| p.depth <= 4));
    assert_eq!(file.pairs.len(), 2 * 6, "depths 3 and 4, six phases");
    let text = std::fs::read_to_string(&scores).unwrap();
    assert_eq!(text.lines().count(), 6 * 40);
    assert!(text.lines().all(|l| l.ends_with(" anti")));
    // The same data is not Othello's, nor are these scores.
    let mut othello = anti;
    othello[2] = "othello";
    let (code, err) = probcut_cli(&othello);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("anti data, where othello data is expected"),
        "{err}"
    );
    let othello_scores: String = text.lines().map(|l| l.replace(" anti", "\n")).collect();
    std::fs::write(&scores, &othello_scores).unwrap();
    let (code, err) = probcut_cli(&anti);
    assert_eq!(code, Some(2));
    assert!(err.contains("searched under othello rules"), "{err}");
    assert_eq!(std::fs::read_to_string(&scores).unwrap(), othello_scores);
    std::fs::remove_dir_all(&dir).unwrap();
}
