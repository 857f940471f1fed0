//! Edax's opening book file (the `book.dat` of Edax 4.x), read and written so
//! that books pass both ways between Mollett and Edax.
//!
//! Layout, integers little-endian as Edax writes them on x86-64:
//!
//! | bytes | field |
//! |---|---|
//! | 4 + 4 | magic: `EDAX` (0x45444158) then `BOOK` (0x424f4f4b) as `u32` |
//! | 1 + 1 | version 4, release (6 for Edax 4.6) |
//! | 8 | date: `i16` year, then month, day, hour, minute, second, one byte of padding |
//! | 20 | options (`i32`): level, least empties, midgame error, endcut error, verbosity |
//! | 4 | positions `P` (`i32`) |
//! | P × | a position: 8 mover's discs, 8 opponent's discs (Edax's unique orientation), `u32` wins, draws, losses and open lines below it, `i16` value, lower and upper bound (discs), 1 link count `L`, 1 level; `L` links; 1 leaf |
//! | 2 | a link or the leaf: `i8` score in discs for the side to move, 1 square (0..64, a1 = 0; 64 pass, 65 none) |
//!
//! A link is a move to a position that is in the book; the leaf is the best of
//! the other moves, searched at the position's level. A position whose side
//! to move must pass holds one link, the pass.
//!
//! Mollett's book keeps every move's value, Edax's the links and one leaf, so
//! an export keeps, of the moves that leave the book, only the best. Edax's
//! unique orientation is the one with the smallest (mover's, opponent's)
//! pair, which is [`super::key::canonical`]; its squares are numbered as
//! Mollett's. Edax books are of Othello only.

use super::file::Reader;
use super::key::{Key, canonical};
use super::{Book, BookError, BookMove, Games, Origin, clamp_score};
use crate::board::{Board, Square};
use crate::rules::Variant;
use std::collections::{BTreeMap, HashMap};

/// The first word: "EDAX".
pub const EDAX_MAGIC: u32 = 0x4544_4158;
/// The second word: "BOOK".
pub const BOOK_MAGIC: u32 = 0x424f_4f4b;
/// The format's version (Edax 4.x).
pub const VERSION: u8 = 4;
/// The release written (Edax 4.6's); any release of version 4 is read.
pub const RELEASE: u8 = 6;
/// Edax's square for a pass.
const PASS: u8 = 64;
/// Edax's square for "no move" (a position with no leaf).
const NOMOVE: u8 = 65;
/// Edax's "no score": the leaf score of a position with no leaf.
const SCORE_INF: i16 = 127;
/// The header's bytes before the first position.
const HEADER_BYTES: usize = 42;
/// The bounds written around a searched leaf's value, in discs: Edax's default
/// midgame error (`book new` sets 2), which its own negamax uses the same way.
const MIDGAME_ERROR: i16 = 2;
/// Edax's default endcut error, written into the options.
const ENDCUT_ERROR: i32 = 1;

/// The date in an Edax book's header (when it was written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdaxDate {
    /// The year, e.g. 2026.
    pub year: i16,
    /// Month 1..=12, day 1..=31, hour, minute, second.
    pub month: u8,
    /// Day of the month.
    pub day: u8,
    /// Hour 0..24.
    pub hour: u8,
    /// Minute 0..60.
    pub minute: u8,
    /// Second 0..60.
    pub second: u8,
}

/// Whether `head` (a file's first bytes) starts like an Edax book.
pub fn looks_like_edax(head: &[u8]) -> bool {
    head.len() >= 8
        && head[..4] == EDAX_MAGIC.to_le_bytes()
        && head[4..8] == BOOK_MAGIC.to_le_bytes()
}

/// A link or a leaf: a square (or [`PASS`], [`NOMOVE`]) and its score in discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    square: u8,
    score: i8,
}

