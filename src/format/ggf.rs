//! GGF game records, as NBoard sends them in `set game` and writes them.
//!
//! A record is `(;` then tags `XX[value]` in any order (whitespace between them
//! allowed), then `;)`. Values are raw text up to the next `]`, with no escaping.
//! Known tags: `GM PC DT PB PW RE RB RW` (kept as text; `GM` defaults to
//! `Othello`), the clocks `TI TB TW` (see [`Clock`]), `TY` (the GGS game type,
//! see [`parse_game_type`]: an 8×8 board, no komi; `a` names the anti game), `BO` (required: `8`, the 64 squares a1..h8 in `* O -` or
//! the lenient `x X`, `o 0`, `. _` with whitespace ignored, then the side to move
//! `*` or `O`), and the moves `B[..]`/`W[..]`. Unknown tags are kept in order.
//!
//! Move tags alternate from the side to move of `BO`; passes are explicit `PA`
//! items, but a forced pass that is left out (a tag of the wrong colour while the
//! side to move has no move) is inserted. Every move is checked: an illegal move
//! is an error naming it and its number among the record's move tags. A move item
//! is `MOVE[/EVAL[/TIME]]` (see [`parse_move_item`]).
//!
//! The writer (`Display` for [`GgfGame`]) follows NBoard:
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]`, then `RB RW`, then `TI` and/or
//! `TB TW`, then the unknown tags, then `TY[8]BO[8 <squares> <side>]`, the moves
//! (passes explicit) and `;)`; tags that are `None` are left out.

use super::clock::parse_clock;
use super::game_type::parse_game_type;
use super::move_item::{GgfMove, parse_move_item};
use super::position::{Cell, scan_side, scan_squares, squares_with};
use super::{Clock, ErrorKind, ParseError, char_at, skip_ws};
use crate::board::{Color, IllegalMove, Move};
use crate::rules::Position;
use crate::rules::game::Game;
use crate::rules::{REVERSI_DISCS, UnknownVariant, Variant};
use std::fmt;
use std::str::FromStr;

/// A GGF game record. Header tags are kept as text (a `]` inside a value cannot
/// be written in GGF and is written as `)`); of `TY` only the anti rule is
/// kept (in `variant`), so a record read with `TY[8r4]` is written with `TY[8]`.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// `GM`, the game's name: `Othello` unless the record says otherwise.
    pub gm: String,
    /// `PC`, the place (NBoard writes `NBoard`).
    pub pc: Option<String>,
    /// `DT`, the date.
    pub dt: Option<String>,
    /// `PB`, Black's name.
    pub pb: Option<String>,
    /// `PW`, White's name.
    pub pw: Option<String>,
    /// `RE`, the result: `?` while unfinished, else e.g. `12`, `-6`, `0:r`.
    pub re: Option<String>,
    /// `RB`, Black's rating.
    pub rb: Option<String>,
    /// `RW`, White's rating.
    pub rw: Option<String>,
    /// `TI`, both sides' clock.
    pub ti: Option<Clock>,
    /// `TB`, Black's clock when the clocks differ.
    pub tb: Option<Clock>,
    /// `TW`, White's clock when the clocks differ.
    pub tw: Option<Clock>,
    /// Unknown tags as (name, value), in the record's order.
    pub extra: Vec<(String, String)>,
    /// `BO`, the start position.
    pub start: Position,
    /// The moves from `start`, forced passes explicit.
    pub moves: Vec<GgfMove>,
    /// The rules the record names: `TY[8a]` (GGS's anti game) or Mollett's
    /// `VA[othello|reversi|anti]`; `None` when it names none (plain `TY[8]`).
    pub variant: Option<Variant>,
    /// Historical Reversi: discs left to place at `start`, Black's then White's
    /// (Mollett's `DL[b w]`); without it, no pass is assumed before `start`.
    pub discs_left: Option<[u8; 2]>,
    /// Clock tags (`TI`, `TB`, `TW`) that could not be read, with why: they are
    /// left out, as a clock alone never refuses a record (the game is played
    /// without it).
    pub unread_clocks: Vec<String>,
}

impl GgfGame {
    /// A record of `start` with no moves, `GM[Othello]` and no other header tag.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            gm: "Othello".to_string(),
            pc: None,
            dt: None,
            pb: None,
            pw: None,
            re: None,
            rb: None,
            rw: None,
            ti: None,
            tb: None,
            tw: None,
            extra: Vec::new(),
            start,
            moves: Vec::new(),
            variant: None,
            discs_left: None,
            unread_clocks: Vec::new(),
        }
    }

    /// A record of `game`'s start and moves (no evals or times), `GM[Othello]`;
    /// a variant game names its variant (and Reversi its discs left).
    pub fn from_game(game: &Game) -> GgfGame {
        let variant = (game.variant() != Variant::Othello).then_some(game.variant());
        GgfGame {
            moves: game.moves.iter().map(|&mv| GgfMove::from(mv)).collect(),
            variant,
            discs_left: (game.variant() == Variant::Reversi).then_some(game.start.discs_left),
            ..GgfGame::new(game.start)
        }
    }

    /// The start under the record's variant, or `default` when it names none;
    /// `None` for a start that historical Reversi cannot have.
    pub fn start_under(&self, default: Variant) -> Option<Position> {
        match self.variant.unwrap_or(default) {
            Variant::Reversi => self.start.reversi(self.discs_left),
            v => Some(self.start.othello_like(v)),
        }
    }

    /// The game under the record's variant, or `default` when it names none:
    /// `Err((i, why))` for the first move `i` illegal under those rules (or
    /// `(0, GameOver)` for a start they cannot have).
    ///
    /// Parsing has checked every move under the rules the record names, so
    /// this fails under those rules only for a record edited by hand.
    pub fn to_game(&self, default: Variant) -> Result<Game, (usize, IllegalMove)> {
        let start = self
            .start_under(default)
            .ok_or((0, IllegalMove::GameOver))?;
        Game::from_moves(start, self.moves.iter().map(|m| m.mv))
    }
}

/// The `BO` alphabet: `* x X`, `O o 0`, `- . _`.
fn bo_cell(c: char) -> Option<Cell> {
    match c {
        '*' | 'x' | 'X' => Some(Cell::Black),
        'O' | 'o' | '0' => Some(Cell::White),
        '-' | '.' | '_' => Some(Cell::Empty),
        _ => None,
    }
}

/// Reads a `BO` value: `8`, the 64 squares and the side to move.
fn parse_bo(value: &str) -> Result<Position, ParseError> {
    const WHAT: &str = "BO board";
    let d0 = skip_ws(value, 0);
    let d1 = value[d0..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(value.len(), |n| d0 + n);
    let size = &value[d0..d1];
    if size.is_empty() {
        return Err(ParseError::new(
            ErrorKind::Unexpected,
            "BO must start with the board size 8",
            value,
            d0,
            d0 + 1,
        ));
    }
    if size != "8" {
        return Err(ParseError::new(
            ErrorKind::Unsupported,
            format!("board size {size} is not supported (only 8)"),
            value,
            d0,
            d1,
        ));
    }
    let (black, white, end) = scan_squares(value, d1, bo_cell, WHAT)?;
    let (side, end) = scan_side(value, end, bo_cell, WHAT)?;
    let rest = skip_ws(value, end);
    if rest < value.len() {
        return Err(ParseError::new(
            ErrorKind::TrailingText,
            "unexpected text after the side to move in BO",
            value,
            rest,
            value.len(),
        ));
    }
    Ok(Position::from_colors(black, white & !black, side).unwrap_or_default())
}

/// One `NAME[value]` tag: its name and value with their offsets in the whole
/// text, and the offset just past its `]`.
struct Tag<'a> {
    name: &'a str,
    name_at: usize,
    value: &'a str,
    value_at: usize,
    end: usize,
}

/// Reads the tag at or after byte `i` (whitespace skipped), or `None` at the
/// record's closing `;)`.
fn next_tag(text: &str, i: usize) -> Result<Option<Tag<'_>>, ParseError> {
    let unclosed = || {
        ParseError::at_end(
            ErrorKind::Truncated,
            "GGF record is not closed with ';)'",
            text,
        )
    };
    let name_at = skip_ws(text, i);
    match char_at(text, name_at) {
        None => return Err(unclosed()),
        Some(';') if text[name_at..].starts_with(";)") => return Ok(None),
        Some(';') if name_at + 1 == text.len() => return Err(unclosed()),
        Some(c) if c.is_ascii_alphanumeric() => {}
        Some(c) => {
            return Err(ParseError::new(
                ErrorKind::Unexpected,
                format!("unexpected '{c}' in GGF record: expected a tag name or ';)'"),
                text,
                name_at,
                name_at + c.len_utf8(),
            ));
        }
    }
    let bracket = text[name_at..]
        .find(|c: char| !c.is_ascii_alphanumeric())
        .map_or(text.len(), |n| name_at + n);
    let name = &text[name_at..bracket];
    match char_at(text, bracket) {
        Some('[') => {}
        None => {
            let msg = format!("GGF record cut short after tag name '{name}'");
            return Err(ParseError::at_end(ErrorKind::Truncated, msg, text));
        }
        Some(c) => {
            return Err(ParseError::new(
                ErrorKind::Unexpected,
                format!("expected '[' after tag name '{name}', found '{c}'"),
                text,
                bracket,
                bracket + c.len_utf8(),
            ));
        }
    }
    let value_at = bracket + 1;
    let Some(len) = text[value_at..].find(']') else {
        return Err(ParseError::new(
            ErrorKind::Truncated,
            format!("unclosed '[' in tag {name}"),
            text,
            name_at,
            text.len(),
        ));
    };
    Ok(Some(Tag {
        name,
        name_at,
        value: &text[value_at..value_at + len],
        value_at,
        end: value_at + len + 1,
    }))
}

/// Reads one record starting exactly at byte `start` of `text`; returns it and
/// the offset just past its `;)`. Error offsets count from the start of `text`.
fn parse_record_at(text: &str, start: usize) -> Result<(GgfGame, usize), ParseError> {
    if !text[start..].starts_with("(;") {
        if "(;".starts_with(&text[start..]) {
            let msg = "GGF record cut short before '(;'";
            return Err(ParseError::at_end(ErrorKind::Truncated, msg, text));
        }
        let msg = "a GGF record must start with '(;'";
        return Err(ParseError::new(
            ErrorKind::Unexpected,
            msg,
            text,
            start,
            start + 2,
        ));
    }
    let mut g = GgfGame::new(Position::START);
    let mut bo = None;
    let mut move_tags = Vec::new();
    let mut i = start + 2;
    while let Some(tag) = next_tag(text, i)? {
        i = tag.end;
        let value = tag.value;
        let clock = |unread: &mut Vec<String>| match parse_clock(value) {
            Ok(c) => Some(c),
            Err(e) => {
                unread.push(format!("{}[{value}]: {}", tag.name, e.message));
                None
            }
        };
        match tag.name {
            "GM" => g.gm = value.to_string(),
            "PC" => g.pc = Some(value.to_string()),
            "DT" => g.dt = Some(value.to_string()),
            "PB" => g.pb = Some(value.to_string()),
            "PW" => g.pw = Some(value.to_string()),
            "RE" => g.re = Some(value.to_string()),
            "RB" => g.rb = Some(value.to_string()),
            "RW" => g.rw = Some(value.to_string()),
            "TI" => g.ti = clock(&mut g.unread_clocks),
            "TB" => g.tb = clock(&mut g.unread_clocks),
            "TW" => g.tw = clock(&mut g.unread_clocks),
            "TY" => {
                let ty = parse_game_type(value).map_err(|msg| {
                    ParseError::new(ErrorKind::Unsupported, msg, text, tag.name_at, tag.end)
                })?;
                if ty.anti {
                    g.variant = g.variant.or(Some(Variant::Anti));
                }
            }
            "VA" => {
                let v = value.trim().parse().map_err(|e: UnknownVariant| {
                    ParseError::new(
                        ErrorKind::Unsupported,
                        e.to_string(),
                        text,
                        tag.value_at,
                        tag.end,
                    )
                })?;
                g.variant = Some(v);
            }
            "DL" => {
                let left = parse_discs_left(value).ok_or_else(|| {
                    let msg = format!("DL[{value}] is not two disc counts (0..32)");
                    ParseError::new(ErrorKind::Unexpected, msg, text, tag.value_at, tag.end)
                })?;
                g.discs_left = Some(left);
            }
            "BO" => bo = Some(parse_bo(value).map_err(|e| e.shifted(tag.value_at))?),
            "B" | "W" => move_tags.push(tag),
            name => g.extra.push((name.to_string(), value.to_string())),
        }
    }
    let end = skip_ws(text, i) + 2;
    g.start = bo.ok_or_else(|| {
        let msg = "GGF record has no BO tag (start position)";
        ParseError::new(ErrorKind::Missing, msg, text, start, end)
    })?;
    let start = g.start_under(Variant::Othello).ok_or_else(|| {
        let msg = "BO (with DL) is not a position of historical reversi";
        ParseError::new(ErrorKind::IllegalMove, msg, text, start, end)
    })?;
    g.moves = replay(text, start, &move_tags)?;
    Ok((g, end))
}

/// A `DL` value: Black's and White's discs left, each 0..=32.
fn parse_discs_left(value: &str) -> Option<[u8; 2]> {
    let mut it = value.split_whitespace().map(|w| w.parse::<u8>().ok());
    let (b, w) = (it.next()??, it.next()??);
    (it.next().is_none() && b <= REVERSI_DISCS && w <= REVERSI_DISCS).then_some([b, w])
}

/// The moves of the move tags, checked from `start`, with omitted forced passes
/// inserted.
fn replay(text: &str, start: Position, tags: &[Tag]) -> Result<Vec<GgfMove>, ParseError> {
    let mut moves = Vec::with_capacity(tags.len());
    let mut pos = start;
    for (k, tag) in tags.iter().enumerate() {
        let illegal =
            |msg: String| ParseError::new(ErrorKind::IllegalMove, msg, text, tag.name_at, tag.end);
        let item = parse_move_item(tag.value).map_err(|e| e.shifted(tag.value_at))?;
        let color = if tag.name == "B" {
            Color::Black
        } else {
            Color::White
        };
        if color != pos.side {
            // Only a forced pass is legal, so only a forced pass is inserted.
            pos = pos.play(Move::Pass).map_err(|_| {
                illegal(format!(
                    "move {} is out of turn: {} is to move",
                    k + 1,
                    pos.side
                ))
            })?;
            moves.push(GgfMove::from(Move::Pass));
        }
        pos = pos
            .play(item.mv)
            .map_err(|e| illegal(format!("'{}' is illegal as move {}: {e}", tag.value, k + 1)))?;
        moves.push(item);
    }
    Ok(moves)
}

/// Reads one GGF record; whitespace may surround it, anything else is an error.
pub fn parse_ggf(text: &str) -> Result<GgfGame, ParseError> {
    let (g, end) = parse_record_at(text, skip_ws(text, 0))?;
    let rest = skip_ws(text, end);
    if rest < text.len() {
        return Err(ParseError::new(
            ErrorKind::TrailingText,
            "unexpected text after the GGF record's ';)'",
            text,
            rest,
            text.len(),
        ));
    }
    Ok(g)
}

/// Reads the first GGF record of `text` (after optional whitespace) and
/// nothing more: whatever follows it, other records or not, is left unread.
pub fn parse_first_ggf(text: &str) -> Result<GgfGame, ParseError> {
    parse_record_at(text, skip_ws(text, 0)).map(|(g, _)| g)
}

/// Reads every GGF record of `text` (separated by optional whitespace, such as
/// one per line). An error carries the line number, its offset counting from the
/// start of that line.
pub fn parse_ggf_records(text: &str) -> Result<Vec<GgfGame>, ParseError> {
    let mut out = Vec::new();
    let mut i = skip_ws(text, 0);
    while i < text.len() {
        let (g, end) = parse_record_at(text, i).map_err(|e| {
            let line_start = text[..e.offset].rfind('\n').map_or(0, |n| n + 1);
            let line = text[..e.offset].matches('\n').count() + 1;
            ParseError {
                offset: e.offset - line_start,
                ..e
            }
            .at_line(line)
        })?;
        out.push(g);
        i = skip_ws(text, end);
    }
    Ok(out)
}

impl FromStr for GgfGame {
    type Err = ParseError;

    /// See [`parse_ggf`].
    fn from_str(text: &str) -> Result<GgfGame, ParseError> {
        parse_ggf(text)
    }
}

impl fmt::Display for GgfGame {
    /// The record in NBoard's layout (see the module documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clean = |v: &str| v.replace(']', ")");
        write!(f, "(;GM[{}]", clean(&self.gm))?;
        let texts = [
            ("PC", &self.pc),
            ("DT", &self.dt),
            ("PB", &self.pb),
            ("PW", &self.pw),
            ("RE", &self.re),
            ("RB", &self.rb),
            ("RW", &self.rw),
        ];
        for (tag, value) in texts {
            if let Some(v) = value {
                write!(f, "{tag}[{}]", clean(v))?;
            }
        }
        for (tag, clock) in [("TI", self.ti), ("TB", self.tb), ("TW", self.tw)] {
            if let Some(c) = clock {
                write!(f, "{tag}[{c}]")?;
            }
        }
        for (tag, v) in &self.extra {
            write!(f, "{tag}[{}]", clean(v))?;
        }
        let side = match self.start.side {
            Color::Black => '*',
            Color::White => 'O',
        };
        if self.variant == Some(Variant::Reversi) {
            write!(f, "VA[reversi]")?;
            if let Some([b, w]) = self.discs_left {
                write!(f, "DL[{b} {w}]")?;
            }
        }
        let ty = if self.variant == Some(Variant::Anti) {
            "8a"
        } else {
            "8"
        };
        write!(
            f,
            "TY[{ty}]BO[8 {} {side}]",
            squares_with(&self.start, '*', 'O', '-')
        )?;
        let mut color = self.start.side;
        for m in &self.moves {
            let tag = if color == Color::Black { 'B' } else { 'W' };
            write!(f, "{tag}[{m}]")?;
            color = color.opposite();
        }
        f.write_str(";)")
    }
}

#[cfg(test)]
mod tests;
