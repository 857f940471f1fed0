use super::*;
use crate::board::bitboard::symmetry;
use crate::board::{Color, Move};

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn mv(square: &str, score: i16, depth: u8) -> BookMove {
    BookMove {
        square: sq(square),
        score,
        depth,
        origin: Origin::Searched,
        games: Games::default(),
    }
}

fn after(moves: &[&str]) -> Position {
    moves.iter().fold(Position::START, |p, m| {
        p.play(Move::Play(sq(m))).expect("a legal move")
    })
}

/// A book of the start with all four moves, and of the position after f5
/// with its three moves.
fn small_book() -> Book {
    let mut book = Book::new(Variant::Othello).unwrap();
    book.note = "test".into();
    let start = Position::START;
    book.insert(
        &start.board,
        &[
            mv("d3", -50, 10),
            mv("c4", -50, 10),
            mv("f5", -50, 10),
            mv("e6", -50, 10),
        ],
    );
    let f5 = after(&["f5"]);
    book.insert(
        &f5.board,
        &[mv("f4", 20, 10), mv("d6", 150, 10), mv("f6", -300, 10)],
    );
    book
}

#[test]
fn the_file_round_trips_and_writes_the_same_bytes() {
    let mut book = small_book();
    book.add_games(
        &after(&["f5"]).board,
        sq("d6"),
        Games {
            wins: 3,
            draws: 1,
            losses: 2,
        },
        0,
    );
    let bytes = file::write(&book);
    let back = file::parse(&bytes).expect("its own file parses");
    assert_eq!(back, book);
    assert_eq!(file::write(&back), bytes);
    assert!(file::looks_like_book(&bytes));
}

#[test]
fn the_embedded_book_parses_and_is_othellos() {
    let book = file::parse(EMBEDDED).expect("the embedded book parses");
    assert_eq!(book.rules(), Variant::Othello);
}

#[test]
fn a_position_is_found_in_every_orientation_with_its_moves_turned() {
    let book = small_book();
    // After f5, d3, c4 and e6 are the same position turned: each has the
    // book's three answers, turned with it.
    for first in ["f5", "d3", "c4", "e6"] {
        let pos = after(&[first]);
        let hints = book.hints(&pos).expect("in the book");
        assert_eq!(hints.len(), 3, "{first}");
        assert_eq!(hints[0].score, 150);
        for h in &hints {
            assert!(
                pos.play(Move::Play(h.square)).is_ok(),
                "{first}: {} legal",
                h.square
            );
        }
    }
    let turned = Board::new(
        symmetry(after(&["f5"]).board.player, 5),
        symmetry(after(&["f5"]).board.opponent, 5),
    );
    assert!(book.contains(&turned));
}

#[test]
fn a_stored_move_that_is_not_legal_is_never_offered() {
    let mut book = Book::new(Variant::Othello).unwrap();
    book.insert(
        &Position::START.board,
        &[mv("a1", 6000, 10), mv("f5", 0, 10)],
    );
    let hints = book.hints(&Position::START).unwrap();
    assert_eq!(
        hints.iter().map(|h| h.square).collect::<Vec<_>>(),
        vec![sq("f5")]
    );
    for seed in 0..20 {
        assert_eq!(
            book.choose(&Position::START, 10_000, seed).unwrap().square,
            sq("f5")
        );
    }
    let mut only_illegal = Book::new(Variant::Othello).unwrap();
    only_illegal.insert(&Position::START.board, &[mv("a1", 0, 10)]);
    assert_eq!(only_illegal.hints(&Position::START), None);
    assert_eq!(only_illegal.choose(&Position::START, 0, 0), None);
}

#[test]
fn a_book_is_used_only_under_its_rules() {
    let book = small_book();
    let anti = Position::START.othello_like(Variant::Anti);
    assert_eq!(book.hints(&anti), None);
    assert!(Book::new(Variant::Reversi).is_err());
}

#[test]
fn the_choice_is_seeded_and_stays_within_the_margin() {
    let book = small_book();
    let pos = after(&["f5"]);
    let pick = |margin, seed| book.choose(&pos, margin, seed).unwrap().square;
    for seed in 0..50 {
        assert_eq!(pick(0, seed), sq("d6"), "margin 0 plays the best");
        assert_eq!(
            pick(200, seed),
            pick(200, seed),
            "the same seed, the same move"
        );
        assert_ne!(pick(200, seed), sq("f6"), "f6 is 4.5 discs worse");
    }
    let seen: std::collections::HashSet<_> = (0..50).map(|s| pick(200, s)).collect();
    assert_eq!(
        seen.len(),
        2,
        "both moves within 2 discs are played: {seen:?}"
    );
    // Equal moves at the start: the seed breaks the tie, all four are played.
    let firsts: std::collections::HashSet<_> = (0..50)
        .map(|s| book.choose(&Position::START, 0, s).unwrap().square)
        .collect();
    assert_eq!(firsts.len(), 4);
}

