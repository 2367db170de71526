//! What the running CPU has, by the standard library's detection (for
//! `tests/dispatch.rs` and `tests/no_std.rs`, which includes this file alone).
#![allow(dead_code)] // not every test binary that includes `tests/common` calls it

/// Whether the running CPU has the features an instruction set needs, by
/// the standard library's detection.
#[cfg(feature = "std")]
pub fn cpu_has(features: &[&str]) -> bool {
    features.iter().all(|&feature| {
        #[cfg(target_arch = "x86_64")]
        {
            match feature {
                "avx" => std::is_x86_feature_detected!("avx"),
                "avx2" => std::is_x86_feature_detected!("avx2"),
                "fma" => std::is_x86_feature_detected!("fma"),
                "avx512f" => std::is_x86_feature_detected!("avx512f"),
                "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
                "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
                "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
                other => panic!("unknown feature {other:?}"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = feature;
            false
        }
    })
}
