//! The reading room's hand-kept table of the `transform_skeleton` page.

use super::{All, ListingSpec, PageSpec, c, e, no_c, text};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "transform_skeleton",
    routine: "transform_skeleton",
    paper: "The Skeleton Assembly Line (2005), Appendix A (and section 3's movss + shufps variant)",
    listings: &[
        ListingSpec {
            kernel: "transform_skeleton",
            listing: "transform_skeleton.listing.s",
            asm_anchor: "pub unsafe fn transform_skeleton(",
            intrinsics_anchor: "unsafe fn kernel(",
            intrinsics_calls: &[],
            loop_label: "loopJoint",
        },
        ListingSpec {
            kernel: "transform_skeleton (movss+shufps)",
            listing: "transform_skeleton_movss_shufps.listing.s",
            asm_anchor: "pub unsafe fn transform_skeleton_movss_shufps(",
            intrinsics_anchor: "unsafe fn kernel_movss_shufps(",
            intrinsics_calls: &[],
            loop_label: "loopJoint",
        },
    ],
    scalar: &[
        c("", &[("pub unsafe fn transform_skeleton(", "    for i in")]),
        c("loopJoint", &[("pub fn transform_joint(", "}"), ("pub unsafe fn transform_skeleton(", "}")]),
        no_c("done", "the end of the block"),
    ],
    errata: &[
        e("E1", &[("loopJoint", "SIMD_SP_clearFirstThree", All)]),
        text("E2", "comments only (the notes' table gives each comment's OCR line)"),
    ],
    register_map: Some("transform_skeleton"),
};
