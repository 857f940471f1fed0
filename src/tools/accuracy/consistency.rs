//! `mollett accuracy --games FILE`: odd/even consistency (issue 41). Where the
//! move played is the best one, the score of a position and the score of the
//! position after it (its child) negate each other; a search that overrates
//! the side to move at odd depths and underrates it at even ones adds a bias
//! to their sum, the same at every pair of a level.
//!
//! Every position of every game is searched as a move choice at the level
//! (`go`, no clock, a cleared table per search, so no search feeds another),
//! and each position is paired with its child. A pair's sum is
//! `score(position) + score(child)` in discs (0 is perfect). The moves are the
//! games' own: games of strong self-play stand for best moves, and a move
//! that loses `x` discs adds about `x` to its pair's sum.
//!
//! Scores are either midgame scores or exact: the level's win/loss/draw
//! proofs are turned off (as `mollett analyze` does), so the window before the
//! exact solve is searched as midgame. Pairs whose two scores are midgame
//! scores make the bands and the `all` row; pairs solved exactly on both sides
//! make the `exact` row (their sum is 0 whenever the move played is a best
//! one). Left out and counted: a pair with one score of each kind, a position
//! whose side must pass, a child whose side must pass or where the game is
//! over, and the first `--skip-plies` moves of every game.
//!
//! A child's search is the next pair's position search: each position is
//! searched once, its result shared by the two pairs it belongs to.

use super::{AccuracyArgs, BAND_WIDTH, band, engine_for, level_of, print_rows, search};
use crate::board::Move;
use crate::engine::Engine;
use crate::eval::to_discs;
use crate::input::{MAX_TEXT, read_regular_file};
use crate::rules::Position;
use crate::rules::game::Game;
use crate::search::{ScoreKind, SearchResult};
use crate::tools::analyze::parse_game;
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One game of the games file.
#[derive(Clone, Debug)]
pub struct NumberedGame {
    /// Its line in the file, from 1.
    pub line: usize,
    /// The game.
    pub game: Game,
}

/// Reads the games of `text`, one a line: a transcript from the start of
/// `variant`, or a GGF record (as `mollett match --games-file` writes them).
/// Blank lines and lines starting with `%` or `#` are skipped; a line that is
/// no game is an error naming it.
pub fn parse_games(text: &str, variant: crate::rules::Variant) -> Result<Vec<NumberedGame>> {
    let mut games = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with(['%', '#']) {
            continue;
        }
        let game = parse_game(line, variant).with_context(|| format!("line {}", i + 1))?;
        if game.variant() != variant {
            bail!(
                "line {}: a game of {}, not {variant} (give --variant {})",
                i + 1,
                game.variant(),
                game.variant()
            );
        }
        games.push(NumberedGame { line: i + 1, game });
    }
    Ok(games)
}

/// A position and its child, both searched.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Pair {
    /// The game's line in the file.
    pub line: usize,
    /// The move's number in the game, from 1, passes counted.
    pub ply: usize,
    /// Empty squares of the position (its child has one fewer).
    pub empties: u32,
    /// The move played.
    #[serde(rename = "move")]
    pub played: String,
    /// The position's score, in discs for its side to move.
    pub score: f64,
    /// The child's score, in discs for its side to move (the opponent).
    pub child_score: f64,
    /// `score + child_score`: 0 when the two agree.
    pub sum: f64,
    /// Whether both scores are exact (else both are midgame scores).
    pub exact: bool,
    /// Nodes of the two searches.
    pub nodes: u64,
    /// Time of the two searches.
    pub seconds: f64,
}

/// Why a move makes no pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The first `--skip-plies` moves of a game.
    pub opening: usize,
    /// A forced pass, or a child whose side must pass.
    pub pass: usize,
    /// A move that ends the game.
    pub end: usize,
    /// One score exact and the other a midgame score.
    pub mixed: usize,
}

/// How to measure the games.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Moves left out at the start of every game.
    pub skip_plies: usize,
}

/// What the searches of a game or a file cost, each search counted once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Cost {
    /// Positions searched.
    pub searches: usize,
    /// Their nodes.
    pub nodes: u64,
    /// Their time.
    pub seconds: f64,
}

/// The pairs of one game, with what it left out and its cost.
#[derive(Clone, Debug, Default)]
pub struct GamePairs {
    /// The pairs, in the game's order.
    pub pairs: Vec<Pair>,
    /// The moves that made no pair.
    pub skipped: Skipped,
    /// The searches.
    pub cost: Cost,
}