/// One position as Edax stores it.
#[derive(Clone, Debug)]
struct Record {
    key: Key,
    links: Vec<Link>,
    leaf: Link,
    leaf_exact: bool,
    level: u8,
}

/// A position's value, bounds and counts below it, as Edax's negamax sets them.
#[derive(Clone, Copy, Debug, Default)]
struct Settled {
    value: i16,
    lower: i16,
    upper: i16,
    /// Solved leaves below won, drawn, lost (for the side to move), and open lines.
    counts: [u64; 4],
}

/// Reads an Edax book: an Othello book whose links come out negamaxed from
/// the positions they lead to and whose leaves come out searched at their
/// position's level. A position whose side must pass is left out (Mollett's
/// book goes through the pass). Every refusal says what is wrong.
pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
    if !looks_like_edax(bytes) {
        return Err(BookError("not an Edax book (no EDAX BOOK header)".into()));
    }
    let mut r = Reader { bytes, at: 8 };
    let version = r.u8("the header")?;
    let release = r.u8("the header")?;
    if version != VERSION {
        return Err(BookError(format!(
            "Edax book version {version}.{release}; this build reads version {VERSION}.x"
        )));
    }
    let date = r.take(8, "the header")?;
    let year = i16::from_le_bytes([date[0], date[1]]);
    let level = r.u32("the header")? as i32;
    r.take(16, "the header")?;
    let count = r.u32("the header")? as i32;
    if count < 0 {
        return Err(BookError(format!("a position count of {count}")));
    }
    let mut book = Book::new(Variant::Othello)?;
    book.note = format!(
        "imported from an Edax {version}.{release} book of {year}-{:02}-{:02}, level {level}",
        date[2], date[3]
    );
    let mut n = 0i64;
    while r.at < bytes.len() {
        let rec = record(&mut r).map_err(|e| BookError(format!("position {n}: {}", e.0)))?;
        if let Some(moves) = moves_of(&rec) {
            if book.contains(&rec.key.board()) {
                return Err(BookError(format!("position {n} is stored twice")));
            }
            book.insert(&rec.key.board(), &moves);
        }
        n += 1;
    }
    if n != i64::from(count) {
        return Err(BookError(format!(
            "the header says {count} positions; the file holds {n}"
        )));
    }
    book.negamax();
    Ok(book)
}

/// One position record, checked against the rules.
fn record(r: &mut Reader<'_>) -> Result<Record, BookError> {
    let player = r.u64("the discs")?;
    let opponent = r.u64("the discs")?;
    if player & opponent != 0 {
        return Err(BookError("the two sides' discs overlap".into()));
    }
    r.take(16 + 6, "the counts and bounds")?;
    let n_links = r.u8("the link count")?;
    let level = r.u8("the level")?;
    let board = Board::new(player, opponent);
    let mut links = Vec::with_capacity(usize::from(n_links));
    for _ in 0..n_links {
        let link = link(r)?;
        if link.square == PASS {
            if n_links != 1 || !board.must_pass() {
                return Err(BookError("a pass where the side to move has a move".into()));
            }
        } else {
            legal(&board, link.square)?;
        }
        if links.iter().any(|l: &Link| l.square == link.square) {
            return Err(BookError(format!("link {} is stored twice", link.square)));
        }
        links.push(link);
    }
    let leaf = link(r)?;
    match leaf.square {
        NOMOVE => {}
        PASS if links.is_empty() && board.must_pass() => {}
        sq => {
            legal(&board, sq)?;
            if links.iter().any(|l| l.square == sq) {
                return Err(BookError(format!("the leaf {sq} is also a link")));
            }
        }
    }
    Ok(Record {
        key: Key { player, opponent },
        links,
        leaf,
        leaf_exact: false,
        level,
    })
}

/// A link or leaf: score, then square.
fn link(r: &mut Reader<'_>) -> Result<Link, BookError> {
    let score = r.u8("a move")? as i8;
    let square = r.u8("a move")?;
    if square > NOMOVE {
        return Err(BookError(format!("square {square} is off the board")));
    }
    Ok(Link { square, score })
}

