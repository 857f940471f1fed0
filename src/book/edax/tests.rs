use super::*;
use crate::board::Move;
use crate::book::{EMBEDDED, best_of, file};
use crate::rng::Rng;
use crate::rules::Position;

const DATE: EdaxDate = EdaxDate {
    year: 2026,
    month: 12,
    day: 5,
    hour: 19,
    minute: 9,
    second: 42,
};

/// A book that Edax 4.6 wrote: `book new 2 5`, `book deviate 0 0`, `book
/// save` from the start (with a null evaluation, so its midgame scores are 0).
const EDAX_WROTE: &[u8] = include_bytes!("../../../tests/data/edax-4.6-level2-depth5.dat");

fn embedded() -> Book {
    file::parse(EMBEDDED).expect("the embedded book parses")
}

#[test]
fn the_header_is_laid_out_as_edax_writes_it() {
    let bytes = write(&embedded(), DATE).unwrap();
    assert_eq!(
        &bytes[..8],
        b"XADEKOOB",
        "EDAX, BOOK as little-endian words"
    );
    assert_eq!(bytes[8..10], [4, 6]);
    assert_eq!(bytes[10..12], 2026i16.to_le_bytes());
    assert_eq!(bytes[12..18], [12, 5, 19, 9, 42, 0]);
    let count = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
    assert_eq!(count as usize, embedded().len());
    // The header Edax wrote has the same shape: its count is of its positions.
    assert!(looks_like_edax(EDAX_WROTE));
    assert_eq!(EDAX_WROTE[8..10], [4, 6]);
}

#[test]
fn a_book_edax_wrote_reads_with_every_position_and_move_legal() {
    let book = parse(EDAX_WROTE).expect("Edax's own book reads");
    // `book info` in Edax said: 401 positions, 422 links + 322 leaves. None
    // of the 401 is a pass, so all come in; every link becomes a negamaxed
    // move and every leaf a searched one.
    assert_eq!(book.len(), 401);
    let mut origins = [0usize; 3];
    for (k, moves) in book.iter() {
        let board = k.board();
        assert_eq!(canonical(&board).key, *k);
        for m in moves {
            assert!(board.play(m.square).is_some(), "{} is legal", m.square);
            origins[m.origin as usize] += 1;
        }
    }
    assert_eq!(origins, [322, 422, 0]);
    let start = Position::START;
    let hints = book.hints(&start).expect("the start is in Edax's book");
    assert_eq!(
        hints.len(),
        4,
        "with every score 0, deviate linked all four"
    );
    assert!(book.note.contains("Edax 4.6"));
    assert!(book.note.contains("2026-12-05"));
}

#[test]
fn an_export_reads_back_with_every_position_and_best_value() {
    let ours = embedded();
    let back = parse(&write(&ours, DATE).unwrap()).expect("our export reads");
    assert_eq!(back.len(), ours.len());
    for (k, moves) in ours.iter() {
        let theirs = back.moves_of(k).expect("every position comes back");
        let best = best_of(moves).unwrap();
        let best_back = best_of(theirs).unwrap();
        assert_eq!(
            i32::from(best_back.score),
            i32::from(discs(best.score)) * 100,
            "the best value, in discs"
        );
        // The move Edax would play is one whose value rounds to the best's.
        let m = moves.iter().find(|m| m.square == best_back.square).unwrap();
        assert_eq!(discs(m.score), discs(best.score));
        for t in theirs {
            let m = moves.iter().find(|m| m.square == t.square).unwrap();
            if t.origin == Origin::Searched {
                assert_eq!(i32::from(t.score), i32::from(discs(m.score)) * 100);
            }
        }
    }
    // And writing what came back gives the same bytes: nothing drifts.
    assert_eq!(write(&back, DATE).unwrap(), write(&ours, DATE).unwrap());
}

#[test]
fn links_hold_minus_their_childs_value_and_the_value_is_the_best() {
    let bytes = write(&embedded(), DATE).unwrap();
    let mut r = Reader {
        bytes: &bytes,
        at: HEADER_BYTES,
    };
    let mut values = HashMap::new();
    let mut links = Vec::new();
    while r.at < bytes.len() {
        let key = Key {
            player: r.u64("").unwrap(),
            opponent: r.u64("").unwrap(),
        };
        r.take(16, "").unwrap();
        let v = r.take(6, "").unwrap();
        let value = i16::from_le_bytes([v[0], v[1]]);
        let (lower, upper) = (
            i16::from_le_bytes([v[2], v[3]]),
            i16::from_le_bytes([v[4], v[5]]),
        );
        assert!(lower <= value && value <= upper, "bounds hold the value");
        let n = r.u8("").unwrap();
        r.u8("").unwrap();
        let mut best = -SCORE_INF;
        for i in 0..=n {
            let l = link(&mut r).unwrap();
            if i < n {
                links.push((key, l));
            }
            if l.square != NOMOVE {
                best = best.max(i16::from(l.score));
            }
        }
        assert_eq!(value, best, "the value is the best move's");
        values.insert(key, value);
    }
    assert!(links.len() > 30_000);
    for (key, l) in links {
        let child = child_key(&key.board(), l.square);
        assert_eq!(i16::from(l.score), -values[&child]);
    }
}

