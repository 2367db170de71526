//! The reading room's hand-kept table of the `quats_to_mats` page.

use super::{All, ListingSpec, Nth, PageSpec, c, e, no_c, text};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "quats_to_mats",
    routine: "quats_to_mats",
    paper: "From Quaternion to Matrix and Back (2005), Appendix A",
    listings: &[ListingSpec {
        kernel: "quats_to_mats",
        listing: "quats_to_mats.listing.s",
        asm_anchor: "pub unsafe fn quats_to_mats(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: &[],
        loop_label: "loopQuat",
    }],
    scalar: &[
        c("", &[("pub unsafe fn quats_to_mats(", "    for i in")]),
        c("loopQuat", &[("pub fn joint_quat_to_joint_mat(", "}")]),
        no_c("done", "the end of the block"),
    ],
    errata: &[
        text("E1", "a constant's declaration macro, not an instruction"),
        e("E2", &[("loopQuat", "pshufd", All)]),
        e("E3", &[("loopQuat", "SIMD_SP_one", All)]),
        e("E4", &[("loopQuat", "subss xmm7", All)]),
        e("E5", &[("loopQuat", "mulss xmm0, xmm1", Nth(0))]),
        e(
            "E6",
            &[
                ("", "shl eax", Nth(0)),
                ("", "neg eax", Nth(0)),
                ("loopQuat", "add eax, JOINTQUAT_SIZE", Nth(0)),
                ("loopQuat", "jl loopQuat", Nth(0)),
            ],
        ),
    ],
    register_map: Some("quats_to_mats"),
};
