//! The match runner's and book builder's small values: any text read as an
//! SPRT (`--sprt`), a shard (`--shard I/N`) or an entrant with `{game}` is
//! refused or gives values in range; a test's ratio and verdict never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::tools::arena::spec::EntrantSpec;
use mollett::tools::arena::sprt::Sprt;
use mollett::tools::arena::stats::Wdl;
use mollett::tools::book::shard::Shard;

fuzz_target!(|data: (&str, u16, u16, u16)| {
    let (text, wins, draws, losses) = data;
    if let Ok(t) = text.parse::<Sprt>() {
        assert!(t.elo0 < t.elo1 && t.alpha > 0.0 && t.beta < 0.5);
        let (low, high) = t.bounds();
        assert!(low.is_finite() && high.is_finite() && low < 0.0 && high > 0.0);
        let wdl = Wdl {
            wins: wins.into(),
            draws: draws.into(),
            losses: losses.into(),
        };
        let llr = t.llr(&wdl);
        assert!(llr.is_finite(), "{t:?} {wdl:?}");
        let _ = (t.verdict(llr), t.describe(&wdl));
    }
    if let Ok(s) = text.parse::<Shard>() {
        assert!(1 <= s.index && s.index <= s.count);
        assert_eq!(s.to_string().parse::<Shard>(), Ok(s));
    }
    if let Ok(e) = text.parse::<EntrantSpec>() {
        let g = e.for_game(usize::from(wins));
        assert_eq!(g.name, e.name);
        assert_eq!(g.command.len(), e.command.len());
    }
});
