//! Book files, Mollett's `.mlb` and Edax's `book.dat`: any bytes are read or
//! refused, never a panic; a book read writes back as bytes that read to the
//! same book, and an Othello book goes to Edax's format and back with every
//! position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::book::{edax, file, read};

fuzz_target!(|bytes: &[u8]| {
    let Ok(book) = read(bytes) else { return };
    let written = file::write(&book);
    assert_eq!(file::parse(&written).as_ref(), Ok(&book));
    let date = edax::EdaxDate {
        year: 2026,
        month: 12,
        day: 6,
        hour: 0,
        minute: 0,
        second: 0,
    };
    if let Ok(dat) = edax::write(&book, date) {
        let back = edax::parse(&dat).expect("an export reads back");
        assert_eq!(back.len(), book.len());
    }
});
