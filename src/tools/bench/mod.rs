//! `mollett bench`: a fixed list of positions searched to fixed depths on one
//! thread with a fresh table. The total node count is a signature of the search:
//! identical on every machine and every run, and changed only by a change to what
//! the search does.
//!
//! It signs twice: the search alone ([`run`]: the hand-written evaluation, full
//! width, no solver), then the default engine ([`run_default`]: the shipped
//! learned evaluation, Multi-ProbCut at 73 % and the endgame solver, at a fixed
//! depth and fixed solve thresholds), over the same positions and one
//! Anti-Reversi position searched under Anti-Reversi's rules.

pub mod scaling;

use crate::Position;
use crate::board::Board;
use crate::eval::EvalKind;
use crate::rules::{Anti, Othello};
use crate::search::RuleSearch;
use crate::search::{Level, Limits, ScoreKind, SearchRequest, SearchResult, Selectivity, search};
use crate::tt::{TranspositionTable, TtError};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The bench positions (board strings) and the midgame depth searched from each.
/// Openings, midgames (from the FFO set, 24–36 empties) and endgames, where a
/// depth at or above the empties means an exact solve.
pub const POSITIONS: &[(&str, u32)] = &[
    (
        "---------------------------OX------XO--------------------------- X",
        14,
    ),
    (
        "---OOOO----OOO----XOXOXX--XOOXXX--XOOXXX--XOOOXX--OXXX-X--XXXX-- X",
        12,
    ),
    (
        "--O--X----O--X-O-OOXXXOO--XXXXXO--XXOOOO-XXXXXX---XXX----X-OOO-- O",
        12,
    ),
    (
        "--OOOO-----OOO---OOOOO--XXOXXOO--OXOXOO-OXXXXXX---X-X----------- X",
        12,
    ),
    (
        "----X-----OXXO-X--OXOOXX-OOXXOXX--OXXO-X--XXOO----XOOO-------O-- O",
        12,
    ),
    (
        "--------------X-----O-XX---OOOX-OOOOXOXX--OOOOOO--O-OO-O----OO-- X",
        12,
    ),
    (
        "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X",
        12,
    ),
    (
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        60,
    ),
    (
        "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X",
        60,
    ),
    (
        "-XXXX-----OXXX--XOXOXOXXOXOXXOXXOXXOXOOOXXXOXOOX--OXXO---OOOOO-- O",
        60,
    ),
];

/// `mollett bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search threads, 1..=1024; more than one times the same depths (time to
    /// depth), with node counts that vary from run to run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Time to depth instead: the start position after f5 and the bench
    /// positions searched at this level (its selectivity, solves and
    /// evaluation), one line per completed depth.
    #[arg(long, value_name = "L", conflicts_with = "scaling")]
    pub level: Option<Level>,
    /// What the threads buy: FFO #40-49 solved and the positions searched at
    /// level 21, on one thread and then on `--threads`, with the speed-up, node
    /// inflation and nodes per second of each part (a few minutes).
    #[arg(long)]
    pub scaling: bool,
}

/// Runs `mollett bench`: the fixed-depth bench, or with `--level` time to
/// depth.
pub fn run_bench(args: BenchArgs) -> anyhow::Result<()> {
    if args.scaling {
        return scaling::run_scaling(args.threads);
    }
    let threads = usize::from(args.threads);
    match args.level {
        Some(level) => run_time_to_depth(level, threads),
        None => run_fixed(threads),
    }
}

/// The table size the bench uses, in MB.
pub const BENCH_HASH_MB: usize = 64;

/// One bench position's figures.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Position number, from 1.
    pub index: usize,
    /// Depth searched.
    pub depth: u32,
    /// What the search did: a midgame depth or a solve.
    pub kind: ScoreKind,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchLine {
    /// The line of position `index`, searched to `depth`, from its result.
    fn of(index: usize, depth: u32, r: &SearchResult) -> BenchLine {
        BenchLine {
            index,
            depth,
            kind: r.kind,
            nodes: r.nodes,
            elapsed: r.elapsed,
        }
    }
}