/// Checks that `sq` is a legal move of `board`.
fn legal(board: &Board, sq: u8) -> Result<(), BookError> {
    match Square::new(sq) {
        Some(s) if board.play(s).is_some() => Ok(()),
        Some(s) => Err(BookError(format!("{s} is not a legal move there"))),
        None => Err(BookError(format!("square {sq} is not a move there"))),
    }
}

/// The Mollett moves of an Edax position: links as searched at its level (the
/// negamax after loading turns those whose child is in the book), the leaf
/// when there is one; `None` for a position whose side must pass.
fn moves_of(rec: &Record) -> Option<Vec<BookMove>> {
    let board = rec.key.board();
    if board.moves() == 0 {
        return None;
    }
    let leaf =
        (rec.leaf.square < PASS && i16::from(rec.leaf.score) > -SCORE_INF).then_some(rec.leaf);
    let moves: Vec<BookMove> = rec
        .links
        .iter()
        .chain(leaf.iter())
        .filter_map(|l| {
            Some(BookMove {
                square: Square::new(l.square)?,
                score: clamp_score(i32::from(l.score) * 100),
                depth: rec.level,
                origin: Origin::Searched,
                games: Games::default(),
            })
        })
        .collect();
    Some(moves)
}

/// A value in centi-discs as Edax's discs (nearest, halves away from zero).
fn discs(centi: i16) -> i8 {
    (f64::from(centi) / 100.0).round().clamp(-64.0, 64.0) as i8
}

/// The bytes of `book` as an Edax book dated `date`: per position, the moves
/// that lead to a position of the book (through a forced pass too) as links,
/// the best of the others as the leaf; values, bounds and counts negamaxed as
/// Edax does. Only Othello books can be written.
pub fn write(book: &Book, date: EdaxDate) -> Result<Vec<u8>, BookError> {
    if book.rules() != Variant::Othello {
        return Err(BookError(format!(
            "Edax books are of othello; this book is of {}",
            book.rules().name()
        )));
    }
    let mut records: BTreeMap<Key, Record> = BTreeMap::new();
    for (key, moves) in book.iter() {
        let board = key.board();
        if board.moves() == 0 {
            continue;
        }
        let mut links = Vec::new();
        let mut leaf: Option<&BookMove> = None;
        for m in moves.iter().filter(|m| board.moves() & m.square.bit() != 0) {
            let next = board.play(m.square).expect("a legal move plays");
            let linked = if next.must_pass() {
                let through = book.contains(&next.pass());
                if through {
                    records.entry(canonical(&next).key).or_insert(Record {
                        key: canonical(&next).key,
                        links: vec![Link {
                            square: PASS,
                            score: -discs(m.score),
                        }],
                        leaf: Link {
                            square: NOMOVE,
                            score: -SCORE_INF as i8,
                        },
                        leaf_exact: false,
                        level: m.depth.min(60),
                    });
                }
                through
            } else {
                !next.is_game_over() && book.contains(&next)
            };
            if linked {
                links.push(Link {
                    square: m.square.index(),
                    score: discs(m.score),
                });
            } else if leaf.is_none_or(|l| (m.score, l.square) > (l.score, m.square)) {
                leaf = Some(m);
            }
        }
        let level = moves.iter().map(|m| m.depth).max().unwrap_or(0).min(60);
        records.insert(
            *key,
            Record {
                key: *key,
                links,
                leaf: leaf.map_or(
                    Link {
                        square: NOMOVE,
                        score: -SCORE_INF as i8,
                    },
                    |m| Link {
                        square: m.square.index(),
                        score: discs(m.score),
                    },
                ),
                leaf_exact: leaf.is_some_and(|m| m.origin == Origin::Exact),
                level,
            },
        );
    }
    let mut settled = HashMap::new();
    let keys: Vec<Key> = records.keys().copied().collect();
    for k in &keys {
        settle(*k, &records, &mut settled);
    }
    let mut out = header(&records, date);
    for (k, rec) in &records {
        let s = settled[k];
        out.extend_from_slice(&k.player.to_le_bytes());
        out.extend_from_slice(&k.opponent.to_le_bytes());
        for c in s.counts {
            out.extend_from_slice(&(c.min(u64::from(u32::MAX)) as u32).to_le_bytes());
        }
        for v in [s.value, s.lower, s.upper] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(rec.links.len() as u8);
        out.push(rec.level);
        for l in &rec.links {
            let child = settled[&child_key(&k.board(), l.square)];
            out.push((-child.value) as i8 as u8);
            out.push(l.square);
        }
        out.push(rec.leaf.score as u8);
        out.push(rec.leaf.square);
    }
    Ok(out)
}

