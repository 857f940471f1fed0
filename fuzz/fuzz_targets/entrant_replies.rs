//! The match runner's reading of an entrant's output: any bytes split into
//! lines of at most 64 KiB (a longer one flagged, keeping at most 200
//! characters), every line read as a GTP answer and as an NBoard reply without
//! a panic, and every quote of a line short.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::tools::arena::client::{Reading, parse_gtp_answer, parse_nboard_reply};
use mollett::tools::arena::process::{MAX_REPLY_LINE, QUOTE_CHARS, Reply, quote, read_replies};

fuzz_target!(|bytes: &[u8]| {
    let (tx, rx) = crossbeam_channel::unbounded();
    read_replies(bytes, &tx);
    drop(tx);
    for reply in rx {
        let line = match reply {
            Reply::Line(l) => {
                assert!(l.len() <= 3 * MAX_REPLY_LINE, "a line within the bound");
                l
            }
            Reply::TooLong(start) => {
                assert!(start.chars().count() <= QUOTE_CHARS);
                start
            }
        };
        if let Reading::Answer(Ok(text) | Err(text)) = parse_gtp_answer(&line) {
            assert!(text.len() <= line.len());
        }
        if let Reading::Answer(m) = parse_nboard_reply(&line) {
            let _ = m.to_string();
        }
        // At most 200 characters shown, each escape at most 10 long, plus the
        // notes.
        assert!(quote(&line).chars().count() <= QUOTE_CHARS + 10 + 80);
    }
});
