//! What each instruction set is, in one place: the target architecture it
//! is compiled for, the CPU features it needs and how they are known (at
//! run time, at compile time, or part of the baseline), its `f32` lanes,
//! its words in the reports, and the detection itself. This module is the
//! only one that detects CPU features, and the only one that names a
//! target architecture for an instruction set: everything else (the
//! dispatch layer, the roster, the tests, the reports) asks an [`Isa`].
//!
//! It sits on the ground floor: it imports nothing of the crate.
//!
//! **A new instruction set** is a variant of [`Isa`] and a row in each
//! `match` below (the compiler lists them), plus its target's runner in
//! `.cargo/config.toml` and its run in `.ci/run`. Its forms are then rows
//! of the routines' kernel tables (`form!(… on NewIsa)`).

/// The instruction set a form runs on: the target architecture it is
/// compiled for and the CPU features it needs beyond that target's
/// baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// Plain Rust: every target, no CPU feature.
    Portable,
    /// `x86_64`'s baseline (SSE, SSE2): no detection.
    Sse2,
    /// `x86_64` with AVX.
    Avx,
    /// `x86_64` with AVX2.
    Avx2,
    /// `x86_64` with AVX2 and FMA.
    Avx2Fma,
    /// `x86_64` with AVX-512 F, VL, DQ and BW.
    Avx512,
    /// `aarch64`'s baseline (NEON, Advanced SIMD): no detection.
    Neon,
    /// `wasm32`'s fixed-width SIMD (SIMD128), fixed at compile time
    /// (`-C target-feature=+simd128`): WebAssembly has no run-time
    /// detection, and an engine without SIMD rejects a module that has
    /// SIMD instructions, so the forms exist only in builds with it.
    Simd128,
}

/// How a build knows that the CPU has an instruction set's features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Detection {
    /// Part of the target's baseline (or no feature at all): every CPU of
    /// the target has it.
    Baseline,
    /// Detected at run time (with the `std` feature; without it, never
    /// seen): `is_x86_feature_detected!`.
    RunTime,
    /// Fixed when the crate is compiled (`-C target-feature`): present in
    /// a build with the feature, absent from one without.
    CompileTime,
}

impl Isa {
    /// Every instruction set, in a fixed order.
    pub const ALL: [Isa; 8] =
        [Isa::Portable, Isa::Sse2, Isa::Avx, Isa::Avx2, Isa::Avx2Fma, Isa::Avx512, Isa::Neon, Isa::Simd128];

