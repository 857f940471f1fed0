//! The whole command loop over arbitrary bytes, in each dialect or with the
//! dialect chosen by the input: no panic (libFuzzer's hook aborts even on a
//! panic the loop would catch), every job ends, and the output is whole lines
//! of UTF-8 with no control character but tab.
//!
//! Lines that resize the table, change the thread count or load a file are
//! dropped: they would legitimately allocate gigabytes, start a thousand
//! threads or block on a device; their parsing is fuzzed by the `console` and
//! `gtp` targets. A stopper thread cuts every job to a few milliseconds, so a
//! level-60 solve in the input is no hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::engine::Settings;
use mollett::protocol::{Dialect, ScriptOptions, run_bytes};
use std::time::Duration;

/// Words that make a line too costly for a fuzzer (see above).
const DROPPED: [&[u8]; 3] = [b"hash", b"thread", b"loadsgf"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, data)) = data.split_first() else {
        return;
    };
    let forced = [
        None,
        Some(Dialect::Console),
        Some(Dialect::NBoard),
        Some(Dialect::Gtp),
    ][usize::from(selector % 4)];
    let mut input = Vec::with_capacity(data.len());
    for line in data.split(|&b| b == b'\n') {
        let lower = line.to_ascii_lowercase();
        if !DROPPED
            .iter()
            .any(|w| lower.windows(w.len()).any(|x| x == *w))
        {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
    }
    let options = ScriptOptions {
        settings: Settings {
            level: "1".parse().expect("level 1"),
            threads: 1,
            hash_mb: 1,
            ..Settings::default()
        },
        forced,
        stop_every: Some(Duration::from_millis(5)),
    };
    let out = run_bytes(options, &input)
        .expect("an engine of 1 MB")
        .output;
    let text = std::str::from_utf8(&out).expect("UTF-8 output");
    assert!(out.is_empty() || text.ends_with('\n'), "{text:?}");
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "{text:?}"
    );
});
