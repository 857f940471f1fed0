//! Transcripts (`f5d6c3`, with passes and separators): any text parses or errs;
//! a parsed game is legal move by move and its written transcript reads back
//! to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::Position;
use mollett::format::{parse_transcript, write_transcript};

fuzz_target!(|text: &str| {
    let Ok(game) = parse_transcript(Position::START, text) else {
        return;
    };
    let positions = game.positions();
    assert_eq!(positions.len(), game.len() + 1);
    let written = write_transcript(&game);
    let again = parse_transcript(Position::START, &written).expect("own transcript reads back");
    assert_eq!(again, game, "{written}");
});
