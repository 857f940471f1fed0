//! OBF files and lines: any text parses or errs, with a line number inside the
//! file; a parsed entry prints as a line that reads back to the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::format::{parse_obf, parse_obf_line};

fuzz_target!(|text: &str| {
    if let Ok(entries) = parse_obf(text) {
        let lines = text.lines().count();
        for (line, entry) in entries {
            assert!((1..=lines).contains(&line), "line {line} of {lines}");
            let written = entry.to_string();
            assert_eq!(parse_obf_line(&written), Ok(entry), "{written}");
        }
    }
    if let Ok(entry) = parse_obf_line(text) {
        let written = entry.to_string();
        assert_eq!(parse_obf_line(&written), Ok(entry), "{written}");
    }
});
