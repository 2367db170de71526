//! The reading room's hand-kept table of the `slerp_quats` page.

use super::{All, ListingSpec, PageSpec, c, e, no_c, text};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "slerp_quats",
    routine: "slerp_quats",
    paper: "Mehrotra and Hubbard, Benefits of Intel AVX for Quaternion Slerp (Intel), ProcessOptimizedKernel",
    listings: &[ListingSpec {
        kernel: "slerp_quats",
        listing: "slerp_quats.listing.s",
        asm_anchor: "macro_rules! process_optimized_kernel",
        intrinsics_anchor: "unsafe fn process_optimized_kernel<",
        intrinsics_calls: &[],
        loop_label: "loopQuat16",
    }],
    scalar: &[
        c("", &[("pub unsafe fn slerp_quats_as_published(", "}")]),
        c("loopQuat16", &[("unsafe fn remainder_loop(", "}")]),
        no_c("loopDone", "the end of the vector loop: the remainder loop (E6) follows in Rust"),
    ],
    errata: &[
        e("E1", &[("loopQuat16", "halfPi", All)]),
        e("E2", &[("loopQuat16", "sqrtC1", All)]),
        e("E3", &[("loopQuat16", "vmulps ymmR0, sinsqr, sinom", All)]),
        e("E4", &[("loopQuat16", "setSignBit", All)]),
        e("E5", &[("loopQuat16", "vcmpeqps", All)]),
        text("E6", "the remainder loop is C (`scalar.rs`), not part of the listing"),
        text("E7", "a difference between the vector loop and the C remainder loop as a whole"),
        text("E8", "names and text of the article"),
        text("E9", "the article's IACA arithmetic (text)"),
    ],
    register_map: None,
};
