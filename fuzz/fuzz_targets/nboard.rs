//! NBoard command lines: any line parses to a command or to an error whose
//! status text is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::protocol::nboard;

fuzz_target!(|line: &str| {
    if let Err(e) = nboard::parse(line) {
        let _ = e.to_string();
    }
});