/// Runs the bench with `threads` search threads (1 for the signature), calling
/// `each` after every position; returns the lines.
pub fn run(threads: usize, each: &mut dyn FnMut(&BenchLine)) -> Result<Vec<BenchLine>, TtError> {
    let tt = TranspositionTable::new(BENCH_HASH_MB)?;
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    for (i, &(text, depth)) in POSITIONS.iter().enumerate() {
        let pos: Position = text.parse().expect("bench positions are valid");
        tt.clear();
        let req = SearchRequest::<Othello> {
            board: pos.board,
            limits: Limits {
                depth,
                exact_empties: 0,
                wld_empties: 0,
                selectivity: crate::search::Selectivity::FULL,
            },
            eval: EvalKind::Mobility,
            seed: 0,
            find_ties: true,
            threads: threads.max(1),
            time: None,
            contempt: 0,
            lines: 1,
        };
        let r = search(&req, &tt, &stop, &mut |_| {});
        let line = BenchLine::of(i + 1, depth, &r);
        each(&line);
        lines.push(line);
    }
    Ok(lines)
}

/// The default engine's bench limits: a fixed depth and fixed solve
/// thresholds, with the default levels' Multi-ProbCut selectivity (73 %).
pub const DEFAULT_LIMITS: Limits = Limits {
    depth: 20,
    exact_empties: 20,
    wld_empties: 22,
    selectivity: Selectivity::LEAST,
};

/// The Anti-Reversi position of the default engine's bench (24 empties, from
/// `benches/data/anti-24.obf`), searched under Anti-Reversi's rules.
pub const ANTI_POSITION: &str =
    "---O--O--X-OOXOO--XOXOOO-XXOXOO--OXXOXO---XOXXOO-X-OOOXX----O-O- X";

/// The default engine's search of `board` under the rules `R`.
fn search_default<R: RuleSearch<Pos = Board>>(
    board: Board,
    threads: usize,
    tt: &TranspositionTable,
    stop: &AtomicBool,
) -> SearchResult {
    let req = SearchRequest::<R> {
        board,
        limits: DEFAULT_LIMITS,
        eval: EvalKind::Learned,
        seed: 0,
        find_ties: true,
        threads: threads.max(1),
        time: None,
        contempt: 0,
        lines: 1,
    };
    search(&req, tt, stop, &mut |_| {})
}