    /// A short lower-case name (`"portable"`, `"sse2"`, `"avx"`, `"avx2"`,
    /// `"avx2+fma"`, `"avx512"`, `"neon"`, `"simd128"`).
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Avx2Fma.name(), "avx2+fma");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Sse2 => "sse2",
            Isa::Avx => "avx",
            Isa::Avx2 => "avx2",
            Isa::Avx2Fma => "avx2+fma",
            Isa::Avx512 => "avx512",
            Isa::Neon => "neon",
            Isa::Simd128 => "simd128",
        }
    }

    /// The instruction set in words with its `f32` lanes, as the reports
    /// print it (`"AVX2 + FMA, 8 lanes"`; `"portable Rust"`).
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Avx512.words(), "AVX-512, 16 lanes");
    /// ```
    pub const fn words(self) -> &'static str {
        match self {
            Isa::Portable => "portable Rust",
            Isa::Sse2 => "SSE2, 4 lanes",
            Isa::Avx => "AVX, 8 lanes",
            Isa::Avx2 => "AVX2, 8 lanes",
            Isa::Avx2Fma => "AVX2 + FMA, 8 lanes",
            Isa::Avx512 => "AVX-512, 16 lanes",
            Isa::Neon => "NEON, 4 lanes",
            Isa::Simd128 => "wasm SIMD128, 4 lanes",
        }
    }

    /// The `f32` lanes of one vector register (1 for [`Isa::Portable`]).
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Neon.lanes(), 4);
    /// ```
    pub const fn lanes(self) -> u32 {
        match self {
            Isa::Portable => 1,
            Isa::Sse2 | Isa::Neon | Isa::Simd128 => 4,
            Isa::Avx | Isa::Avx2 | Isa::Avx2Fma => 8,
            Isa::Avx512 => 16,
        }
    }

    /// The target architecture (`target_arch`) the instruction set belongs
    /// to, `None` for [`Isa::Portable`].
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Neon.arch(), Some("aarch64"));
    /// ```
    pub const fn arch(self) -> Option<&'static str> {
        match self {
            Isa::Portable => None,
            Isa::Sse2 | Isa::Avx | Isa::Avx2 | Isa::Avx2Fma | Isa::Avx512 => Some("x86_64"),
            Isa::Neon => Some("aarch64"),
            Isa::Simd128 => Some("wasm32"),
        }
    }

    /// How a build knows the CPU has the instruction set.
    ///
    /// ```
    /// use animasm::isa::{Detection, Isa};
    /// assert_eq!(Isa::Avx2.detection(), Detection::RunTime);
    /// assert_eq!(Isa::Simd128.detection(), Detection::CompileTime);
    /// ```
    pub const fn detection(self) -> Detection {
        match self {
            Isa::Portable | Isa::Sse2 | Isa::Neon => Detection::Baseline,
            Isa::Avx | Isa::Avx2 | Isa::Avx2Fma | Isa::Avx512 => Detection::RunTime,
            Isa::Simd128 => Detection::CompileTime,
        }
    }

    /// Whether this build is for the instruction set: its architecture is
    /// the target's, and a compile-time instruction set's features were
    /// enabled. Whether the CPU has a run-time one is
    /// [`Isa::detected`]'s question.
    ///
    /// ```
    /// assert!(animasm::Isa::Portable.on_target());
    /// assert_eq!(animasm::Isa::Avx512.on_target(), cfg!(target_arch = "x86_64"));
    /// ```
    pub const fn on_target(self) -> bool {
        match self {
            Isa::Portable => true,
            Isa::Sse2 | Isa::Avx | Isa::Avx2 | Isa::Avx2Fma | Isa::Avx512 => cfg!(target_arch = "x86_64"),
            Isa::Neon => cfg!(target_arch = "aarch64"),
            Isa::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
        }
    }

    /// The CPU features the instruction set needs beyond its target's
    /// baseline, as `is_x86_feature_detected!` (or `-C target-feature`)
    /// names them: empty for the baselines ([`Isa::Portable`],
    /// [`Isa::Sse2`], [`Isa::Neon`]).
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Avx2Fma.features(), &["avx2", "fma"]);
    /// ```
    pub const fn features(self) -> &'static [&'static str] {
        match self {
            Isa::Portable | Isa::Sse2 | Isa::Neon => &[],
            Isa::Avx => &["avx"],
            Isa::Avx2 => &["avx2"],
            Isa::Avx2Fma => &["avx2", "fma"],
            Isa::Avx512 => &["avx512f", "avx512vl", "avx512dq", "avx512bw"],
            Isa::Simd128 => &["simd128"],
        }
    }

    /// The features of [`Isa::features`] in one phrase, as
    /// [`Error::MissingCpuFeature`](crate::Error::MissingCpuFeature)
    /// reports them (`"avx2 and fma"`; empty for the baselines).
    ///
    /// ```
    /// assert_eq!(animasm::Isa::Avx2Fma.needs(), "avx2 and fma");
    /// ```
    pub const fn needs(self) -> &'static str {
        match self {
            Isa::Portable | Isa::Sse2 | Isa::Neon => "",
            Isa::Avx => "avx",
            Isa::Avx2 => "avx2",
            Isa::Avx2Fma => "avx2 and fma",
            Isa::Avx512 => "avx512f, avx512vl, avx512dq and avx512bw",
            Isa::Simd128 => "simd128",
        }
    }

    /// The run-time feature bits the instruction set needs (0: nothing is
    /// detected at run time).
    const fn bits(self) -> u16 {
        match self {
            Isa::Portable | Isa::Sse2 | Isa::Neon | Isa::Simd128 => 0,
            Isa::Avx => AVX,
            Isa::Avx2 => AVX2,
            Isa::Avx2Fma => AVX2 | FMA,
            Isa::Avx512 => AVX512F | AVX512VL | AVX512DQ | AVX512BW,
        }
    }

    /// Whether the running CPU has the features of this instruction set and
    /// this build is for it ([`Isa::on_target`]), as the dispatch layer sees
    /// it: without the `std` feature no run-time feature is seen; the
    /// test hooks ([`test_hooks`]) can hide features and every instruction
    /// set but [`Isa::Portable`].
    ///
    /// ```
    /// assert!(animasm::Isa::Portable.detected());
    /// assert_eq!(animasm::Isa::Sse2.detected(), cfg!(target_arch = "x86_64"));
    /// ```
    pub fn detected(self) -> bool {
        let needs = self.bits();
        self.on_target()
            && (self == Isa::Portable || !test_hooks::scalar_target())
            && (needs == 0 || detected_bits() & needs == needs)
    }
}

