//! Ending a game early by the runner's judgement, as engine testers do to save
//! time (cutechess-cli's `-resign` and its tablebase adjudication):
//!
//! - **exact** (`--adjudicate-empties N`): when the side to move has N or
//!   fewer empty squares before it, the runner solves the position with
//!   Mollett's perfect endgame solver and scores the game as perfect play
//!   from there would end it;
//! - **evals** (`--adjudicate-margin D`, `--adjudicate-moves M`): when the
//!   last M moves of each side came with evaluations (NBoard entrants give
//!   them) that all put the same side D discs or more ahead, that side wins;
//!   the score is that of the game completed by a depth-4 search for both
//!   sides, at least the smallest win (33–31) for the winner, as a forfeit's.
//!
//! The record keeps only the moves played, with `RE[margin:s]` and a
//! `CO[adjudicated: …]` comment saying which rule ended it.

use super::game::{ADJUDICATION_LEVEL, FORFEIT_MARGIN, complete_at};
use crate::board::{Color, Move};
use crate::format::GgfGame;
use crate::rules::Position;
use crate::search::Level;

/// The most empties an exact adjudication may be asked for: a perfect solve
/// of more takes a minute and up here, longer than most games' remaining
/// moves would.
pub const MAX_ADJUDICATION_EMPTIES: u32 = 26;

/// The rules a match adjudicates by (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Solve at this many empties or fewer.
    pub empties: Option<u32>,
    /// A lead of this many discs in both sides' evaluations ...
    pub margin: Option<f64>,
    /// ... over each side's last this many moves.
    pub moves: usize,
}

/// Why a game was adjudicated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ruling {
    /// Solved at this many empties.
    Exact(u32),
    /// Both sides' evaluations put `winner` ahead.
    Evals(Color),
}

impl Adjudication {
    /// The ruling before `pos` is asked for a move, if the exact rule applies.
    pub fn before_move(&self, pos: &Position) -> Option<Ruling> {
        let n = self.empties?;
        let empties = pos.board.empties();
        (empties <= n && !pos.is_game_over()).then_some(Ruling::Exact(empties))
    }

    /// The ruling after a move was recorded, if the evaluation rule applies.
    pub fn after_move(&self, record: &GgfGame) -> Option<Ruling> {
        let d = self.margin?;
        let wanted = 2 * self.moves.max(1);
        // The side of each ply: passes are explicit, so sides alternate.
        let mut side = record.start.side;
        let mut black_views = Vec::with_capacity(record.moves.len());
        for m in &record.moves {
            if m.mv != Move::Pass {
                black_views.push(m.eval.map(|e| if side == Color::Black { e } else { -e }));
            }
            side = side.opposite();
        }
        let last = black_views.get(black_views.len().checked_sub(wanted)?..)?;
        let views: Vec<f64> = last.iter().copied().collect::<Option<_>>()?;
        if views.iter().all(|&v| v >= d) {
            Some(Ruling::Evals(Color::Black))
        } else if views.iter().all(|&v| v <= -d) {
            Some(Ruling::Evals(Color::White))
        } else {
            None
        }
    }
}

/// Black's margin, the final position it comes from, and the record's
/// comment, for a game adjudicated by `ruling` at `pos`.
pub fn score(ruling: Ruling, pos: Position, moves: usize) -> (i32, Position, String) {
    match ruling {
        Ruling::Exact(empties) => {
            let end = complete_at(pos, Level::number(60), EXACT_TABLE_MB);
            let m = end.final_score_black();
            let comment = format!(
                "adjudicated: solved at {empties} empties, perfect play gives {m:+} for Black"
            );
            (m, end, comment)
        }
        Ruling::Evals(winner) => {
            let end = complete_at(pos, Level::number(ADJUDICATION_LEVEL), 1);
            let completed = end.final_score_black();
            let for_winner = match winner {
                Color::Black => completed,
                Color::White => -completed,
            }
            .max(FORFEIT_MARGIN);
            let m = if winner == Color::Black {
                for_winner
            } else {
                -for_winner
            };
            let comment = format!(
                "adjudicated: both sides' evaluations put {winner} ahead over their last \
                 {moves} moves each; the game was completed by a depth-{ADJUDICATION_LEVEL} \
                 search ({completed:+} for Black) and scored at least 33-31"
            );
            (m, end, comment)
        }
    }
}

