//! The training data committed in `data/` reads back whole: every game, every
//! position, of the rules and label kinds the README says it has.

use mollett::eval::wfile::RulesTag;
use mollett::learn::pack::for_each_line;
use mollett::learn::sample::LabelKind;
use std::collections::HashSet;
use std::path::Path;

/// Reads a committed round of Othello games back whole and checks what the
/// README says of it: `games_played` games numbered from 0, `positions_held`
/// positions, search and exact labels only, exact solves from 16 empties on.
fn check_round(file: &str, games_played: u64, positions_held: u64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut games = HashSet::new();
    let (mut positions, mut exact, mut search) = (0u64, 0u64, 0u64);
    for_each_line(&path, |l| {
        assert_eq!(l.rules, RulesTag::Othello);
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
    // Exact solves from 16 empties on: 17 of a game's positions at most.
    assert!(
        exact > 0 && exact <= 17 * games_played,
        "{file}: {exact} exact"
    );
    assert!(search > exact, "{file}: {exact} exact, {search} search");
}

#[test]
fn round_14_reads_back_as_80000_othello_games() {
    check_round("data/othello-r14.mpk.gz", 80_000, 4_791_757);
}

#[test]
fn round_15_reads_back_as_80000_othello_games() {
    check_round("data/othello-r15.mpk.gz", 80_000, 4_792_524);
}
