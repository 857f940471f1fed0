//! Board strings (64 squares then the side to move): any text parses or errs;
//! a parsed position has disjoint colours and writes back to a string that
//! reads to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::Position;
use mollett::format::{parse_board_prefix, write_board_string};

fuzz_target!(|text: &str| {
    let whole = text.parse::<Position>();
    if let Ok((pos, used)) = parse_board_prefix(text) {
        assert!(used <= text.len() && text.is_char_boundary(used));
        assert_eq!(pos.black() & pos.white(), 0);
        let written = write_board_string(&pos);
        assert_eq!(written.parse::<Position>(), Ok(pos), "{written}");
    }
    if let Ok(pos) = whole {
        assert_eq!(write_board_string(&pos).parse::<Position>(), Ok(pos));
    }
});
