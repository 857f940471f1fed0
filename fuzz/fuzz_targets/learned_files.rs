//! The learned evaluation's files and lines, which `--eval-file`,
//! `--regressions-file`, `train`, `probcut`, `pack` and `unpack` read: any
//! bytes are read or refused, never a panic, and what reads writes back as
//! what reads the same (a weights file byte for byte).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::knowledge::mlw;
use mollett::knowledge::mpc::ProbCutFile;
use mollett::tools::learn::pack::{pack_game, unpack_game};
use mollett::tools::learn::probcut::DepthScores;
use mollett::tools::learn::sample::parse_line;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(file) = mlw::parse(bytes) {
        assert_eq!(mlw::write(&file), bytes, "a weights file is canonical");
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(file) = ProbCutFile::parse(text) {
        let written = file.write();
        let again = ProbCutFile::parse(&written).expect("a written regression file reads");
        assert_eq!(again.write(), written);
    }
    for line in text.lines() {
        if let Ok(l) = parse_line(line) {
            assert_eq!(parse_line(&l.to_string()), Ok(l));
        }
        if let Ok(d) = DepthScores::parse(line) {
            assert_eq!(DepthScores::parse(&d.line()), Ok(d));
        }
        if let Ok(lines) = unpack_game(line) {
            let packed = pack_game(&lines).expect("an unpacked game packs");
            assert_eq!(unpack_game(&packed), Ok(lines));
        }
    }
});
