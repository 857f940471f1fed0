//! Transcripts: a game as concatenated moves, such as `f5d6c3d3c4`.
//!
//! On input squares are case-insensitive and whitespace may stand anywhere between
//! moves. A pass may be written `pa`, `ps`, `pass` or `--` (any case), but need not
//! be: when a square is read while the side to move has no legal move and the game
//! is not over, the forced pass is inserted first. An explicit pass that is not
//! forced is an illegal move.
//!
//! On output ([`write_transcript`]) squares are lower case with no separator and
//! passes are left out, since the next move implies them; only a pass that ends
//! the game's move list is written (as `pa`), because nothing after it implies
//! it. So `parse_transcript(g.start, &write_transcript(&g)) == Ok(g)` for every
//! [`Game`].

use super::{ErrorKind, ParseError, char_at};
use crate::board::{IllegalMove, Move, Square};
use crate::rules::Position;
use crate::rules::game::Game;

/// Reads the transcript `text` as moves played from `start`, under its variant
/// (a bare [`Position`](crate::rules::Position) is Othello's; for historical
/// Reversi the transcript begins with the four centre placements). Errors name
/// the offending token and its offset; an illegal move also gives its 1-based
/// number in the game (passes counted).
pub fn parse_transcript(start: impl Into<Position>, text: &str) -> Result<Game, ParseError> {
    struct Record {
        game: Game,
        pos: Position,
    }
    impl Moves for Record {
        fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
            if mv != Move::Pass && self.pos.must_pass() {
                // A forced pass is always legal.
                self.pos = self.pos.play(Move::Pass)?;
                self.game.moves.push(Move::Pass);
            }
            self.pos = self.pos.play(mv)?;
            self.game.moves.push(mv);
            Ok(())
        }
        fn played(&self) -> usize {
            self.game.moves.len()
        }
    }
    let start = start.into();
    let mut record = Record {
        game: Game::new(start),
        pos: start,
    };
    read_moves(text, &mut record)?;
    Ok(record.game)
}

/// Where a transcript's moves go.
trait Moves {
    /// Plays `mv` (and a forced pass before it if the game needs one).
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove>;
    /// Moves played so far, passes included.
    fn played(&self) -> usize;
}

/// Reads the moves of `text` one by one into `sink`.
fn read_moves(text: &str, sink: &mut dyn Moves) -> Result<(), ParseError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(c) = char_at(text, i) {
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let (mv, len) = read_move(bytes, i).ok_or_else(|| {
            ParseError::new(
                ErrorKind::BadMove,
                format!("'{}' is not a move (a1..h8 or a pass)", excerpt2(text, i)),
                text,
                i,
                i + 2,
            )
        })?;
        let token = &text[i..i + len];
        sink.play(mv).map_err(|e| {
            ParseError::new(
                ErrorKind::IllegalMove,
                format!("'{token}' is illegal as move {}: {e}", sink.played() + 1),
                text,
                i,
                i + len,
            )
        })?;
        i += len;
    }
    Ok(())
}

/// The first (up to) two characters at byte `i` of `text`, for messages.
fn excerpt2(text: &str, i: usize) -> String {
    text.get(i..)
        .map_or_else(String::new, |r| r.chars().take(2).collect())
}

/// The move spelled at byte `i` and its length in bytes: `pass`, `pa`, `ps`, `--`
/// or a square, ASCII case-insensitive.
fn read_move(bytes: &[u8], i: usize) -> Option<(Move, usize)> {
    let rest = bytes.get(i..)?;
    let starts =
        |w: &str| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w.as_bytes());
    if starts("pass") {
        return Some((Move::Pass, 4));
    }
    if starts("pa") || starts("ps") || starts("--") {
        return Some((Move::Pass, 2));
    }
    let (&c, &r) = (rest.first()?, rest.get(1)?);
    let col = c.to_ascii_lowercase().wrapping_sub(b'a');
    let row = r.wrapping_sub(b'1');
    Square::at(col, row).map(|sq| (Move::Play(sq), 2))
}

/// The transcript of `game`: lower-case squares, passes left out except one that
/// ends the move list (written `pa`).
pub fn write_transcript(game: &Game) -> String {
    let mut out = String::with_capacity(2 * game.moves.len());
    for (i, mv) in game.moves.iter().enumerate() {
        match mv {
            Move::Play(sq) => out.push_str(&sq.to_string()),
            Move::Pass if i + 1 == game.moves.len() => out.push_str("pa"),
            Move::Pass => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::IllegalMove;

    fn start_game(text: &str) -> Result<Game, ParseError> {
        parse_transcript(Position::START, text)
    }

    #[test]
    fn reads_case_and_spacing() {
        let g = start_game("f5D6 c3\td3\nC4").unwrap();
        assert_eq!(g.len(), 5);
        assert_eq!(write_transcript(&g), "f5d6c3d3c4");
        assert_eq!(start_game("").unwrap(), Game::new(Position::START));
    }

    #[test]
    fn inserts_forced_passes_and_accepts_explicit_ones() {
        // Black a1, White b1, White to move: White has no move, Black has c1.
        let pos: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
        assert!(pos.board.must_pass());
        let implied = parse_transcript(pos, "c1").unwrap();
        assert_eq!(implied.moves, vec![Move::Pass, "c1".parse().unwrap()]);
        for spelled in ["pa c1", "PASS c1", "ps c1", "--c1", "pac1"] {
            assert_eq!(
                parse_transcript(pos, spelled).unwrap(),
                implied,
                "{spelled}"
            );
        }
        assert_eq!(write_transcript(&implied), "c1");
        // A pass that ends the list is written out.
        let trailing = parse_transcript(pos, "pa").unwrap();
        assert_eq!(write_transcript(&trailing), "pa");
        assert_eq!(parse_transcript(pos, "pa").unwrap(), trailing);
    }

    #[test]
    fn errors_name_the_move_index_and_offset() {
        let e = start_game("f5 d6 a1").unwrap_err();
        assert_eq!(
            (e.kind, e.offset, e.excerpt.as_str()),
            (ErrorKind::IllegalMove, 6, "a1")
        );
        assert!(e.message.contains("'a1' is illegal as move 3"), "{e}");
        assert!(
            e.message
                .contains(&IllegalMove::NoFlips("a1".parse().unwrap()).to_string())
        );

        let e = start_game("f5f5").unwrap_err();
        assert!(e.to_string().contains("the square is taken"), "{e}");
        let e = start_game("f5pa").unwrap_err();
        assert!(e.to_string().contains("'pa' is illegal as move 2"), "{e}");

        let over = Position::from_colors(1, 0, crate::board::Color::Black).unwrap();
        let e = parse_transcript(over, "b1").unwrap_err();
        assert!(
            e.to_string()
                .contains("'b1' is illegal as move 1: illegal move: the game is over"),
            "{e}"
        );

        let e = start_game("f5 z9").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadMove, 3));
        assert!(e.to_string().contains("'z9' is not a move"), "{e}");
        let e = start_game("f5 f").unwrap_err();
        assert!(e.to_string().contains("'f' is not a move"), "{e}");
        let e = start_game("f5€€").unwrap_err();
        assert!(e.to_string().contains("'€€' is not a move"), "{e}");
    }
}
