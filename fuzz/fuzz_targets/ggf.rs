//! GGF records, record lists, move items and clocks: any text parses or errs;
//! a parsed record that replays writes back to a record with the same start and
//! moves, which replays to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::rules::Variant;
use mollett::format::{parse_clock, parse_ggf, parse_ggf_records, parse_move_item};

fuzz_target!(|text: &str| {
    let _ = parse_ggf_records(text);
    let _ = parse_move_item(text);
    if let Ok(clock) = parse_clock(text) {
        let again = parse_clock(&clock.to_string()).expect("own clock reads back");
        assert_eq!(again.to_string(), clock.to_string());
    }
    let Ok(record) = parse_ggf(text) else {
        return;
    };
    let written = record.to_string();
    let again = parse_ggf(&written).expect("own record reads back");
    assert_eq!(again.start, record.start, "{written}");
    let squares = |r: &mollett::format::GgfGame| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(squares(&again), squares(&record), "{written}");
    if let Ok(game) = record.to_game(Variant::Othello) {
        assert_eq!(again.to_game(Variant::Othello).ok(), Some(game));
    }
});
