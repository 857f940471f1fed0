//! The shipped weights and their regressions, Othello's and Anti-Reversi's,
//! are made again, bit for bit, from the training data committed in `data/` by
//! the commands the files themselves record (their notes;
//! `scripts/refit-weights.sh` runs the same commands). The fast tests check
//! that those commands read only committed data, each under its own rules, and
//! that the script runs exactly them; the full refit (about 13 minutes on 2
//! cores) is ignored by default:
//! `cargo test --release --test reproduce_weights -- --ignored`.

use mollett::knowledge::mlw;
use mollett::knowledge::mpc::ProbCutFile;
use mollett::knowledge::{embedded_regressions, embedded_weights};
use mollett::rules::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root: the commands run from it.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The recorded command's words after `mollett`, checked to be `subcommand`.
fn recorded(note: &str, subcommand: &str) -> Vec<String> {
    let words: Vec<String> = note.split_whitespace().map(str::to_string).collect();
    assert_eq!(words.first().map(String::as_str), Some("mollett"), "{note}");
    assert_eq!(words.get(1).map(String::as_str), Some(subcommand), "{note}");
    words[1..].to_vec()
}

/// Where `flag` is in `words`.
fn flag_at(words: &[String], flag: &str) -> Option<usize> {
    words.iter().position(|w| w == flag)
}

/// The value after `flag` in `words`, replaced by `value`.
fn replace_flag(words: &mut [String], flag: &str, value: &Path) {
    let at = flag_at(words, flag).unwrap_or_else(|| panic!("{flag} in {words:?}"));
    words[at + 1] = value.display().to_string();
}

/// The data files a recorded command reads: its words that are neither a flag
/// nor a flag's value (every flag `train` and `probcut` take has a value).
fn data_files(words: &[String]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut rest = words[1..].iter();
    while let Some(w) = rest.next() {
        if w.starts_with("--") {
            rest.next();
        } else {
            files.push(PathBuf::from(w));
        }
    }
    files
}

/// Every rule set with weights of its own (historical Reversi shares Othello's).
const RULES: [Variant; 2] = [Variant::Othello, Variant::Anti];

/// The weights of `rules` built into the binary.
fn shipped_weights(rules: Variant) -> mlw::WeightsFile {
    mlw::parse_for(embedded_weights(rules), rules).expect("the shipped weights parse")
}

/// The regressions of `rules` built into the binary.
fn shipped_regressions(rules: Variant) -> ProbCutFile {
    ProbCutFile::parse(embedded_regressions(rules)).expect("the shipped regressions parse")
}

/// Runs `mollett` with `words` from the repository's root, which must succeed.
fn run(words: &[String]) {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(words)
        .current_dir(root())
        .output()
        .expect("mollett runs");
    assert!(
        out.status.success(),
        "{words:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_recorded_commands_read_only_committed_data() {
    for rules in RULES {
        let weights = recorded(&shipped_weights(rules).note, "train");
        let regressions = recorded(&shipped_regressions(rules).note, "probcut");
        for words in [&weights, &regressions] {
            let files = data_files(words);
            assert!(!files.is_empty(), "{words:?}");
            for f in files {
                assert!(
                    f.starts_with("data"),
                    "{} is not committed data",
                    f.display()
                );
                assert!(root().join(&f).is_file(), "{} is missing", f.display());
            }
        }
        // The regressions are fitted to the same data as the weights.
        assert_eq!(data_files(&weights), data_files(&regressions));
    }
}

/// The rules a recorded command names with `--variant` (Othello without it).
fn variant_of(words: &[String]) -> Option<&str> {
    let at = flag_at(words, "--variant")?;
    words.get(at + 1).map(String::as_str)
}

#[test]
fn each_rule_set_is_fitted_to_its_own_rules() {
    for rules in RULES {
        // Othello is the default: its commands name no variant.
        let want = (rules != Variant::Othello).then(|| rules.name());
        let weights = recorded(&shipped_weights(rules).note, "train");
        let regressions = recorded(&shipped_regressions(rules).note, "probcut");
        assert_eq!(variant_of(&weights), want, "{weights:?}");
        assert_eq!(variant_of(&regressions), want, "{regressions:?}");
    }
}

/// The refit script runs exactly the recorded commands.
#[test]
fn the_refit_script_runs_the_recorded_commands() {
    let script = std::fs::read_to_string(root().join("scripts/refit-weights.sh")).unwrap();
    for rules in RULES {
        for (note, subcommand) in [
            (shipped_weights(rules).note, "train"),
            (shipped_regressions(rules).note, "probcut"),
        ] {
            let words = recorded(&note, subcommand);
            let line = format!("refit {}", words.join(" "));
            assert!(
                script.lines().any(|l| l.trim() == line),
                "scripts/refit-weights.sh lacks `{line}`"
            );
        }
    }
}

#[test]
#[ignore = "refits the shipped weights and regressions: about 13 minutes on 2 cores"]
fn the_recorded_commands_make_the_shipped_files_again() {
    let dir = std::env::temp_dir().join(format!("mollett-refit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for rules in RULES {
        let name = rules.name();
        let weights = shipped_weights(rules);
        let mut words = recorded(&weights.note, "train");
        let fitted = dir.join(format!("{name}.mlw"));
        replace_flag(&mut words, "--out", &fitted);
        run(&words);
        let again = mlw::parse_for(&std::fs::read(&fitted).unwrap(), rules).unwrap();
        assert_eq!(again.form, weights.form, "{name}");
        assert!(
            again.anchors == weights.anchors,
            "the refitted {name} tables differ"
        );

        // The regressions search with the weights built in: the shipped ones,
        // which the refit above has just shown to be the recorded command's.
        let regressions = shipped_regressions(rules);
        let mut words = recorded(&regressions.note, "probcut");
        let scores = dir.join(format!("{name}-scores.txt"));
        let out = dir.join(format!("{name}.mpc"));
        replace_flag(&mut words, "--scores", &scores);
        replace_flag(&mut words, "--out", &out);
        run(&words);
        let again = ProbCutFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(again.weights, regressions.weights, "{name}");
        assert_eq!(again.pairs, regressions.pairs, "{name}");
        assert_eq!(again.extend, regressions.extend, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