/// Measures the pairs of `game` on `engine`, searching each position once
/// (a cleared table per search).
pub fn measure_game(engine: &mut Engine, game: &NumberedGame, how: Measure) -> Result<GamePairs> {
    let positions = game.game.positions();
    let mut out = GamePairs::default();
    let mut searched: Vec<Option<SearchResult>> = vec![None; positions.len()];
    for (i, &played) in game.game.moves.iter().enumerate() {
        let child = positions[i + 1];
        if i < how.skip_plies {
            out.skipped.opening += 1;
            continue;
        }
        if played == Move::Pass || child.must_pass() {
            out.skipped.pass += 1;
            continue;
        }
        if child.is_game_over() {
            out.skipped.end += 1;
            continue;
        }
        let mut score_of = |k: usize| -> Result<SearchResult> {
            if let Some(r) = &searched[k] {
                return Ok(r.clone());
            }
            let r = search(engine, positions[k])
                .with_context(|| format!("line {}, ply {}", game.line, k + 1))?;
            out.cost.searches += 1;
            out.cost.nodes += r.nodes;
            out.cost.seconds += r.elapsed.as_secs_f64();
            searched[k] = Some(r.clone());
            Ok(r)
        };
        let (p, c) = (score_of(i)?, score_of(i + 1)?);
        let exact = match (p.kind, c.kind) {
            (
                ScoreKind::Midgame(_) | ScoreKind::SelectiveEnd { .. },
                ScoreKind::Midgame(_) | ScoreKind::SelectiveEnd { .. },
            ) => false,
            (ScoreKind::Exact, ScoreKind::Exact) => true,
            _ => {
                out.skipped.mixed += 1;
                continue;
            }
        };
        let (score, child_score) = (to_discs(p.score), to_discs(c.score));
        out.pairs.push(Pair {
            line: game.line,
            ply: i + 1,
            empties: position_empties(&positions[i]),
            played: played.to_string(),
            score,
            child_score,
            // + 0.0: an exact -0.0 would print as -0.0.
            sum: score + child_score + 0.0,
            exact,
            nodes: p.nodes + c.nodes,
            seconds: (p.elapsed + c.elapsed).as_secs_f64(),
        });
    }
    Ok(out)
}

/// The empty squares of `pos`.
fn position_empties(pos: &Position) -> u32 {
    pos.board.empties()
}

/// Sums over a set of pairs.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    count: usize,
    sum: f64,
    abs_sum: f64,
    nodes: u64,
    seconds: f64,
}

impl Tally {
    /// Adds one pair.
    pub fn add(&mut self, p: &Pair) {
        self.count += 1;
        self.sum += p.sum;
        self.abs_sum += p.sum.abs();
        self.nodes += p.nodes;
        self.seconds += p.seconds;
    }

    /// The figures, named `what` (a band, `all` or `exact`).
    pub fn summary(&self, what: String) -> Summary {
        let n = self.count.max(1) as f64;
        Summary {
            what,
            pairs: self.count,
            // + 0.0: no -0.0 in the report.
            mean_sum: self.sum / n + 0.0,
            mean_abs_sum: self.abs_sum / n,
            nodes: self.nodes,
            seconds: self.seconds,
        }
    }
}

/// The consistency over a band of empties, the midgame pairs or the exact ones.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// `empties A-B`, `all` (every midgame pair) or `exact`.
    pub what: String,
    /// Pairs measured.
    pub pairs: usize,
    /// Mean of score + child's score, in discs: the consistency (0 is perfect).
    pub mean_sum: f64,
    /// Mean of |score + child's score|, in discs.
    pub mean_abs_sum: f64,
    /// Nodes of the pairs' searches (a position searched for two pairs counts
    /// in both).
    pub nodes: u64,
    /// Time of the pairs' searches (likewise).
    pub seconds: f64,
}

impl Summary {
    /// One line of the text report.
    pub fn line(&self) -> String {
        format!(
            "{:<14} {:>6} {:>+8.2} {:>8.2} {:>13} {:>9.2}",
            self.what, self.pairs, self.mean_sum, self.mean_abs_sum, self.nodes, self.seconds
        )
    }
}

/// The header over [`Summary::line`]s.
pub const TABLE_HEADER: &str = "band            pairs     mean  mean|.|         nodes   seconds";

/// The last line of the report: the games, what the searches cost (each
/// search once) and the moves left out.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Totals {
    /// Always `games`.
    pub what: &'static str,
    /// Games measured.
    pub games: usize,
    /// The searches.
    #[serde(flatten)]
    pub cost: Cost,
    /// Moves that made no pair.
    pub skipped: Skipped,
}

