//! Console command lines: any line parses to a command or to a one-line error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::protocol::console;

fuzz_target!(|line: &str| {
    if let Err(e) = console::parse(line) {
        assert!(!e.is_empty());
    }
    let word = line.split_whitespace().next();
    let _ = console::help(word);
});
