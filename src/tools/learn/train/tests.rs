//! Tests of the trainer: a small fit lowers the error, priors, forms, determinism.

use super::*;
use crate::eval::DISC;
use crate::tools::learn::datagen::{DatagenRequest, play_game};

/// A few thousand positions from fast self-play.
fn samples() -> Vec<Sample> {
    let req = DatagenRequest {
        seed: 3,
        random_moves: (2, 10),
        depth: 1,
        ..crate::tools::learn::datagen::tests::request()
    };
    (0..80).flat_map(|g| play_game(&req, g).unwrap()).collect()
}

/// The fit the tests run: Othello, 20 % held out, 12 iterations, no prior.
fn test_request(note: &str) -> TrainRequest {
    TrainRequest {
        rules: Variant::Othello,
        patterns: PatternSet::Classic,
        form: Form::ColourTied,
        seed: 1,
        holdout_percent: 20,
        iterations: 12,
        ridge: 5.0,
        note: note.into(),
        prior: None,
        pair_child: false,
    }
}

#[test]
fn the_fit_lowers_the_held_out_error_and_replays_bit_for_bit() {
    let data = samples();
    assert!(data.len() > 3000);
    let req = test_request("test");
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| train(&data, &req, &mut |_| {}, &mut |_| {}))
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(
        one.bytes, two.bytes,
        "the weights do not depend on the threads"
    );
    let file = mlw::parse(&one.bytes).unwrap();
    assert_eq!(file.note, "test");
    // Held-out error against predicting a draw: lower in every phase with
    // positions, and clearly lower near the end (exact labels, discs count).
    for (i, &(before, after)) in one.holdout_mae.iter().enumerate() {
        if before > 0.0 {
            assert!(after < before, "phase {i}: {after} !< {before}");
        }
    }
    let (before, after) = one.holdout_mae[0];
    assert!(after < 0.7 * before, "0-9 empties: {after} vs {before}");
    // The engine's evaluation with the written file is the fitted function:
    // its held-out error matches the fit's, up to the rounding to centi-discs.
    let (lo, hi) = REPORT_PHASES[2];
    let phase: Vec<&Sample> = data
        .iter()
        .filter(|s| is_held_out(&s.board(), req.seed, req.holdout_percent))
        .filter(|s| (lo..=hi).contains(&s.board().empties()))
        .collect();
    let mae = engine_mae(&file, &phase);
    assert!(
        (mae - one.holdout_mae[2].1).abs() < 0.05,
        "{mae} vs {:?}",
        one.holdout_mae[2]
    );
}

/// The mean absolute error in discs of the engine's evaluation with `file`
/// on `samples`.
fn engine_mae(file: &WeightsFile, samples: &[&Sample]) -> f64 {
    let tables = crate::eval::learned::Tables::expand(&file.anchors, file.patterns, file.form);
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let v = tables.evaluate_with(
                crate::board::movegen::Portable,
                crate::eval::pattern::pext_portable,
                &s.board(),
            );
            (f64::from(v) / f64::from(DISC) - f64::from(s.label)).abs()
        })
        .sum();
    sum / samples.len() as f64
}

