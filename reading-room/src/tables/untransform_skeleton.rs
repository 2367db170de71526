//! The reading room's hand-kept table of the `untransform_skeleton` page.

use super::{ListingSpec, PageSpec, c, no_c};

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "untransform_skeleton",
    routine: "untransform_skeleton",
    paper: "The Skeleton Assembly Line (2005), Appendix B",
    listings: &[ListingSpec {
        kernel: "untransform_skeleton",
        listing: "untransform_skeleton.listing.s",
        asm_anchor: "pub unsafe fn untransform_skeleton(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: &[],
        loop_label: "loopJoint",
    }],
    scalar: &[
        c("", &[("pub unsafe fn untransform_skeleton(", "    for i in")]),
        c("loopJoint", &[("pub fn untransform_joint(", "}"), ("pub unsafe fn untransform_skeleton(", "}")]),
        no_c("done", "the end of the block"),
    ],
    errata: &[],
    register_map: Some("untransform_skeleton"),
};
