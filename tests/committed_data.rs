//! The training data committed in `data/` reads back whole: every game, every
//! position, of the rules and label kinds the README says it has.

use mollett::rules::Variant;
use mollett::tools::learn::pack::for_each_line;
use mollett::tools::learn::sample::LabelKind;
use std::collections::HashSet;
use std::path::Path;

/// What the README says of one committed round.
struct Round {
    file: &'static str,
    rules: Variant,
    games_played: u64,
    positions_held: u64,
    /// Positions with this many empties or fewer carry exact labels.
    exact_empties: u64,
}

/// Reads a committed round back whole and checks what the README says of it:
/// `games_played` games numbered from 0, `positions_held` positions of the
/// round's rules, search and exact labels only, exact solves from
/// `exact_empties` empties on.
fn check_round(round: Round) {
    let Round {
        file,
        rules,
        games_played,
        positions_held,
        exact_empties,
    } = round;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut games = HashSet::new();
    let (mut positions, mut exact, mut search) = (0u64, 0u64, 0u64);
    for_each_line(&path, |l| {
        assert_eq!(l.rules, rules);
        assert!(l.sample.label.abs() <= 64, "{}", l.sample.label);
        games.insert(l.sample.game);
        positions += 1;
        match l.sample.kind {
            LabelKind::Exact => exact += 1,
            LabelKind::Search => search += 1,
            LabelKind::Game => panic!("a game-result label in a search-labelled round"),
        }
        Ok(())
    })
    .expect("the committed data reads");
    assert_eq!(positions, positions_held, "{file}");
    assert_eq!(games.len() as u64, games_played, "{file}");
    assert_eq!(games.iter().max(), Some(&(games_played - 1)), "{file}");
    // Exact solves from `exact_empties` on: one more of a game's positions
    // at most (the position with none empty counts too).
    assert!(
        exact > 0 && exact <= (exact_empties + 1) * games_played,
        "{file}: {exact} exact"
    );
    assert!(search > exact, "{file}: {exact} exact, {search} search");
}

#[test]
fn round_14_reads_back_as_80000_othello_games() {
    check_round(Round {
        file: "data/othello-r14.mpk.gz",
        rules: Variant::Othello,
        games_played: 80_000,
        positions_held: 4_791_757,
        exact_empties: 16,
    });
}

#[test]
fn round_15_reads_back_as_80000_othello_games() {
    check_round(Round {
        file: "data/othello-r15.mpk.gz",
        rules: Variant::Othello,
        games_played: 80_000,
        positions_held: 4_792_524,
        exact_empties: 16,
    });
}

#[test]
fn anti_round_6_reads_back_as_40000_anti_reversi_games() {
    check_round(Round {
        file: "data/anti-r6.mpk.gz",
        rules: Variant::Anti,
        games_played: 40_000,
        positions_held: 2_398_813,
        exact_empties: 14,
    });
}