/// Whether this build of the crate has the test hooks ([`test_hooks`],
/// feature `_test-hooks`, which the crate's own tests turn on): a timing
/// run asks, so that it never times the `select` of a build a user does
/// not have. Not API.
#[doc(hidden)]
pub const TEST_HOOKS: bool = cfg!(all(feature = "std", feature = "_test-hooks"));

/// The run-time CPU features of [`Isa::features`] as bits.
const AVX: u16 = 1;
const AVX2: u16 = 1 << 1;
const FMA: u16 = 1 << 2;
const AVX512F: u16 = 1 << 3;
const AVX512VL: u16 = 1 << 4;
const AVX512DQ: u16 = 1 << 5;
const AVX512BW: u16 = 1 << 6;

/// Every run-time feature bit with its name, as `is_x86_feature_detected!`
/// names it.
#[cfg_attr(not(all(feature = "std", feature = "_test-hooks")), allow(dead_code))]
const FEATURES: [(u16, &str); 7] = [
    (AVX, "avx"),
    (AVX2, "avx2"),
    (FMA, "fma"),
    (AVX512F, "avx512f"),
    (AVX512VL, "avx512vl"),
    (AVX512DQ, "avx512dq"),
    (AVX512BW, "avx512bw"),
];

/// The run-time features the running CPU has, as bits. Without the `std`
/// feature nothing beyond the baseline can be detected, so none. With the
/// test hooks, less if a test hides some ([`test_hooks`]).
fn detected_bits() -> u16 {
    cfg_if::cfg_if! {
        if #[cfg(all(feature = "std", target_arch = "x86_64"))] {
            use core::sync::atomic::{AtomicU32, Ordering};
            /// The bits once asked (`std`'s cache answers each feature
            /// again on every call, seven loads and tests on every safe
            /// call), with [`KNOWN`] set once they are there.
            static BITS: AtomicU32 = AtomicU32::new(0);
            const KNOWN: u32 = 1 << 16;
            let mut bits = BITS.load(Ordering::Relaxed);
            if bits & KNOWN == 0 {
                let mut found = 0;
                if std::is_x86_feature_detected!("avx") { found |= AVX; }
                if std::is_x86_feature_detected!("avx2") { found |= AVX2; }
                if std::is_x86_feature_detected!("fma") { found |= FMA; }
                if std::is_x86_feature_detected!("avx512f") { found |= AVX512F; }
                if std::is_x86_feature_detected!("avx512vl") { found |= AVX512VL; }
                if std::is_x86_feature_detected!("avx512dq") { found |= AVX512DQ; }
                if std::is_x86_feature_detected!("avx512bw") { found |= AVX512BW; }
                bits = u32::from(found) | KNOWN;
                // Every thread that races here stores the same value.
                BITS.store(bits, Ordering::Relaxed);
            }
            bits as u16 & test_hooks::visible_features()
        } else {
            0
        }
    }
}

/// Whether the CPU has FMA, as the dispatch layer sees it (the test hooks
/// can hide it; a simulated target without SIMD forms has none): the
/// portable kernels' choice of their FMA copy on x86_64
/// (`crate::portable::hard_fma`).
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
pub(crate) fn fma_detected() -> bool {
    detected_bits() & FMA != 0 && !test_hooks::scalar_target()
}

