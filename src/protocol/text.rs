//! Text shared by the dialects: board diagrams, colours, move lists.

use crate::board::{Color, Move};
use crate::rules::{Position, UNLIMITED};

/// A colour word: `b`, `black`, `w`, `white` in any case.
pub(crate) fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// The legal moves in lower case, a pass as `pass`, separated by spaces (empty
/// when the game is over).
pub(crate) fn legal_moves_text(pos: &Position) -> String {
    pos.legal_moves()
        .iter()
        .map(|m| move_lower(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move in lower case, a pass as `pass` ([`Move::lower`]).
pub(crate) fn move_lower(mv: Move) -> String {
    mv.lower()
}

/// The final result from Black's point of view: `B+n`, `W+n` or `0`.
pub(crate) fn result_text(pos: &Position) -> String {
    match pos.final_score_black() {
        0 => "0".to_string(),
        n if n > 0 => format!("B+{n}"),
        n => format!("W+{}", -n),
    }
}

/// An ASCII diagram: columns a–h, rows 1–8 top to bottom, `X` black, `O`
/// white, `.` empty and, with `mark_legal`, `*` for the legal moves; then a
/// status line (whose turn, disc counts, discs left in historical Reversi,
/// legal moves).
pub(crate) fn board_diagram(pos: &Position, mark_legal: bool) -> Vec<String> {
    let (black, white) = (pos.black(), pos.white());
    let legal = if mark_legal { pos.moves() } else { 0 };
    let mut out = Vec::with_capacity(11);
    out.push("  a b c d e f g h".to_string());
    for row in 0..8 {
        let mut line = format!("{}", row + 1);
        for col in 0..8 {
            let bit = 1u64 << (row * 8 + col);
            let c = if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else if legal & bit != 0 {
                '*'
            } else {
                '.'
            };
            line.push(' ');
            line.push(c);
        }
        line.push_str(&format!(" {}", row + 1));
        out.push(line);
    }
    out.push("  a b c d e f g h".to_string());
    let (nb, nw) = (black.count_ones(), white.count_ones());
    let mut counts = format!("X {nb}, O {nw}, empty {}", 64 - nb - nw);
    if let [b, w] = pos.discs_left
        && b != UNLIMITED
    {
        counts.push_str(&format!(", discs left X {b}, O {w}"));
    }
    let mover = match pos.side {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    };
    out.push(if pos.is_game_over() {
        let verdict = match pos.final_score_black() {
            0 => "a draw".to_string(),
            n if n > 0 => format!("black wins by {n}"),
            n => format!("white wins by {}", -n),
        };
        format!("game over: {counts}; {verdict}")
    } else if pos.must_pass() {
        format!("{mover} to move and must pass; {counts}")
    } else {
        format!("{mover} to move; {counts}; moves {}", legal_moves_text(pos))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::rules::Variant;

    #[test]
    fn diagram_of_the_start() {
        let d = board_diagram(&Variant::Othello.start(), true);
        assert_eq!(d[0], "  a b c d e f g h");
        assert_eq!(d[3], "3 . . . * . . . . 3");
        assert_eq!(d[4], "4 . . * O X . . . 4");
        assert_eq!(d[5], "5 . . . X O * . . 5");
        assert_eq!(
            d[10],
            "X (black) to move; X 2, O 2, empty 60; moves d3 c4 f5 e6"
        );
        assert_eq!(
            board_diagram(&Variant::Othello.start(), false)[3],
            "3 . . . . . . . . 3"
        );
    }

    #[test]
    fn colours_and_results() {
        for (s, c) in [
            ("b", Color::Black),
            ("BLACK", Color::Black),
            ("W", Color::White),
        ] {
            assert_eq!(parse_color(s), Some(c));
        }
        assert_eq!(parse_color("x"), None);
        let over = Position::from_colors(3, 0, Color::White).unwrap();
        assert_eq!(result_text(&over), "B+64");
        assert!(board_diagram(&over, true)[10].contains("black wins by 64"));
        // Anti-Reversi: the fewer discs win, empties to nobody.
        let anti = Position {
            variant: Variant::Anti,
            ..over
        };
        assert_eq!(result_text(&anti), "W+2");
        assert!(board_diagram(&anti, true)[10].contains("white wins by 2"));
    }
}
