//! A game: a start position and the legal moves played from it.
//!
//! Passes are explicit entries in [`Game::moves`], and only forced passes are
//! accepted, so the list replays move for move. The current position is not
//! cached: it is recomputed by replaying (a game has at most about 60 moves), so
//! it can never disagree with the public fields.

use crate::board::{IllegalMove, Move};
use crate::rules::{Position, Variant};

/// A start position plus every move played from it, each one legal under the
/// start's rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// The position before the first move (any set-up position, either side to
    /// move), with its rules and discs left.
    pub start: Position,
    /// The moves played, in order, passes included.
    pub moves: Vec<Move>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::START)
    }
}

impl Game {
    /// A game with no moves yet from `start`, under its rules.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
        }
    }

    /// The rules the game is played under.
    pub fn variant(&self) -> Variant {
        self.start.variant
    }

    /// A game from `start` and `moves`, or the index of the first illegal move and
    /// why it is illegal.
    pub fn from_moves(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, (usize, IllegalMove)> {
        let mut game = Game::new(start);
        for (i, mv) in moves.into_iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// Plays `mv` after checking it is legal in the current position (a pass only
    /// when the side to move has no move and the game is not over).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.position().play(mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move and returns it; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.moves.pop()
    }

    /// The current position, after every move. If `moves` was edited by hand into
    /// an illegal sequence, this is the position before the first illegal move.
    pub fn position(&self) -> Position {
        self.positions().last().copied().unwrap_or(self.start)
    }

    /// Every position from the start to the current one: `len() + 1` of them for a
    /// legal game (fewer if `moves` was edited into an illegal sequence: replay
    /// stops before the first illegal move).
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &mv in &self.moves {
            match pos.play(mv) {
                Ok(next) => pos = next,
                Err(_) => break,
            }
            out.push(pos);
        }
        out
    }

    /// The number of moves played, passes included.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Whether neither side can move in the current position.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn play_undo_and_positions() {
        let mut g = Game::new(Position::START);
        assert!(g.is_empty());
        g.play(mv("f5")).unwrap();
        g.play(mv("d6")).unwrap();
        assert_eq!(
            g.play(mv("a1")),
            Err(IllegalMove::NoFlips(mv("a1").square().unwrap()))
        );
        assert_eq!(g.play(Move::Pass), Err(IllegalMove::PassWithMoves));
        assert_eq!(g.len(), 2);
        let ps = g.positions();
        assert_eq!(ps.len(), 3);
        assert_eq!(ps[0], Position::START);
        assert_eq!(ps[2], g.position());
        assert_eq!(g.position().side, Color::Black);
        assert_eq!(g.undo(), Some(mv("d6")));
        assert_eq!(g.undo(), Some(mv("f5")));
        assert_eq!(g.undo(), None);
        assert_eq!(g.position(), Position::START);
    }

    #[test]
    fn from_moves_reports_the_first_illegal_move() {
        let ok = Game::from_moves(Position::START, [mv("f5"), mv("f6")]).unwrap();
        assert_eq!(ok.len(), 2);
        let bad = Game::from_moves(Position::START, [mv("f5"), mv("f5")]);
        assert_eq!(
            bad,
            Err((1, IllegalMove::Occupied(mv("f5").square().unwrap())))
        );
    }

    #[test]
    fn moves_after_the_end_are_refused_as_game_over() {
        let over = Position::from_colors(1, 0, Color::White).unwrap();
        let mut g = Game::new(over);
        assert!(g.is_over());
        assert_eq!(g.play(mv("b1")), Err(IllegalMove::GameOver));
        assert_eq!(g.play(Move::Pass), Err(IllegalMove::GameOver));
    }

    #[test]
    fn a_hand_edited_game_never_panics() {
        let mut g = Game::new(Position::START);
        g.moves = vec![mv("f5"), mv("a1"), mv("d6")];
        assert_eq!(g.positions().len(), 2);
        assert_eq!(g.position(), Position::START.play(mv("f5")).unwrap());
    }
}