/// The table of an exact adjudication: enough for a solve of
/// [`MAX_ADJUDICATION_EMPTIES`] without thrashing.
const EXACT_TABLE_MB: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::GgfMove;
    use crate::rules::game::Game;

    fn record(evals: &[Option<f64>]) -> GgfGame {
        let mut g = GgfGame::from_game(&Game::default());
        let pos = Position::START;
        let mv = pos.legal_moves()[0];
        for &e in evals {
            g.moves.push(GgfMove {
                mv,
                eval: e,
                time: None,
            });
        }
        g
    }

    #[test]
    fn evaluations_must_agree_over_both_sides_last_moves() {
        let rule = Adjudication {
            empties: None,
            margin: Some(10.0),
            moves: 2,
        };
        // Black moves first: Black +12, White -15 (Black ahead), ...
        let ahead = [Some(12.0), Some(-15.0), Some(11.0), Some(-10.0)];
        assert_eq!(
            rule.after_move(&record(&ahead)),
            Some(Ruling::Evals(Color::Black))
        );
        let behind = [Some(-12.0), Some(15.0), Some(-11.0), Some(10.0)];
        assert_eq!(
            rule.after_move(&record(&behind)),
            Some(Ruling::Evals(Color::White))
        );
        // One short of the margin, a missing eval, or too few moves: nothing.
        let short = [Some(12.0), Some(-9.5), Some(11.0), Some(-10.0)];
        assert_eq!(rule.after_move(&record(&short)), None);
        let missing = [Some(12.0), None, Some(11.0), Some(-10.0)];
        assert_eq!(rule.after_move(&record(&missing)), None);
        assert_eq!(rule.after_move(&record(&ahead[1..])), None);
        // Older moves do not count against a lead held since.
        let mut later = vec![Some(-30.0), Some(30.0)];
        later.extend(ahead);
        assert_eq!(
            rule.after_move(&record(&later)),
            Some(Ruling::Evals(Color::Black))
        );
        assert_eq!(Adjudication::default().after_move(&record(&ahead)), None);
    }

    /// Black's final margin under perfect play, by plain negamax over every
    /// line (a reference for small endgames).
    fn brute_force(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return pos.final_score_black();
        }
        let children: Vec<i32> = if pos.must_pass() {
            vec![brute_force(&pos.play(Move::Pass).unwrap())]
        } else {
            pos.legal_moves()
                .into_iter()
                .map(|m| brute_force(&pos.play(m).unwrap()))
                .collect()
        };
        match pos.side {
            Color::Black => children.into_iter().max().unwrap(),
            Color::White => children.into_iter().min().unwrap(),
        }
    }

    #[test]
    fn an_exact_ruling_scores_perfect_play() {
        let rule = Adjudication {
            empties: Some(9),
            margin: None,
            moves: 0,
        };
        assert_eq!(rule.before_move(&Game::default().position()), None);
        // Games to 9 empties along each of the first three moves' lines.
        for first in 0..3 {
            let mut pos = Position::START;
            pos = pos.play(pos.legal_moves()[first]).unwrap();
            while pos.board.empties() > 9 && !pos.is_game_over() {
                let moves = pos.legal_moves();
                let mv = if moves.is_empty() {
                    Move::Pass
                } else {
                    moves[moves.len() / 2]
                };
                pos = pos.play(mv).unwrap();
            }
            if pos.is_game_over() {
                continue;
            }
            let ruling = rule.before_move(&pos).expect("at 9 empties or fewer");
            let (m, end, comment) = score(ruling, pos, 0);
            assert!(end.is_game_over());
            assert_eq!(m, brute_force(&pos), "perfect play, by every line");
            assert!(comment.contains("perfect play gives"), "{comment}");
        }
    }
}
