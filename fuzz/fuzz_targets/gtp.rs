//! GTP command lines: any line parses to a request or to nothing (a blank or
//! comment line); the framing of every response is `=id`/`?id`, then a blank
//! line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::protocol::gtp;

fuzz_target!(|line: &str| {
    let clean = gtp::preprocess(line);
    assert!(!clean.contains('#') && !clean.chars().any(|c| c.is_control()));
    if let Some(req) = gtp::parse(line) {
        let id = req.id.as_deref();
        let answer = match &req.command {
            Ok(_) => Ok(String::new()),
            Err(e) => Err(e.to_string()),
        };
        let text = gtp::format_response(id, &answer);
        assert!(text.ends_with("\n\n"), "{text:?}");
        assert!(text.starts_with('=') || text.starts_with('?'), "{text:?}");
    }
});