/// Runs `mollett accuracy --games FILE`: a JSON line per pair with `--json`,
/// then a line per band of empties (midgame pairs), `all`, `exact` when
/// there are exact pairs, and the totals.
pub fn run(args: &AccuracyArgs, file: &Path) -> Result<()> {
    let text = read_regular_file(file, MAX_TEXT)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let mut games =
        parse_games(&text, args.variant).with_context(|| format!("in {}", file.display()))?;
    if let Some(n) = args.games_limit {
        games.truncate(n);
    }
    if games.is_empty() {
        bail!("{} holds no game", file.display());
    }
    let mut level = level_of(args);
    if let Some(e) = args.exact_empties {
        level.limits.exact_empties = e;
    }
    // No win/loss/draw-only proofs: a score is either heuristic or exact.
    level.limits.wld_empties = level.limits.exact_empties;
    let mut engine = engine_for(args, level, None)?;
    let how = Measure {
        skip_plies: args.skip_plies,
    };
    let (mut midgame, mut exact) = (Tally::default(), Tally::default());
    let mut bands = BTreeMap::<u32, Tally>::new();
    let mut totals = Totals {
        what: "games",
        games: games.len(),
        cost: Cost::default(),
        skipped: Skipped::default(),
    };
    for game in &games {
        let g = measure_game(&mut engine, game, how)
            .with_context(|| format!("in {}", file.display()))?;
        for p in &g.pairs {
            if args.json {
                say!("{}", serde_json::to_string(p)?);
            }
            if p.exact {
                exact.add(p);
            } else {
                midgame.add(p);
                bands.entry(p.empties / BAND_WIDTH).or_default().add(p);
            }
        }
        totals.add(&g);
    }
    if midgame.count + exact.count == 0 {
        bail!(
            "{}: no position and child searched to scores of one kind",
            file.display()
        );
    }
    let mut summaries: Vec<Summary> = bands
        .iter()
        .map(|(&b, t)| t.summary(band(b * BAND_WIDTH)))
        .collect();
    summaries.push(midgame.summary("all".to_string()));
    if exact.count > 0 {
        summaries.push(exact.summary("exact".to_string()));
    }
    let title = format!(
        "level {level}, {} thread(s), odd/even consistency (score + child's score, discs)",
        args.threads
    );
    print_rows(args.json, [&title, TABLE_HEADER], &summaries, Summary::line)?;
    if args.json {
        say!("{}", serde_json::to_string(&totals)?);
    } else {
        say!("{}", totals.line());
    }
    Ok(())
}

impl Totals {
    /// Adds a game's searches and moves left out.
    fn add(&mut self, g: &GamePairs) {
        self.cost.searches += g.cost.searches;
        self.cost.nodes += g.cost.nodes;
        self.cost.seconds += g.cost.seconds;
        let (s, t) = (&mut self.skipped, &g.skipped);
        s.opening += t.opening;
        s.pass += t.pass;
        s.end += t.end;
        s.mixed += t.mixed;
    }

    /// The text report's last line.
    pub fn line(&self) -> String {
        let s = &self.skipped;
        format!(
            "games {}, searches {}, nodes {}, seconds {:.2}; moves left out: {} opening, {} pass, {} end, {} mixed",
            self.games,
            self.cost.searches,
            self.cost.nodes,
            self.cost.seconds,
            s.opening,
            s.pass,
            s.end,
            s.mixed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn games_are_read_a_line_each() {
        let text = "% comment\nf5d6c3\n\n# another\n(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)\n";
        let games = parse_games(text, Variant::Othello).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].line, games[0].game.len()), (2, 3));
        assert_eq!((games[1].line, games[1].game.len()), (5, 2));
        let err = parse_games("f5d6\nf5f5\n", Variant::Othello).unwrap_err();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
    }

    fn pair(sum: f64, exact: bool) -> Pair {
        Pair {
            line: 1,
            ply: 1,
            empties: 30,
            played: "f5".into(),
            score: sum,
            child_score: 0.0,
            sum,
            exact,
            nodes: 5,
            seconds: 0.25,
        }
    }

    #[test]
    fn the_figures_of_a_few_pairs() {
        let mut t = Tally::default();
        t.add(&pair(3.0, false));
        t.add(&pair(-1.0, false));
        let s = t.summary("all".into());
        assert_eq!(s.pairs, 2);
        assert_eq!(s.mean_sum, 1.0);
        assert_eq!(s.mean_abs_sum, 2.0);
        assert_eq!((s.nodes, s.seconds), (10, 0.5));
        let empty = Tally::default().summary("exact".into());
        assert_eq!((empty.pairs, empty.mean_sum), (0, 0.0));
    }
}
