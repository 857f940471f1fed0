//! The facade: jobs, events, stops, busy refusals and the panic policy.

use super::*;
use crate::format::parse_transcript;
use crate::rules::Othello;
use crate::search::SearchRequest;
use std::time::Instant;

fn engine(level: &str) -> Engine {
    engine_at(level.parse().unwrap())
}

fn engine_at(level: Level) -> Engine {
    Engine::new(Settings {
        level,
        threads: 1,
        hash_mb: 2,
        ..Settings::default()
    })
    .unwrap()
}

fn finished(events: &[Event]) -> &Finished {
    match events.last() {
        Some(Event::Finished(f)) => f,
        other => panic!("expected Finished last, got {other:?}"),
    }
}

#[test]
fn go_reports_iterations_then_a_legal_move() {
    let mut e = engine("4");
    let id = e.start(Job::Go { clock: None }).unwrap();
    assert!(e.is_busy());
    assert_eq!(e.start(Job::Analyze), Err(EngineError::Busy));
    assert_eq!(e.set_hash(4), Err(EngineError::Busy));
    let events = e.wait();
    assert!(!e.is_busy());
    assert!(events.iter().all(|ev| ev.job() == id));
    let iterations = events
        .iter()
        .filter(|ev| matches!(ev, Event::Iteration { .. }))
        .count();
    assert_eq!(iterations, 4);
    let f = finished(&events);
    let best = f.result.as_ref().and_then(|r| r.best).unwrap();
    assert!(Position::START.legal_moves().contains(&best));
    // The game is not changed by a job.
    assert!(e.game().is_empty());
}

#[test]
fn stop_ends_a_long_job_and_the_engine_stays_usable() {
    let mut e = engine("60");
    e.start(Job::Solve { wld: false }).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    let t = Instant::now();
    e.stop();
    let events = e.wait();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert!(finished(&events).stopped);
    e.set_level("2".parse().unwrap());
    e.start(Job::Go { clock: None }).unwrap();
    let events = e.wait();
    assert!(!finished(&events).stopped);
}

#[test]
fn a_stopped_job_on_two_threads_ends_with_its_answer_and_frees_the_table() {
    let mut e = engine("60");
    e.set_threads(2).unwrap();
    for _ in 0..3 {
        e.start(Job::Solve { wld: false }).unwrap();
        std::thread::sleep(Duration::from_millis(30));
        e.stop();
        let events = e.wait();
        let f = finished(&events);
        assert!(f.stopped);
        let best = f.result.as_ref().and_then(|r| r.best).unwrap();
        assert!(Position::START.legal_moves().contains(&best));
        // Nothing follows the last event, not even from a thread that was
        // still unwinding when the answer went.
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(
            e.events().try_recv(),
            Err(crossbeam_channel::TryRecvError::Empty)
        );
        // A new table needs the only reference to the old one: the job's
        // thread has ended by then.
        e.set_hash(4).unwrap();
    }
}

#[test]
fn live_nodes_follow_the_running_job_and_restart_with_the_next() {
    let mut e = engine("14");
    e.set_threads(2).unwrap();
    e.start(Job::Go { clock: None }).unwrap();
    let events = e.wait();
    let live = e.live_nodes();
    // Counted in steps at the stop polls: some, and never more than the job
    // searched on its two threads.
    let searched = finished(&events).result.as_ref().unwrap().nodes;
    assert!(live > 0 && live <= searched, "{live}, {searched}");
    // The next job counts from nothing (a depth-1 search stays below one step).
    e.set_level("1".parse().unwrap());
    e.start(Job::Go { clock: None }).unwrap();
    let events = e.wait();
    let searched = finished(&events).result.as_ref().unwrap().nodes;
    assert!(e.live_nodes() <= searched, "{}", e.live_nodes());
}