/// The header of a book of `records`.
fn header(records: &BTreeMap<Key, Record>, date: EdaxDate) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES);
    out.extend_from_slice(&EDAX_MAGIC.to_le_bytes());
    out.extend_from_slice(&BOOK_MAGIC.to_le_bytes());
    out.extend_from_slice(&[VERSION, RELEASE]);
    out.extend_from_slice(&date.year.to_le_bytes());
    out.extend_from_slice(&[date.month, date.day, date.hour, date.minute, date.second, 0]);
    let level = records.values().map(|r| r.level).max().unwrap_or(0);
    let least_empties = records
        .keys()
        .map(|k| k.board().empties())
        .min()
        .unwrap_or(60);
    for option in [
        i32::from(level),
        least_empties as i32,
        i32::from(MIDGAME_ERROR),
        ENDCUT_ERROR,
        0,
    ] {
        out.extend_from_slice(&option.to_le_bytes());
    }
    out.extend_from_slice(&(records.len() as i32).to_le_bytes());
    debug_assert_eq!(out.len(), HEADER_BYTES);
    out
}

/// Negamaxes `key` as Edax does: the value is the best of the leaf and the
/// links, each link set to minus its child's value; bounds and counts come up
/// from the children. Children are settled first (depth at most 61).
fn settle(key: Key, records: &BTreeMap<Key, Record>, done: &mut HashMap<Key, Settled>) -> Settled {
    if let Some(s) = done.get(&key) {
        return *s;
    }
    let rec = &records[&key];
    let inf = -SCORE_INF;
    let mut s = Settled {
        value: inf,
        lower: inf,
        upper: inf,
        counts: [0; 4],
    };
    if rec.leaf.square != NOMOVE {
        s.value = i16::from(rec.leaf.score);
        if rec.leaf_exact {
            s.lower = s.value;
            s.upper = s.value;
            s.counts[match s.value.signum() {
                1 => 0,
                0 => 1,
                _ => 2,
            }] += 1;
        } else {
            s.lower = s.value - MIDGAME_ERROR;
            s.upper = s.value + MIDGAME_ERROR;
        }
        s.counts[3] += 1;
    }
    let board = key.board();
    for l in &rec.links {
        let c = settle(child_key(&board, l.square), records, done);
        s.value = s.value.max(-c.value);
        s.lower = s.lower.max(-c.upper);
        s.upper = s.upper.max(-c.lower);
        s.counts[0] += c.counts[2];
        s.counts[1] += c.counts[1];
        s.counts[2] += c.counts[0];
        s.counts[3] += c.counts[3];
    }
    done.insert(key, s);
    s
}

/// The position a link of `board` leads to (a pass for [`PASS`]).
fn child_key(board: &Board, square: u8) -> Key {
    let next = match Square::new(square) {
        Some(sq) => board.play(sq).expect("links are legal moves"),
        None => board.pass(),
    };
    canonical(&next).key
}

#[cfg(test)]
mod tests;