#[test]
fn a_prior_is_where_the_fit_starts_and_what_it_is_pulled_towards() {
    let data = samples();
    let (old, new) = data.split_at(data.len() / 2);
    let req = test_request("prior test");
    let fit = |samples: &[Sample], req: &TrainRequest| {
        mlw::parse(&train(samples, req, &mut |_| {}, &mut |_| {}).bytes).unwrap()
    };
    let first = fit(old, &req);
    let with_prior = TrainRequest {
        prior: Some(first.clone()),
        ..req.clone()
    };
    // An overwhelming ridge keeps every weight at the prior, bit for bit.
    let pinned = fit(
        new,
        &TrainRequest {
            ridge: 1e12,
            ..with_prior.clone()
        },
    );
    assert_eq!(pinned.anchors, first.anchors);
    // Fitted on the new half from the prior, the weights keep what the old
    // half taught: on every held-out position they beat the fit of the new
    // half alone, and on the new half's own they are no worse than the prior.
    let both = fit(new, &with_prior);
    let alone = fit(new, &req);
    assert_ne!(
        both.anchors, first.anchors,
        "the new data moved the weights"
    );
    let held = |part: &[Sample]| -> Vec<Sample> {
        part.iter()
            .filter(|s| is_held_out(&s.board(), req.seed, req.holdout_percent))
            .cloned()
            .collect()
    };
    let (held_old, held_new) = (held(old), held(new));
    let all: Vec<&Sample> = held_old.iter().chain(&held_new).collect();
    let news: Vec<&Sample> = held_new.iter().collect();
    let (e_both, e_alone) = (engine_mae(&both, &all), engine_mae(&alone, &all));
    assert!(e_both < e_alone, "{e_both} !< {e_alone}");
    let (e_new, e_prior) = (engine_mae(&both, &news), engine_mae(&first, &news));
    assert!(e_new < e_prior, "{e_new} !< {e_prior}");
}

