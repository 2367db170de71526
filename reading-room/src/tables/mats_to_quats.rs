//! The reading room's hand-kept table of the `mats_to_quats` page.

use super::{All, ListingSpec, PageSpec, c, e, no_c, text};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "mats_to_quats",
    routine: "mats_to_quats",
    paper: "From Quaternion to Matrix and Back (2005), Appendix B",
    listings: &[ListingSpec {
        kernel: "mats_to_quats",
        listing: "mats_to_quats.listing.s",
        asm_anchor: "pub unsafe fn mats_to_quats(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: &[],
        loop_label: "loopMat4",
    }],
    scalar: &[
        c("", &[("pub unsafe fn mats_to_quats(", "    for i in")]),
        c("loopMat4", &[("pub unsafe fn mats_to_quats(", "}")]),
        no_c("done4", "the 4-wide / 1-wide split has no C"),
        c("loopMat1", &[("pub unsafe fn mats_to_quats(", "}")]),
        no_c("done1", "the end of the block"),
    ],
    errata: &[
        e("E1", &[("loopMat4", "cmpnltps", All), ("loopMat1", "cmpnltss", All)]),
        e("E2", &[("loopMat4", "cmpnltps xmm0, SIMD_SP_zero", All), ("loopMat1", "cmpnltss xmm0, SIMD_SP_zero", All)]),
        e("E3", &[("loopMat4", "xorps xmm6, SIMD_SP_signBit", All), ("loopMat1", "xorps xmm6, SIMD_SP_signBit", All)]),
        e("E4", &[("loopMat4", "addps xmm7, SIMD_SP_one", All), ("loopMat1", "addss xmm7, SIMD_SP_one", All)]),
        e("E5", &[("loopMat4", "rsqrtps", All), ("loopMat1", "rsqrtss", All)]),
        text("E6", "about section 4's snippets, not the listing"),
        text("E7", "comments and text only (the notes' table names each)"),
    ],
    register_map: Some("mats_to_quats"),
};