#[test]
fn negamax_brings_moves_into_the_book_to_their_childs_value() {
    let mut book = small_book();
    book.negamax();
    let start = book.hints(&Position::START).unwrap();
    // After f5 the opponent's best is +1.5: every first move is worth −1.5.
    assert!(
        start
            .iter()
            .all(|m| m.score == -150 && m.origin == Origin::Negamaxed)
    );
    let f5 = book.hints(&after(&["f5"])).unwrap();
    assert!(f5.iter().all(|m| m.origin == Origin::Searched));
}

#[test]
fn negamax_scores_game_ends_exactly_and_reads_through_passes() {
    // Black a1, a8, White b1, b8, Black to move. After Black c1 White has no
    // move and passes; Black's c8 then takes White's last disc and ends the
    // game, 64-0 with the empties.
    let black = sq("a1").bit() | sq("a8").bit();
    let white = sq("b1").bit() | sq("b8").bit();
    let pos = Position::from_colors(black, white, Color::Black).unwrap();
    let c1 = pos.play(Move::Play(sq("c1"))).unwrap();
    assert!(c1.must_pass());
    let again = c1.play(Move::Pass).unwrap();
    let mut book = Book::new(Variant::Othello).unwrap();
    book.insert(&pos.board, &[mv("c1", -900, 5), mv("c8", -900, 5)]);
    book.insert(&again.board, &[mv("c8", 0, 5)]);
    book.negamax();
    let end = book.hints(&again).unwrap();
    assert_eq!(
        (end[0].score, end[0].origin, end[0].depth),
        (6400, Origin::Exact, EXACT_DEPTH)
    );
    let hints = book.hints(&pos).unwrap();
    let c1 = hints.iter().find(|h| h.square == sq("c1")).unwrap();
    assert_eq!(
        (c1.score, c1.origin),
        (6400, Origin::Exact),
        "read through the pass"
    );
    assert_eq!(
        book.child_board(&pos.board, sq("c1"))
            .map(|b| book.contains(&b)),
        Some(true)
    );
    let c8 = hints.iter().find(|h| h.square == sq("c8")).unwrap();
    // c8 and its pass lead to the same position turned top to bottom.
    assert_eq!((c8.score, c8.origin), (6400, Origin::Exact), "found turned");
}

#[test]
fn merging_keeps_the_deeper_value_and_adds_the_games() {
    let mut a = small_book();
    let mut b = Book::new(Variant::Othello).unwrap();
    let f5 = after(&["f5"]);
    b.insert(&f5.board, &[mv("f4", 90, 14), mv("d6", 100, 6)]);
    b.add_games(
        &f5.board,
        sq("d6"),
        Games {
            wins: 1,
            draws: 0,
            losses: 0,
        },
        0,
    );
    a.merge(&b).unwrap();
    let hints = a.hints(&f5).unwrap();
    let f4 = hints.iter().find(|h| h.square == sq("f4")).unwrap();
    assert_eq!((f4.score, f4.depth), (90, 14));
    let d6 = hints.iter().find(|h| h.square == sq("d6")).unwrap();
    assert_eq!((d6.score, d6.depth, d6.games.wins), (150, 10, 1));
    let anti = Book::new(Variant::Anti).unwrap();
    assert!(a.merge(&anti).is_err());
}

#[test]
fn damaged_and_foreign_files_are_refused_with_a_reason() {
    let bytes = file::write(&small_book());
    let e = |b: &[u8]| file::parse(b).unwrap_err().to_string();
    assert!(
        e(b"hello").contains("not a Mollett book"),
        "{}",
        e(b"hello")
    );
    assert!(
        e(&bytes[..bytes.len() - 3]).contains("checksum")
            || e(&bytes[..bytes.len() - 3]).contains("ends")
    );
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(e(&flipped).contains("checksum"), "{}", e(&flipped));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(e(&version).contains("version 9"), "{}", e(&version));
    // Every cut is refused, never read as a smaller book.
    for cut in 0..bytes.len() {
        assert!(file::parse(&bytes[..cut]).is_err(), "cut at {cut}");
    }
}

/// A book file of one position whose moves are written as given, with a
/// checksum that passes: what a foreign tool might write.
fn file_with(key: Key, square: u8, flags: u8) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(file::MAGIC);
    out.extend_from_slice(&file::VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&key.player.to_le_bytes());
    out.extend_from_slice(&key.opponent.to_le_bytes());
    out.extend_from_slice(&[1, square, flags, 10, 0, 0]);
    let sum = crate::knowledge::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn impossible_records_are_refused_even_with_a_good_checksum() {
    let start = key::canonical(&Position::START.board).key;
    assert!(file::parse(&file_with(start, 19, 0)).is_ok());
    let e = |b: Vec<u8>| file::parse(&b).unwrap_err().to_string();
    assert!(e(file_with(start, 64, 0)).contains("off the board"));
    assert!(e(file_with(start, 27, 0)).contains("taken"));
    assert!(e(file_with(start, 19, 3)).contains("flags"));
    let turned = Key {
        player: symmetry(start.player, 1),
        opponent: symmetry(start.opponent, 1),
    };
    if turned != start {
        assert!(e(file_with(turned, 19, 0)).contains("canonical"));
    }
    let overlap = Key {
        player: 1,
        opponent: 1,
    };
    assert!(e(file_with(overlap, 19, 0)).contains("overlap"));
}
