//! Time values: any text read as seconds, a GGF clock or a GTP time command
//! either is refused or gives values in range; the budgets built from them and
//! from any move times never panic and give deadlines that fit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mollett::engine::TimeLeft;
use mollett::engine::time::ggf_clock;
use mollett::format::{GgfGame, GgfMove, Seconds, parse_clock};
use mollett::protocol::gtp::{Command, parse};
use mollett::{Move, Position};
use std::time::Instant;

fuzz_target!(|text: &str| {
    let in_range = |s: Seconds| (0.0..=Seconds::MAX_SECS).contains(&s.get());
    if let Ok(s) = text.parse::<Seconds>() {
        assert!(in_range(s));
        let _ = Instant::now() + s.duration() * 3;
    }
    if let Ok(c) = parse_clock(text) {
        assert!(in_range(c.main) && in_range(c.increment) && in_range(c.grace));
        let mut record = GgfGame::new(Position::START);
        record.ti = Some(c);
        // Many moves earning the increment, with times from the text.
        let time = text.len() as f64 * 1e3;
        record.moves = (0..60)
            .map(|_| GgfMove {
                mv: Move::Pass,
                eval: None,
                time: Some(time),
            })
            .collect();
        for side in [mollett::Color::Black, mollett::Color::White] {
            let t = ggf_clock(&record, side).expect("a clock").budget(30);
            assert!(t.soft <= t.hard);
            let _ = Instant::now() + t.hard;
        }
    }
    for line in [format!("time_settings {text}"), format!("time_left b {text}")] {
        if let Some(Ok(cmd)) = parse(&line).map(|r| r.command) {
            match cmd {
                Command::TimeSettings(main, period, stones) => {
                    assert!(in_range(main) && in_range(period));
                    let t = TimeLeft::Byoyomi {
                        left: period.duration(),
                        stones,
                    }
                    .budget(30);
                    let _ = Instant::now() + t.hard;
                }
                Command::TimeLeft(_, left, _) => assert!(in_range(left)),
                _ => {}
            }
        }
    }
});