/// Runs the default engine's bench with `threads` search threads (1 for the
/// signature), each position with a cleared table, calling `each` after every
/// position; returns the lines.
pub fn run_default(
    threads: usize,
    each: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, TtError> {
    let tt = TranspositionTable::new(BENCH_HASH_MB)?;
    let stop = AtomicBool::new(false);
    let board = |text: &str| {
        text.parse::<Position>()
            .expect("bench positions are valid")
            .board
    };
    let othello = POSITIONS.iter().map(|&(text, _)| (board(text), false));
    let anti = std::iter::once((board(ANTI_POSITION), true));
    let mut lines = Vec::new();
    for (i, (board, is_anti)) in othello.chain(anti).enumerate() {
        tt.clear();
        let r = if is_anti {
            search_default::<Anti>(board, threads, &tt, &stop)
        } else {
            search_default::<Othello>(board, threads, &tt, &stop)
        };
        let line = BenchLine::of(i + 1, DEFAULT_LIMITS.depth, &r);
        each(&line);
        lines.push(line);
    }
    Ok(lines)
}

/// One completed iteration of a [`time_to_depth`] search.
#[derive(Clone, Debug)]
pub struct DepthLine {
    /// Position number, from 1 (1 is the start position after f5, then the
    /// bench positions).
    pub index: usize,
    /// What the iteration searched.
    pub kind: ScoreKind,
    /// Nodes from the start of the position's search.
    pub nodes: u64,
    /// Time from the start of the position's search.
    pub elapsed: Duration,
    /// Whether this is the position's final result.
    pub last: bool,
}

/// Time to depth: the start position after f5, then the bench positions, each
/// searched at `level` (its depth, selectivity, solve thresholds and
/// evaluation) with `threads` threads and a fresh table, calling `each` for
/// every completed iteration and for each position's final result.
pub fn time_to_depth(
    level: Level,
    threads: usize,
    each: &mut dyn FnMut(&DepthLine),
) -> Result<(), TtError> {
    let tt = TranspositionTable::new(BENCH_HASH_MB)?;
    let stop = AtomicBool::new(false);
    let f5 = crate::Move::Play("f5".parse().expect("a square"));
    let after_f5 = Position::START.play(f5).expect("f5 is legal at the start");
    let boards = std::iter::once(after_f5).chain(
        POSITIONS
            .iter()
            .map(|(text, _)| text.parse::<Position>().expect("bench positions are valid")),
    );
    for (i, pos) in boards.enumerate() {
        tt.clear();
        let mut req = SearchRequest::<Othello>::new(pos.board, level);
        req.threads = threads.max(1);
        let line = |r: &SearchResult, last| DepthLine {
            index: i + 1,
            kind: r.kind,
            nodes: r.nodes,
            elapsed: r.elapsed,
            last,
        };
        let r = search(&req, &tt, &stop, &mut |r| each(&line(r, false)));
        each(&line(&r, true));
    }
    Ok(())
}

/// Runs the fixed-depth bench on `threads` threads and prints a line per
/// position, then the signature (`Nodes searched: N`).
fn run_fixed(threads: usize) -> anyhow::Result<()> {
    let lines = run(threads, &mut |l| {
        say!(
            "position {:>2} depth {:>2} nodes {:>12} seconds {:.3}",
            l.index,
            l.depth,
            l.nodes,
            l.elapsed.as_secs_f64()
        );
    })?;
    let (nodes, secs) = totals(&lines);
    say!("Nodes searched: {nodes}");
    say!("Seconds: {secs:.3}");
    say!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    let lines = run_default(threads, &mut |l| {
        say!(
            "default position {:>2} {} nodes {:>12} seconds {:.3}",
            l.index,
            kind_text(l.kind),
            l.nodes,
            l.elapsed.as_secs_f64()
        );
    })?;
    let (nodes, secs) = totals(&lines);
    say!("Default engine nodes: {nodes}");
    say!("Default engine seconds: {secs:.3}");
    Ok(())
}

/// The nodes and the seconds of a bench's lines.
pub fn totals(lines: &[BenchLine]) -> (u64, f64) {
    let nodes = lines.iter().map(|l| l.nodes).sum();
    let secs = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
    (nodes, secs)
}

/// What a search did, in a fixed width: `depth d`, `exact` or `wld`.
fn kind_text(kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Midgame(d) => format!("depth {d:>2}"),
        ScoreKind::SelectiveEnd {
            empties,
            selectivity,
        } => format!("{empties}@{}%  ", selectivity.percent()),
        ScoreKind::Exact => "exact   ".to_string(),
        ScoreKind::WinLossDraw => "wld     ".to_string(),
        ScoreKind::Book { .. } => "book    ".to_string(),
    }
}

/// Times the bench positions to `level`'s depth on `threads` threads and
/// prints each position's iterations and a total.
fn run_time_to_depth(level: Level, threads: usize) -> anyhow::Result<()> {
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    time_to_depth(level, threads, &mut |l| {
        let what = kind_text(l.kind);
        if l.last {
            nodes += l.nodes;
            secs += l.elapsed.as_secs_f64();
            say!(
                "position {:>2} done {what} nodes {:>12} seconds {:.3}",
                l.index,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        } else {
            say!(
                "position {:>2} {what} nodes {:>12} seconds {:.3}",
                l.index,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        }
    })?;
    say!("Level {level}, {threads} thread(s): nodes {nodes}, seconds {secs:.3}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature that commits quote (`mollett bench`: `Nodes searched: N`).
    /// A change that alters what the search does changes it: say why in the
    /// commit, and write the new count here.
    const SIGNATURE: u64 = 14_484_457;

    #[test]
    fn the_signature_is_unchanged() {
        let lines = run(1, &mut |_| {}).unwrap();
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        assert_eq!(nodes, SIGNATURE);
    }

    /// The default engine's signature (`mollett bench`: `Default engine nodes:
    /// N`). A change to the search, the learned weights or the Multi-ProbCut
    /// regressions changes it: say why in the commit, and write the new count
    /// here.
    const DEFAULT_SIGNATURE: u64 = 14_897_595;

    #[test]
    fn the_default_engine_signature_is_unchanged() {
        let lines = run_default(1, &mut |_| {}).unwrap();
        assert_eq!(totals(&lines).0, DEFAULT_SIGNATURE);
    }

    #[test]
    fn bench_positions_parse() {
        for (text, _) in POSITIONS {
            assert!(text.parse::<Position>().is_ok(), "{text}");
        }
        assert!(ANTI_POSITION.parse::<Position>().is_ok());
    }
}
