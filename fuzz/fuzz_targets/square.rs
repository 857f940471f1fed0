//! Squares and moves: any text parses or errs; what parses prints back to
//! itself (in lower case) and parses again to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::{Move, Square};

fuzz_target!(|text: &str| {
    if let Ok(sq) = text.parse::<Square>() {
        assert_eq!(sq.to_string(), text.to_ascii_lowercase());
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
    }
    if let Ok(mv) = text.parse::<Move>() {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        assert_eq!(mv.upper().parse::<Move>(), Ok(mv));
    }
});