/// Test hooks: what the dispatch layer sees, narrowed on one thread, so
/// that `Error::MissingCpuFeature` and `Error::Unsupported` can be tested
/// for every routine and form on any machine and under Miri. Not API:
/// compiled only with the `_test-hooks` feature (which the crate's own
/// tests turn on) and `std`, hidden from the docs. A hook can only hide: it
/// never makes a form runnable that the CPU cannot run.
#[cfg(all(feature = "std", feature = "_test-hooks"))]
#[doc(hidden)]
pub mod test_hooks {
    use core::cell::Cell;

    /// What a test lets the dispatch layer see.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Machine {
        hidden: u16,
        scalar_target: bool,
    }

    impl Machine {
        /// Everything the CPU has: no hook.
        pub const REAL: Machine = Machine { hidden: 0, scalar_target: false };
        /// The target's baseline only (SSE2 on `x86_64`, NEON on
        /// `aarch64`): every detected feature hidden.
        pub const BASELINE: Machine = Machine { hidden: u16::MAX, scalar_target: false };
        /// A target without SIMD forms: only the portable forms exist
        /// (`Impl::Scalar`).
        pub const SCALAR_TARGET: Machine = Machine { hidden: u16::MAX, scalar_target: true };

        /// This machine with the CPU features `names` hidden too (as
        /// `is_x86_feature_detected!` names them: `"avx"`, `"avx2"`,
        /// `"fma"`, `"avx512f"`, `"avx512vl"`, `"avx512dq"`, `"avx512bw"`).
        ///
        /// # Panics
        ///
        /// On a name the dispatch layer does not detect.
        pub fn hiding(self, names: &[&str]) -> Machine {
            let mut hidden = self.hidden;
            for name in names {
                let bit = super::FEATURES.iter().find(|f| f.1 == *name).unwrap_or_else(|| panic!("no feature {name}"));
                hidden |= bit.0;
            }
            Machine { hidden, ..self }
        }

        /// Whether this machine lets the dispatch layer see the feature
        /// `name` (if the CPU has it).
        pub fn shows(self, name: &str) -> bool {
            super::FEATURES.iter().any(|f| f.1 == name && self.hidden & f.0 == 0)
        }

        /// Whether only the portable forms exist.
        pub fn scalar_target(self) -> bool {
            self.scalar_target
        }
    }

    std::thread_local! {
        static SEEN: Cell<Machine> = const { Cell::new(Machine::REAL) };
    }

    /// Runs `f` with the dispatch layer of this thread seeing `machine`,
    /// then restores what it saw before (also if `f` panics).
    pub fn with_machine<R>(machine: Machine, f: impl FnOnce() -> R) -> R {
        struct Restore(Machine);
        impl Drop for Restore {
            fn drop(&mut self) {
                SEEN.with(|s| s.set(self.0));
            }
        }
        let _restore = Restore(SEEN.with(|s| s.replace(machine)));
        f()
    }

    #[allow(dead_code)] // only read on x86_64
    pub(crate) fn visible_features() -> u16 {
        !SEEN.with(Cell::get).hidden
    }

    pub(crate) fn scalar_target() -> bool {
        SEEN.with(Cell::get).scalar_target
    }

    /// Whether a hook narrows what this thread's dispatch layer sees
    /// (anything but [`Machine::REAL`]): what the dispatch layer selects
    /// then is not kept for later calls.
    pub(crate) fn narrowed() -> bool {
        SEEN.with(Cell::get) != Machine::REAL
    }
}

/// Without the test hooks: nothing hidden.
#[cfg(not(all(feature = "std", feature = "_test-hooks")))]
pub(crate) mod test_hooks {
    #[allow(dead_code)] // only read on x86_64 with `std`
    pub(crate) fn visible_features() -> u16 {
        u16::MAX
    }

    pub(crate) fn scalar_target() -> bool {
        false
    }

    pub(crate) fn narrowed() -> bool {
        false
    }
}
