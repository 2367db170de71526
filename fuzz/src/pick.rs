//! Which routine an input of the `roster` target runs: its first byte,
//! mapped to a routine of [`ROUTINES`] by the routine's name.
//!
//! The map is rendezvous hashing: each of the 256 values of the first byte
//! belongs to the routine whose name, hashed with that value, weighs the
//! most ([`weight`]). It depends on the routines' names only, not on their
//! order in the roster; a routine added to the roster takes only the values
//! it wins (about one in `n + 1` for `n + 1` routines) and a routine removed
//! frees only its own, while every other value keeps its routine. So the
//! committed seeds (`fuzz/seeds/roster/`) and the working corpus keep
//! running the routine they were found for as the roster grows. Each routine
//! owns about `256 / n` values (at least one: checked below).
//!
//! With `ANIMASM_FUZZ_ROUTINE=<name>` in the environment, only the inputs
//! whose first byte picks that routine run, the others return at once: one
//! routine's run with the shared corpus (`scripts/fuzz.sh roster:<name>`),
//! whose new inputs mean the same with or without the variable (a finding
//! reproduces without it, and `-merge=1` of the shared corpus keeps what
//! each routine needs).
//! `ANIMASM_FUZZ_ROUTINE=list` makes the target print every routine's name,
//! one a line, and exit ([`init`]).

use animasm::roster::{ROUTINES, Routine};
use std::sync::OnceLock;

/// The environment variable that fixes the routine ([`focus`]).
pub const FOCUS_VAR: &str = "ANIMASM_FUZZ_ROUTINE";

/// The weight of the routine `name` for the first byte `byte`: FNV-1a of
/// the name's bytes and `byte`, then SplitMix64's finaliser (FNV alone
/// leaves the last byte's influence in the low bits).
pub fn weight(name: &str, byte: u8) -> u64 {
    let h = name
        .bytes()
        .chain([0xff, byte])
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The routine of `routines` that owns `byte`: the heaviest ([`weight`]),
/// the greater name on a tie.
pub fn owner(routines: &[Routine], byte: u8) -> &Routine {
    routines.iter().max_by_key(|r| (weight(r.name, byte), r.name)).expect("a routine")
}

/// The routine an input whose first byte is `byte` runs.
pub fn routine_for(byte: u8) -> &'static Routine {
    static MAP: OnceLock<[u8; 256]> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        assert!(ROUTINES.len() <= 256, "more routines than values of a byte");
        core::array::from_fn(|b| {
            let r = owner(ROUTINES, b as u8);
            ROUTINES.iter().position(|x| x.name == r.name).expect("in the roster") as u8
        })
    });
    &ROUTINES[usize::from(map[usize::from(byte)])]
}

/// The first byte that runs the routine `name` (the smallest it owns), if
/// it owns one: what a seed for that routine starts with.
pub fn byte_for(name: &str) -> Option<u8> {
    (0..=255).find(|&b| routine_for(b).name == name)
}

/// The routine [`FOCUS_VAR`] names, if it is set.
///
/// # Panics
///
/// If it names no routine of the roster.
pub fn focus() -> Option<&'static Routine> {
    static FOCUS: OnceLock<Option<&'static Routine>> = OnceLock::new();
    *FOCUS.get_or_init(|| {
        let name = std::env::var(FOCUS_VAR).ok().filter(|n| !n.is_empty())?;
        let r = animasm::roster::find(&name);
        assert!(
            r.is_some(),
            "{FOCUS_VAR}={name}: no such routine; the roster has {:?}",
            ROUTINES.iter().map(|r| r.name).collect::<Vec<_>>()
        );
        r
    })
}

/// The `roster` target's initialisation: with `ANIMASM_FUZZ_ROUTINE=list`,
/// prints every routine's name, one a line, and exits; otherwise checks
/// the variable names a routine ([`focus`]) before the first input.
pub fn init() {
    if std::env::var(FOCUS_VAR).is_ok_and(|v| v == "list") {
        for r in ROUTINES {
            println!("{}", r.name);
        }
        std::process::exit(0);
    }
    focus();
}

/// One input of the `roster` target: the routine its first byte picks (0
/// for an empty input), on arguments decoded from the rest
/// ([`crate::shapes::fuzz`]); nothing if [`focus`] names another routine.
pub fn fuzz_roster(data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(&b, rest)| (b, rest));
    let r = routine_for(first);
    if focus().is_some_and(|f| f.name != r.name) {
        return;
    }
    crate::shapes::fuzz(r, rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every routine owns at least one first byte, and the map is the
    /// rendezvous map of the roster.
    #[test]
    fn every_routine_is_picked() {
        for r in ROUTINES {
            let owned = (0..=255u8).filter(|&b| routine_for(b).name == r.name).count();
            assert!(owned > 0, "{} owns no first byte", r.name);
        }
        for b in 0..=255u8 {
            assert_eq!(routine_for(b).name, owner(ROUTINES, b).name);
        }
    }

    /// The map depends on the names only: the roster reversed gives the
    /// same map, and without one routine only that routine's bytes move.
    #[test]
    fn by_name_not_position() {
        let mut reversed: Vec<Routine> = ROUTINES.to_vec();
        reversed.reverse();
        for b in 0..=255u8 {
            assert_eq!(owner(&reversed, b).name, routine_for(b).name, "byte {b}");
        }
        for (k, gone) in ROUTINES.iter().enumerate() {
            let mut fewer: Vec<Routine> = ROUTINES.to_vec();
            fewer.remove(k);
            for b in (0..=255u8).filter(|&b| routine_for(b).name != gone.name) {
                assert_eq!(owner(&fewer, b).name, routine_for(b).name, "byte {b} without {}", gone.name);
            }
        }
    }

    /// `byte_for` gives a byte that picks the routine.
    #[test]
    fn byte_for_picks() {
        for r in ROUTINES {
            let b = byte_for(r.name).expect("owns a byte");
            assert_eq!(routine_for(b).name, r.name);
        }
        assert_eq!(byte_for("no_such_routine"), None);
    }
}
