//! The reading room's hand-kept table of the `lerp_joints` page.

use super::{All, ListingSpec, Nth, PageSpec, c, e, no_c};

const LERP_BODY: &[(&str, &str)] = &[("pub fn lerp(", "}"), ("let j = *index.add(i)", "            joint.t")];

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "lerp_joints",
    routine: "lerp_joints",
    paper: "Slerping Clock Cycles (2005), Appendix B",
    listings: &[ListingSpec {
        kernel: "lerp_joints",
        listing: "lerp_joints.listing.s",
        asm_anchor: "pub unsafe fn lerp_joints(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: &[],
        loop_label: "loopJoint4",
    }],
    scalar: &[
        c("", &[("pub unsafe fn lerp_joints(", "    for i in")]),
        no_c("loopCopy", "the C has no copy path: it lerps every joint (E4)"),
        c("lerpJoints", &[("pub fn lerp(", "    scale1 =")]),
        c("loopJoint4", LERP_BODY),
        no_c("done4", "the 4-wide / 1-wide split has no C"),
        c("loopJoint1", LERP_BODY),
        no_c("done1", "the end of the block"),
    ],
    errata: &[
        e("E1", &[("lerpJoints", "add eax, 4*4", Nth(0)), ("lerpJoints", "jge done4", Nth(0))]),
        e("E2", &[("loopJoint1", "movhlps", All), ("loopJoint1", "addss", All)]),
        e("E3", &[("loopJoint4", "xorps xmm7, xmm3", All), ("loopJoint1", "xorps xmm3, xmm7", All)]),
        e("E4", &[("", "cmpnless", Nth(0)), ("", "cmpnltss", Nth(0))]),
        e("E5", &[("loopJoint4", "subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]", All)]),
        e("E6", &[("loopJoint4", "movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7", All)]),
        e(
            "E7",
            &[
                ("", "SIMD_SP_zero", All),
                ("loopJoint4", "SIMD_SP_rsqrt_c", All),
                ("loopJoint1", "SIMD_SP_rsqrt_c", All),
            ],
        ),
    ],
    register_map: Some("lerp_joints"),
};