#[test]
fn a_panicking_job_is_reported_and_the_engine_goes_on() {
    let mut e = engine("2");
    e.inject_panic();
    let id = e.start(Job::Go { clock: None }).unwrap();
    let events = e.wait();
    match events.as_slice() {
        [Event::Failed { job, message }] => {
            assert_eq!(*job, id);
            assert!(message.contains("injected fault"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    e.start(Job::Go { clock: None }).unwrap();
    let events = e.wait();
    assert!(finished(&events).result.as_ref().unwrap().best.is_some());
    // The table can be resized again: the failed thread let go of it.
    e.set_hash(1).unwrap();
    assert_eq!(e.settings().hash_mb, 1);
}

#[test]
fn forced_pass_and_game_over() {
    // Black a1, White b1, White to move: White must pass.
    let pos: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
    let mut e = engine("4");
    e.new_game(pos).unwrap();
    e.start(Job::Go { clock: None }).unwrap();
    let r = finished(&e.wait()).result.clone().unwrap();
    assert_eq!(r.best, Some(Move::Pass));
    e.start(Job::Hint { lines: 3 }).unwrap();
    let events = e.wait();
    let Some(Event::Hint { iteration, .. }) = events.iter().rev().nth(1) else {
        panic!("{events:?}")
    };
    assert_eq!(iteration.lines.len(), 1);
    assert_eq!(iteration.lines[0].pv[0], Move::Pass);
    // Black c1 ends the game (White then has nothing, nor Black).
    e.play(Move::Pass).unwrap();
    e.play("c1".parse().unwrap()).unwrap();
    assert!(e.game().is_over());
    e.start(Job::Go { clock: None }).unwrap();
    let r = finished(&e.wait()).result.clone().unwrap();
    assert_eq!(r.best, None);
}

#[test]
fn analyze_scores_every_position_from_the_end() {
    let game = parse_transcript(Position::START, "f5d6c3d3c4").unwrap();
    let mut e = engine("3");
    e.set_game(game);
    e.start(Job::Analyze).unwrap();
    let plies: Vec<usize> = e
        .wait()
        .iter()
        .filter_map(|ev| match ev {
            Event::Analysis { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect();
    assert_eq!(plies, vec![5, 4, 3, 2, 1, 0]);
}

#[test]
fn settings_are_checked() {
    let mut e = engine("3");
    assert_eq!(e.set_threads(0), Err(EngineError::BadThreads(0)));
    assert!(e.set_threads(MAX_THREADS + 1).is_err());
    e.set_threads(2).unwrap();
    assert_eq!(
        e.set_exact_empties(Some(61)),
        Err(EngineError::BadExactEmpties(61))
    );
    e.set_exact_empties(Some(30)).unwrap();
    let l = e.settings().limits();
    assert_eq!((l.exact_empties, l.wld_empties), (30, 30));
    assert_eq!(e.set_hash(0), Err(EngineError::Hash(TtError::ZeroSize)));
    assert_eq!(e.settings().hash_mb, 2);
    let bad = Settings {
        threads: 0,
        ..Settings::default()
    };
    assert!(Engine::new(bad).is_err());
}

#[test]
fn contempt_is_taken_from_blacks_side() {
    // Three empties, depth 1 and no solve (level 1 would prove the outcome
    // there): a move ends the game drawn, so the score follows the contempt
    // (see tests/contempt.rs). The same side-relative board with White to
    // move takes the contempt negated.
    let black = "XXXXXXXXXXXOOOXOXXXXOXOOXXXXXOOOXXOOOOXOXOOOOOOOX-OOOOOO--OOOOOO X";
    let white: String = black[..64]
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .chain(" O".chars())
        .collect();
    let board = black.parse::<Position>().unwrap().board;
    let stop = AtomicBool::new(false);
    let mut level = Level::number(1);
    (level.limits.exact_empties, level.limits.wld_empties) = (0, 0);
    let want = |contempt| {
        let tt = TranspositionTable::new(1).unwrap();
        let req = SearchRequest::<Othello> {
            contempt,
            ..SearchRequest::new(board, level)
        };
        crate::search::search(&req, &tt, &stop, &mut |_| {}).score
    };
    assert_ne!(want(100), want(-100));
    for (text, sign) in [(black.to_string(), 1), (white, -1)] {
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos.board, board);
        for contempt in [100, -100] {
            let mut e = engine_at(level);
            e.new_game(pos).unwrap();
            e.set_contempt(contempt);
            e.start(Job::Go { clock: None }).unwrap();
            let r = finished(&e.wait()).result.clone().unwrap();
            assert_eq!(r.score, want(sign * contempt), "{text} contempt {contempt}");
        }
    }
}

#[test]
fn the_command_line_s_evaluation_and_selectivity_outlive_a_new_level() {
    let overrides = LevelOverrides {
        eval: Some(EvalKind::Mobility),
        selectivity: Some("95".parse().unwrap()),
    };
    let mut e = Engine::new(Settings {
        level: Level::number(21),
        overrides,
        threads: 1,
        hash_mb: 2,
        ..Settings::default()
    })
    .unwrap();
    let kept = |e: &Engine| {
        let l = e.settings().level;
        (l.eval, l.limits.selectivity.percent())
    };
    assert_eq!(kept(&e), (EvalKind::Mobility, 95));
    e.set_level(Level::number(15));
    assert_eq!(kept(&e), (EvalKind::Mobility, 95));
    assert_eq!(e.settings().level.limits.depth, 15);
}
