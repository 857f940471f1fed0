//! Game analysis (`mollett analyze`): for every move of a game, the best move and
//! the evaluations of both, the loss in discs and a mark for mistakes.
//!
//! Each position before a move (forced passes excepted) is searched at the
//! analysis level: that gives the best move and its evaluation. The move played,
//! when it is not the best, is evaluated by searching the position after it one
//! ply less deep (so both moves are looked at to the same total depth) and
//! negating. Where the position is within the level's exact-solve window both
//! evaluations are exact final disc margins. Evaluations are in discs from the
//! mover's point of view; the loss is `best − played`, never below 0 (a played
//! move that a search rates at least as high as the first pick is taken as the
//! best). A move that ends the game is scored exactly. A loss of
//! at least the threshold is a mistake (`?`), of three times the threshold a
//! blunder (`??`).
//!
//! Every variant is analysed, each position by a job of an
//! [`Engine`](crate::engine::Engine) (which chooses the rules' search).

pub mod command;
pub mod svg;

use crate::board::{Color, Move};
use crate::engine::{Engine, EngineError, Event, Job, Settings};
use crate::eval::{from_discs, to_discs};
use crate::format::{ParseError, parse_first_ggf, parse_transcript};
use crate::rules::game::Game;
use crate::rules::{Position, Variant};
use crate::search::{Level, Limits, ScoreKind, SearchResult};

/// A blunder loses this many times the mistake threshold.
pub const BLUNDER_FACTOR: f64 = 3.0;

/// How to analyse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalyzeOptions {
    /// The search level for every position.
    pub level: Level,
    /// A loss of this many discs or more is a mistake.
    pub threshold: f64,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads (lazy SMP); with one, the analysis is the same on every
    /// run.
    pub threads: usize,
}

/// One move's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// The move's number in the game, from 1, passes counted.
    pub ply: usize,
    /// The side that moved.
    pub side: Color,
    /// Empty squares before the move.
    pub empties: u32,
    /// The move played.
    pub played: Move,
    /// Its evaluation, in discs for the mover.
    pub played_eval: f64,
    /// The best move found.
    pub best: Move,
    /// Its evaluation, in discs for the mover.
    pub best_eval: f64,
    /// Whether both evaluations are exact final margins.
    pub exact: bool,
    /// `best_eval − played_eval`, at least 0.
    pub loss: f64,
    /// `""`, `"?"` (a mistake) or `"??"` (a blunder).
    pub mark: &'static str,
    /// Whether the move played is a move of the opening book there (set by
    /// the caller that has a book; `false` otherwise).
    pub book: bool,
}

impl MoveAnalysis {
    /// Whether the loss reaches the mistake threshold.
    pub fn is_mistake(&self) -> bool {
        !self.mark.is_empty()
    }

    /// An evaluation of this move's position turned to Black's point of view.
    pub fn for_black(&self, eval: f64) -> f64 {
        match self.side {
            Color::Black => eval,
            Color::White => -eval,
        }
    }

    /// The analysis as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "ply": self.ply,
            "side": self.side.to_string(),
            "empties": self.empties,
            "played": self.played.to_string(),
            "played_eval": self.played_eval,
            "best": self.best.to_string(),
            "best_eval": self.best_eval,
            "exact": self.exact,
            "loss": self.loss,
            "mistake": self.is_mistake(),
            "mark": self.mark,
            "book": self.book,
        })
    }
}

/// Reads a game: a GGF record (the first, if several, the others unread; under the variant it
/// names, else `variant`) or a transcript from `variant`'s start.
pub fn parse_game(text: &str, variant: Variant) -> Result<Game, ParseError> {
    if text.trim_start().starts_with('(') {
        // Only the first record is used, so only it is read.
        let first = parse_first_ggf(text)?;
        first.to_game(variant).map_err(|(i, e)| {
            let msg = format!("move {} is illegal under {variant}: {e}", i + 1);
            ParseError::at_end(crate::format::ErrorKind::IllegalMove, msg, text)
        })
    } else {
        parse_transcript(variant.start(), text.trim())
    }
}

/// Searches `pos` on `engine` (one table for the whole game) at the level
/// `level` with the midgame depth `depth`.
fn search_at(
    engine: &mut Engine,
    pos: &Position,
    level: Level,
    depth: u32,
) -> Result<SearchResult, EngineError> {
    let limits = Limits {
        depth: depth.max(1),
        ..level.limits
    };
    engine.set_level(Level { limits, ..level });
    engine.set_game(Game::new(*pos));
    engine.start(Job::Go { clock: None })?;
    match engine.wait().pop() {
        Some(Event::Finished(f)) => Ok(f.result.expect("a move search has a result")),
        other => panic!("the search failed: {other:?}"),
    }
}