/// Writes `samples` as position lines of `rules` to `path`.
fn write_lines(path: &std::path::Path, samples: impl Iterator<Item = Sample>, rules: Variant) {
    let text: String = samples
        .map(|sample| format!("{}\n", crate::tools::learn::sample::Line { sample, rules }))
        .collect();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_side_to_move_fit_starts_from_an_untied_prior() {
    let data = samples();
    let (old, new) = data.split_at(data.len() / 2);
    let fit = |samples: &[Sample], req: &TrainRequest| {
        mlw::parse(&train(samples, req, &mut |_| {}, &mut |_| {}).bytes).unwrap()
    };
    let tied = fit(old, &test_request("tied"));
    let side = TrainRequest {
        form: Form::SideToMove,
        prior: Some(tied.clone()),
        ..test_request("side")
    };
    // Pinned to the prior, the fit is the prior rewritten in its form.
    let pinned = fit(
        new,
        &TrainRequest {
            ridge: 1e12,
            ..side.clone()
        },
    );
    assert_eq!(pinned.form, Form::SideToMove);
    assert_eq!(pinned.anchors, untie(PatternSet::Classic, &tied.anchors));
    // Free, it learns from the new half what the tied weights could not say.
    let free = fit(new, &side);
    let news: Vec<Sample> = new
        .iter()
        .filter(|s| is_held_out(&s.board(), 1, 20))
        .cloned()
        .collect();
    let news: Vec<&Sample> = news.iter().collect();
    let (e_free, e_tied) = (engine_mae(&free, &news), engine_mae(&tied, &news));
    assert!(e_free < e_tied, "{e_free} !< {e_tied}");
    // A side-to-move prior cannot start a colour-tied fit.
    let dir = std::env::temp_dir().join(format!("mollett-train-form-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.txt");
    write_lines(&path, new.iter().copied(), Variant::Othello);
    let back = TrainRequest {
        prior: Some(free),
        ..test_request("back")
    };
    let e = train_files(&[path], &back, &mut |_| {}, &mut |_| {}).unwrap_err();
    assert!(format!("{e}").contains("side-to-move prior"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_extended_fit_starts_from_a_classic_prior_and_not_back() {
    let data = samples();
    let (old, new) = data.split_at(data.len() / 2);
    let fit = |samples: &[Sample], req: &TrainRequest| {
        mlw::parse(&train(samples, req, &mut |_| {}, &mut |_| {}).bytes).unwrap()
    };
    let classic = fit(old, &test_request("classic"));
    let extended = TrainRequest {
        patterns: PatternSet::Extended,
        form: Form::SideToMove,
        prior: Some(classic.clone()),
        ..test_request("extended")
    };
    // Pinned to the prior, the fit is the prior untied and carried over.
    let pinned = fit(
        new,
        &TrainRequest {
            ridge: 1e12,
            ..extended.clone()
        },
    );
    assert_eq!(pinned.patterns, PatternSet::Extended);
    let untied = untie(PatternSet::Classic, &classic.anchors);
    let carried = carry_over(
        PatternSet::Classic,
        PatternSet::Extended,
        Form::SideToMove,
        &untied,
    );
    assert_eq!(Some(pinned.anchors), carried);
    // Free, the added patterns learn something, and the file reads back as extended.
    let free = fit(new, &extended);
    assert_eq!(free.patterns, PatternSet::Extended);
    let layout = Layout::of(PatternSet::Extended, Form::SideToMove);
    let triangle = layout.offsets[11]..layout.offsets[12];
    assert!(
        free.anchors
            .iter()
            .any(|a| a[triangle.clone()].iter().any(|&w| w != 0))
    );
    // An extended prior cannot start a classic fit.
    let dir = std::env::temp_dir().join(format!("mollett-train-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.txt");
    write_lines(&path, new.iter().copied(), Variant::Othello);
    let back = TrainRequest {
        form: Form::SideToMove,
        prior: Some(free),
        ..test_request("back")
    };
    let e = train_files(&[path], &back, &mut |_| {}, &mut |_| {}).unwrap_err();
    assert!(format!("{e}").contains("extended pattern set"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn data_of_other_rules_is_refused_and_the_file_names_its_rules() {
    let req = DatagenRequest {
        rules: Variant::Anti,
        seed: 5,
        random_moves: (2, 10),
        depth: 1,
        exact_empties: 8,
        noise_per_mille: 0,
        ..crate::tools::learn::datagen::tests::request()
    };
    let dir = std::env::temp_dir().join(format!("mollett-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("anti.txt");
    let games = (0..4).flat_map(|g| play_game(&req, g).unwrap());
    write_lines(&path, games, Variant::Anti);
    let mut treq = TrainRequest {
        rules: Variant::Othello,
        patterns: PatternSet::Classic,
        form: Form::ColourTied,
        seed: 1,
        holdout_percent: 10,
        iterations: 2,
        ridge: 5.0,
        note: "anti test".into(),
        prior: None,
        pair_child: false,
    };
    let files = [path.clone()];
    let e = train_files(&files, &treq, &mut |_| {}, &mut |_| {}).unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("anti data, where othello data"), "{e}");
    assert!(
        read_samples(&files).is_err(),
        "Othello readers refuse it too"
    );
    treq.rules = Variant::Anti;
    let report = train_files(&files, &treq, &mut |_| {}, &mut |_| {}).unwrap();
    assert_eq!(mlw::parse(&report.bytes).unwrap().rules, Variant::Anti);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_ridge_weight_is_a_number_above_zero() {
    assert_eq!(parse_ridge("3"), Ok(3.0));
    assert_eq!(parse_ridge("0.5"), Ok(0.5));
    for bad in ["0", "-1", "inf", "NaN", "x", ""] {
        assert!(parse_ridge(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_paired_fit_trains_on_the_pairs_means() {
    let req = DatagenRequest {
        seed: 5,
        random_moves: (2, 6),
        depth: 2,
        labels: crate::tools::learn::datagen::Labels::Search,
        ..crate::tools::learn::datagen::tests::request()
    };
    let data: Vec<Sample> = (0..6).flat_map(|g| play_game(&req, g).unwrap()).collect();
    let pairs = pairing::pair_with_children(&data);
    assert!(
        pairs.paired > data.len() / 3,
        "{} of {}",
        pairs.paired,
        data.len()
    );
    let plain = test_request("plain");
    let paired = TrainRequest {
        pair_child: true,
        ..plain.clone()
    };
    let mut lines = Vec::new();
    let with = train(
        &data,
        &paired,
        &mut |l| lines.push(l.to_string()),
        &mut |_| {},
    );
    let expected = format!("{} of {} labels paired", pairs.paired, data.len());
    assert!(lines.iter().any(|l| l.contains(&expected)), "{lines:?}");
    let without = train(&data, &plain, &mut |_| {}, &mut |_| {});
    assert_ne!(
        mlw::parse(&with.bytes).unwrap().anchors,
        mlw::parse(&without.bytes).unwrap().anchors
    );
}
