//! The reading room's hand-kept table of the `slerp_joints` page.

use super::{All, ListingSpec, Nth, PageSpec, c, e, no_c, text};

const SLERP_BODY: &[(&str, &str)] =
    &[("pub fn slerp_optimized(", "}"), ("let j = *index.add(i)", "            joint.t")];

/// The shared SSE slerp core the slerp_joints twin calls.
const SLERP_CORE: &[(&str, &str, &str)] = &[
    ("slerp4(", "src/x86/slerp_core.rs", "pub(crate) fn slerp4("),
    ("slerp1(", "src/x86/slerp_core.rs", "pub(crate) fn slerp1("),
];

/// The page.
pub const SPEC: PageSpec = PageSpec {
    page: "slerp_joints",
    routine: "slerp_joints",
    paper: "Slerping Clock Cycles (2005), Appendix A",
    listings: &[ListingSpec {
        kernel: "slerp_joints",
        listing: "slerp_joints.listing.s",
        asm_anchor: "pub unsafe fn slerp_joints(",
        intrinsics_anchor: "unsafe fn kernel(",
        intrinsics_calls: SLERP_CORE,
        loop_label: "loopJoint4",
    }],
    scalar: &[
        c("", &[("pub unsafe fn slerp_joints(", "    for i in")]),
        no_c("loopCopy", "the C has no copy path: it slerps every joint (E4)"),
        no_c("lerpJoints", "the 4-wide / 1-wide split has no C"),
        c("loopJoint4", SLERP_BODY),
        no_c("done4", "the 4-wide / 1-wide split has no C"),
        c("loopJoint1", SLERP_BODY),
        no_c("done1", "the end of the block"),
    ],
    errata: &[
        e("E1", &[("lerpJoints", "add eax, 4*4", Nth(0)), ("lerpJoints", "jge done4", Nth(0))]),
        e("E2", &[("loopJoint1", "movhlps", Nth(0)), ("loopJoint1", "addss", Nth(0))]),
        e("E3", &[("loopJoint4", "xorps xmm6, xmm1", All), ("loopJoint1", "xorps xmm6, xmm1", All)]),
        e("E4", &[("", "cmpnless", Nth(0)), ("", "cmpnltss", Nth(0))]),
        e(
            "E5",
            &[
                ("loopJoint4", "subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]", All),
                ("loopJoint1", "subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]", All),
            ],
        ),
        e("E6", &[("loopJoint4", "movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7", All)]),
        e("E7", &[("loopJoint4", "SIMD_SP_tiny", All), ("loopJoint1", "SIMD_SP_tiny", All)]),
        e("E8", &[("loopJoint4", "cmpeqps xmm4, xmm0", All), ("loopJoint1", "cmpeqss xmm4, xmm0", All)]),
        e(
            "E9",
            &[
                ("", "SIMD_SP_zero", All),
                ("loopJoint4", "SIMD_SP_tiny", All),
                ("loopJoint4", "SIMD_SP_absMask", All),
                ("loopJoint4", "SIMD_SP_rsqrt_c", All),
                ("loopJoint1", "SIMD_SP_absMask", All),
                ("loopJoint1", "SIMD_SP_rsqrt_c", All),
            ],
        ),
        text("E10", "comments only: the notes' table names the comments (the `cmpeqps` one is at E8's rows)"),
        text("E11", "about the C `SlerpOptimized` (its ReciprocalSqrt), not an instruction of the listing"),
    ],
    register_map: Some("slerp_joints"),
};
