//! The reading room's hand-kept table of the `transform_joints` page.

use super::{All, ListingSpec, PageSpec, c, e, no_c, text};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "transform_joints",
    routine: "transform_joints",
    paper: "The Skeleton Assembly Line (2005), Appendix C",
    listings: &[ListingSpec {
        kernel: "transform_joints",
        listing: "transform_joints.listing.s",
        asm_anchor: "pub unsafe fn transform_joints(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: &[],
        loop_label: "loopJoint",
    }],
    scalar: &[
        c("", &[("pub unsafe fn transform_joints(", "    while i")]),
        c("loopJoint", &[("pub fn multiply_joints(", "}"), ("pub unsafe fn transform_joints(", "}")]),
        no_c("done", "the end of the block"),
    ],
    errata: &[
        text("E1", "about the paper's text (it names Appendix B for Appendix C)"),
        e("E2", &[("loopJoint", "SIMD_SP_clearFirstThree", All)]),
    ],
    register_map: Some("transform_joints"),
};
