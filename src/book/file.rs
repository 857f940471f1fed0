//! The `.mlb` book file: versioned and checksummed like the weights, positions
//! in key order so that one book always writes the same bytes.
//!
//! Layout (integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `MOLLBOOK` |
//! | 4 | format version ([`VERSION`]) |
//! | 4 | rules: 0 Othello, 1 Anti-Reversi |
//! | 4 | length `N` of the note |
//! | N | the note: UTF-8, how the book was made |
//! | 4 | positions `P` |
//! | P × | a position: 8 mover's discs, 8 opponent's discs (the canonical orientation, [`super::key`]), 1 move count `M`, then `M` moves |
//! | M × | a move: 1 square (0..64, a1 = 0, h8 = 63), 1 flags, 1 depth, 2 score (`i16` centi-discs for the side to move); with flag bit 2, 3 × 4 wins, draws, losses |
//! | 8 | FNV-1a 64 ([`fnv1a`]) of every byte before it |
//!
//! Flags: bits 0–1 the [`Origin`] (0 searched, 1 negamaxed, 2 exact), bit 2
//! games follow. A file that is short, long, of another version, or whose
//! checksum fails, whose discs overlap, whose squares are off the board or
//! occupied, or whose position is not in its canonical orientation is refused
//! with a [`BookError`] naming what is wrong.

use super::key::{Key, canonical};
use super::{Book, BookError, BookMove, Games, Origin};
use crate::board::{Board, Square};
use crate::knowledge::fnv1a;
use crate::rules::Variant;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"MOLLBOOK";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// Flag bit: the move's learned games follow.
const HAS_GAMES: u8 = 4;

/// The bytes of `book`.
pub fn write(book: &Book) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let rules: u32 = match book.rules {
        Variant::Anti => 1,
        _ => 0,
    };
    out.extend_from_slice(&rules.to_le_bytes());
    out.extend_from_slice(&(book.note.len() as u32).to_le_bytes());
    out.extend_from_slice(book.note.as_bytes());
    out.extend_from_slice(&(book.nodes.len() as u32).to_le_bytes());
    let mut keys: Vec<&Key> = book.nodes.keys().collect();
    keys.sort_unstable();
    for k in keys {
        let moves = &book.nodes[k];
        out.extend_from_slice(&k.player.to_le_bytes());
        out.extend_from_slice(&k.opponent.to_le_bytes());
        out.push(moves.len() as u8);
        for m in moves {
            let has_games = m.games != Games::default();
            let origin = match m.origin {
                Origin::Searched => 0,
                Origin::Negamaxed => 1,
                Origin::Exact => 2,
            };
            out.push(m.square.index());
            out.push(origin | if has_games { HAS_GAMES } else { 0 });
            out.push(m.depth);
            out.extend_from_slice(&m.score.to_le_bytes());
            if has_games {
                for n in [m.games.wins, m.games.draws, m.games.losses] {
                    out.extend_from_slice(&n.to_le_bytes());
                }
            }
        }
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Whether `head` (a file's first bytes) starts like a book file.
pub fn looks_like_book(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// A cursor over a file's bytes that reports a short file.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], BookError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(BookError(format!("the file ends inside {what}")));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub(super) fn u8(&mut self, what: &str) -> Result<u8, BookError> {
        Ok(self.take(1, what)?[0])
    }

    pub(super) fn u32(&mut self, what: &str) -> Result<u32, BookError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    pub(super) fn u64(&mut self, what: &str) -> Result<u64, BookError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

/// Reads a book file; every refusal says what is wrong.
pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
    if !looks_like_book(bytes) {
        return Err(BookError(
            "not a Mollett book file (no MOLLBOOK header)".into(),
        ));
    }
    if bytes.len() < MAGIC.len() + 8 {
        return Err(BookError("the file is too short".into()));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut r = Reader { bytes: body, at: 0 };
    r.take(MAGIC.len(), "the header")?;
    let version = r.u32("the version")?;
    if version != VERSION {
        return Err(BookError(format!(
            "format version {version}; this build reads version {VERSION}"
        )));
    }
    if u64::from_le_bytes(sum.try_into().expect("8 bytes")) != fnv1a(body) {
        return Err(BookError("the checksum fails: the file is damaged".into()));
    }
    let rules = match r.u32("the rules")? {
        0 => Variant::Othello,
        1 => Variant::Anti,
        n => return Err(BookError(format!("unknown rules {n}"))),
    };
    let note_len = r.u32("the note's length")? as usize;
    let note = std::str::from_utf8(r.take(note_len, "the note")?)
        .map_err(|_| BookError("the note is not UTF-8".into()))?
        .to_string();
    let count = r.u32("the position count")?;
    let mut book = Book::new(rules)?;
    book.note = note;
    for i in 0..count {
        let (key, moves) =
            position(&mut r).map_err(|e| BookError(format!("position {i}: {}", e.0)))?;
        if book.nodes.insert(key, moves).is_some() {
            return Err(BookError(format!("position {i} is stored twice")));
        }
    }
    if r.at != body.len() {
        return Err(BookError(format!(
            "{} bytes after the last position",
            body.len() - r.at
        )));
    }
    Ok(book)
}

/// One position record.
fn position(r: &mut Reader<'_>) -> Result<(Key, Vec<BookMove>), BookError> {
    let key = Key {
        player: r.u64("the discs")?,
        opponent: r.u64("the discs")?,
    };
    if key.player & key.opponent != 0 {
        return Err(BookError("the two sides' discs overlap".into()));
    }
    if canonical(&Board::new(key.player, key.opponent)).key != key {
        return Err(BookError("not stored in its canonical orientation".into()));
    }
    let n = r.u8("the move count")?;
    let mut moves = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let sq = r.u8("a move")?;
        let Some(square) = Square::new(sq) else {
            return Err(BookError(format!("square {sq} is off the board")));
        };
        if (key.player | key.opponent) & square.bit() != 0 {
            return Err(BookError(format!("a move on {square}, which is taken")));
        }
        let flags = r.u8("a move")?;
        let origin = match flags & 3 {
            0 => Origin::Searched,
            1 => Origin::Negamaxed,
            2 => Origin::Exact,
            _ => return Err(BookError(format!("unknown flags {flags}"))),
        };
        if flags & !(3 | HAS_GAMES) != 0 {
            return Err(BookError(format!("unknown flags {flags}")));
        }
        let depth = r.u8("a move")?;
        let score = i16::from_le_bytes(r.take(2, "a move")?.try_into().expect("2 bytes"));
        let games = if flags & HAS_GAMES != 0 {
            Games {
                wins: r.u32("a move's games")?,
                draws: r.u32("a move's games")?,
                losses: r.u32("a move's games")?,
            }
        } else {
            Games::default()
        };
        if moves.iter().any(|m: &BookMove| m.square == square) {
            return Err(BookError(format!("the move {square} is stored twice")));
        }
        moves.push(BookMove {
            square,
            score,
            depth,
            origin,
            games,
        });
    }
    Ok((key, moves))
}