/// Analyses every move of `game` (forced passes excepted), calling `on_move` as
/// each is done.
pub fn analyze(
    game: &Game,
    opts: &AnalyzeOptions,
    on_move: &mut dyn FnMut(&MoveAnalysis),
) -> Result<Vec<MoveAnalysis>, EngineError> {
    let mut engine = Engine::new(Settings {
        level: opts.level,
        threads: opts.threads,
        hash_mb: opts.hash_mb,
        variant: game.variant(),
        ..Settings::default()
    })?;
    let mut level = opts.level;
    // No win/loss/draw-only proofs: a score is either heuristic or exact.
    level.limits.wld_empties = level.limits.exact_empties;
    let limits = level.limits;
    let mut run = |pos: &Position, depth| search_at(&mut engine, pos, level, depth);
    let mut out = Vec::new();
    let positions = game.positions();
    for (i, (pos, &played)) in positions.iter().zip(&game.moves).enumerate() {
        if played == Move::Pass {
            continue;
        }
        let best = run(pos, limits.depth)?;
        let mut best_move = best.best.expect("a position with a move to play");
        let mut best_exact = best.kind == ScoreKind::Exact;
        // In centi-discs, so that the loss is a difference of whole units.
        let mut best_eval = best.score;
        let child = positions[i + 1];
        let (played_eval, played_exact) = if child.is_game_over() {
            (from_discs(-child.final_score()), true)
        } else if played == best_move {
            (best_eval, best_exact)
        } else {
            let r = run(&child, limits.depth.saturating_sub(1))?;
            (-r.score, r.kind == ScoreKind::Exact)
        };
        // A played move rated at least as high as the first pick is the best.
        if played == best_move || played_eval >= best_eval {
            (best_move, best_eval, best_exact) = (played, played_eval, played_exact);
        }
        let (loss, played_eval, best_eval) = (
            to_discs(best_eval - played_eval),
            to_discs(played_eval),
            to_discs(best_eval),
        );
        let mark = if loss >= BLUNDER_FACTOR * opts.threshold {
            "??"
        } else if loss >= opts.threshold {
            "?"
        } else {
            ""
        };
        let a = MoveAnalysis {
            ply: i + 1,
            side: pos.side,
            empties: pos.board.empties(),
            played,
            played_eval,
            best: best_move,
            best_eval,
            exact: best_exact && played_exact,
            loss,
            mark,
            book: false,
        };
        on_move(&a);
        out.push(a);
    }
    Ok(out)
}

/// The header of [`format_line`]'s table.
pub const TABLE_HEADER: &str = " ply side  empties played    eval best      eval    loss";

/// One move as a table line; exact evaluations carry `=`, a book move `book`
/// after the mark.
pub fn format_line(a: &MoveAnalysis) -> String {
    let kind = if a.exact { "=" } else { " " };
    let book = if a.book { "book" } else { "" };
    format!(
        "{:>4} {:<5} {:>7} {:<6} {:>+7.2}{kind} {:<6} {:>+7.2}{kind} {:>6.2} {:<2} {book}",
        a.ply, a.side, a.empties, a.played, a.played_eval, a.best, a.best_eval, a.loss, a.mark
    )
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_from_transcripts_and_ggf() {
        let t = parse_game("f5d6c3\n", Variant::Othello).unwrap();
        assert_eq!(t.len(), 3);
        let g = parse_game(
            "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)",
            Variant::Othello,
        )
        .unwrap();
        assert_eq!(g.len(), 2);
        assert!(parse_game("f5f5", Variant::Othello).is_err());
        assert!(parse_game("(;GM[Othello]", Variant::Othello).is_err());
    }

    #[test]
    fn variant_games_are_analysed_under_their_rules() {
        // Historical Reversi: the transcript starts with the centre placements.
        let g = parse_game("d4e4d5e5f3", Variant::Reversi).unwrap();
        assert_eq!((g.variant(), g.len()), (Variant::Reversi, 5));
        assert!(parse_game("f5", Variant::Reversi).is_err());
        let opts = AnalyzeOptions {
            level: "2".parse().unwrap(),
            threshold: 4.0,
            hash_mb: 1,
            threads: 1,
        };
        let moves = analyze(&g, &opts, &mut |_| {}).unwrap();
        assert_eq!(moves.len(), 5);
        // Anti-Reversi: wiping White out loses for Black (Black holds every
        // disc: 0 - 13), so the last move, Othello's best, is a blunder here.
        let g = parse_game("f5d6c5f4e3f6g5e6e7", Variant::Anti).unwrap();
        let moves = analyze(&g, &opts, &mut |_| {}).unwrap();
        let last = moves.last().unwrap();
        assert_eq!(last.side, Color::Black);
        assert_eq!(last.played_eval, -13.0);
        assert_ne!(last.best, last.played);
        assert!(last.is_mistake(), "{last:?}");
    }
}