/// A position where a move leaves the opponent without one, reached by
/// seeded random play.
fn a_pass_ahead() -> (Board, Square) {
    let mut rng = Rng::new(7);
    for _ in 0..10_000 {
        let mut pos = Position::START;
        while !pos.is_game_over() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            if let Move::Play(sq) = mv {
                let next = pos.board.play(sq).unwrap();
                if next.must_pass() && !next.pass().is_game_over() {
                    return (pos.board, sq);
                }
            }
            pos = pos.play(mv).unwrap();
        }
    }
    panic!("no pass in 10,000 random games");
}

#[test]
fn a_pass_between_two_book_positions_is_linked_through_a_pass_position() {
    let (board, sq) = a_pass_ahead();
    let after_pass = board.play(sq).unwrap().pass();
    let mut book = Book::new(Variant::Othello).unwrap();
    let searched = |square: Square, score: i16| BookMove {
        square,
        score,
        depth: 10,
        origin: Origin::Searched,
        games: Games::default(),
    };
    let mut moves: Vec<BookMove> = (0..64u8)
        .filter_map(Square::new)
        .filter(|s| board.play(*s).is_some() && *s != sq)
        .map(|s| searched(s, -900))
        .collect();
    moves.push(searched(sq, 0));
    book.insert(&board, &moves);
    let replies: Vec<BookMove> = (0..64u8)
        .filter_map(Square::new)
        .filter(|s| after_pass.play(*s).is_some())
        .map(|s| searched(s, 400))
        .collect();
    book.insert(&after_pass, &replies);
    book.negamax();
    let bytes = write(&book, DATE).unwrap();
    assert_eq!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()), 3);
    let back = parse(&bytes).unwrap();
    assert_eq!(back.len(), 2, "the pass position is Edax's alone");
    let pos = Position::new(board, crate::board::Color::Black);
    let hints = back.hints(&pos).unwrap();
    assert_eq!(hints[0].square, sq);
    assert_eq!(
        hints[0].score, 400,
        "through the pass, the same side's value"
    );
    assert_eq!(hints[0].origin, Origin::Negamaxed);
}

#[test]
fn anti_books_are_refused() {
    let book = Book::new(Variant::Anti).unwrap();
    let e = write(&book, DATE).unwrap_err().to_string();
    assert!(e.contains("othello"), "{e}");
}

#[test]
fn damaged_and_foreign_files_are_refused_with_a_reason() {
    let e = |b: &[u8]| parse(b).unwrap_err().to_string();
    assert!(e(b"MOLLBOOK....").contains("not an Edax book"));
    assert!(e(&EDAX_WROTE[..30]).contains("ends inside the header"));
    let mut v3 = EDAX_WROTE.to_vec();
    v3[8] = 3;
    assert!(e(&v3).contains("version 3.6"));
    let mut count = EDAX_WROTE.to_vec();
    count[38] = 0x92;
    assert!(e(&count).contains("the header says 402 positions; the file holds 401"));
    // Every cut inside a position is refused, never a panic.
    for cut in HEADER_BYTES + 1..HEADER_BYTES + 200 {
        let shorter = &EDAX_WROTE[..cut];
        assert!(parse(shorter).is_err(), "cut at {cut}");
    }
    // The first position is the start's: its discs overlapping, its link
    // moved to a taken square, its leaf made a copy of the link.
    let first = HEADER_BYTES;
    let mut overlap = EDAX_WROTE.to_vec();
    overlap[first..first + 8].copy_from_slice(&EDAX_WROTE[first + 8..first + 16]);
    assert!(e(&overlap).contains("position 0: the two sides' discs overlap"));
    let links_at = first + 40;
    let n_links = EDAX_WROTE[first + 38] as usize;
    assert!(n_links >= 1);
    let mut taken = EDAX_WROTE.to_vec();
    taken[links_at + 1] = 27; // d4
    assert!(
        e(&taken).contains("d4 is not a legal move there"),
        "{}",
        e(&taken)
    );
    let mut off = EDAX_WROTE.to_vec();
    off[links_at + 1] = 99;
    assert!(e(&off).contains("square 99 is off the board"));
    let mut twice = EDAX_WROTE.to_vec();
    let leaf_at = links_at + 2 * n_links;
    twice[leaf_at + 1] = EDAX_WROTE[links_at + 1];
    assert!(e(&twice).contains("is also a link"), "{}", e(&twice));
}
