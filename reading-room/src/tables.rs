//! The hand-made tables of the reading room, one entry per routine page:
//! which files a page reads, which lines of `scalar.rs` each block of the
//! listing implements (found by pattern, so they survive edits), and which
//! rows each erratum concerns (by block, instruction text and occurrence).
//! The generator fails loudly when a pattern no longer matches.

/// One routine page.
pub struct PageSpec {
    /// The page's file stem (`slerp_joints` gives `slerp_joints.html`).
    pub page: &'static str,
    /// The routine: `asm_notes/<routine>.md`, `src/<routine>/`.
    pub routine: &'static str,
    /// The paper, for the page's heading.
    pub paper: &'static str,
    /// The listings shown on the page (the transform_skeleton page has two).
    pub listings: &'static [ListingSpec],
    /// Block -> the C it implements.
    pub scalar: &'static [ScalarBlock],
    /// Erratum -> where it is.
    pub errata: &'static [ErratumSpec],
    /// The register map's heading prefix in `asm_notes/README.md` ("Register
    /// maps"), or `None` when the README has none for the routine.
    pub register_map: Option<&'static str>,
}

/// One listing and the port's files that follow it.
pub struct ListingSpec {
    /// The kernel's name in the measurements (`slerp_joints`,
    /// `transform_skeleton (movss+shufps)`, ...): llvm-mca's kernel name.
    pub kernel: &'static str,
    /// `asm_notes/<file>`.
    pub listing: &'static str,
    /// A line of `src/<routine>/asm.rs` before the kernel's `asm!(`.
    pub asm_anchor: &'static str,
    /// A line of `src/<routine>/intrinsics.rs` that starts the twin's body.
    pub intrinsics_anchor: &'static str,
    /// Functions of other files the twin calls, whose comments name listing
    /// instructions: (call pattern, file, the line that starts the function).
    pub intrinsics_calls: &'static [(&'static str, &'static str, &'static str)],
    /// The label of the main loop.
    pub loop_label: &'static str,
    /// The gungraun benchmark directory's prefix under
    /// `gungraun/animasm/instr_count/<routine>_group/`.
    pub gungraun: &'static str,
}

/// Where a block of the listing is in the C: `ranges` of `scalar.rs`, each
/// from the first line containing `start` to the next line (at or after it)
/// that starts with `end` (a `}` at column 0 ends a function), or the reason
/// it has none.
pub struct ScalarBlock {
    /// The label, or `""` for the instructions before the first label.
    pub block: &'static str,
    pub ranges: &'static [(&'static str, &'static str)],
    /// Why there is no C for the block (when `ranges` is empty).
    pub none: &'static str,
}

/// Which rows of a block an erratum concerns.
#[derive(Clone, Copy)]
pub enum Occ {
    /// The n-th (0-based) instruction of the block containing the needle.
    Nth(usize),
    /// Every instruction of the block containing it.
    All,
}

/// An erratum: the rows it concerns, or why none.
pub struct ErratumSpec {
    pub id: &'static str,
    /// (block, needle, occurrence); needles are compared case-insensitively
    /// with the whitespace removed.
    pub rows: &'static [(&'static str, &'static str, Occ)],
    /// Why it has no row (when `rows` is empty).
    pub none: &'static str,
}

use Occ::{All, Nth};

const fn e(id: &'static str, rows: &'static [(&'static str, &'static str, Occ)]) -> ErratumSpec {
    ErratumSpec { id, rows, none: "" }
}
const fn text(id: &'static str, none: &'static str) -> ErratumSpec {
    ErratumSpec { id, rows: &[], none }
}
const fn c(block: &'static str, ranges: &'static [(&'static str, &'static str)]) -> ScalarBlock {
    ScalarBlock { block, ranges, none: "" }
}
const fn no_c(block: &'static str, none: &'static str) -> ScalarBlock {
    ScalarBlock { block, ranges: &[], none }
}

const SLERP_BODY: &[(&str, &str)] =
    &[("pub fn slerp_optimized(", "}"), ("let j = *index.add(i)", "            joint.t")];
const LERP_BODY: &[(&str, &str)] = &[("pub fn lerp(", "}"), ("let j = *index.add(i)", "            joint.t")];

/// The shared SSE slerp core the slerp_joints twin calls.
const SLERP_CORE: &[(&str, &str, &str)] = &[
    ("slerp4(", "src/x86/slerp_core.rs", "pub(crate) fn slerp4("),
    ("slerp1(", "src/x86/slerp_core.rs", "pub(crate) fn slerp1("),
];

/// Every routine page, in the papers' order.
pub const PAGES: &[PageSpec] = &[
    PageSpec {
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
            gungraun: "slerp_joints",
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
    },
    PageSpec {
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
            gungraun: "lerp_joints",
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
    },
    PageSpec {
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
            gungraun: "quats_to_mats",
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
    },
    PageSpec {
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
            gungraun: "mats_to_quats",
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
            e(
                "E2",
                &[("loopMat4", "cmpnltps xmm0, SIMD_SP_zero", All), ("loopMat1", "cmpnltss xmm0, SIMD_SP_zero", All)],
            ),
            e(
                "E3",
                &[("loopMat4", "xorps xmm6, SIMD_SP_signBit", All), ("loopMat1", "xorps xmm6, SIMD_SP_signBit", All)],
            ),
            e("E4", &[("loopMat4", "addps xmm7, SIMD_SP_one", All), ("loopMat1", "addss xmm7, SIMD_SP_one", All)]),
            e("E5", &[("loopMat4", "rsqrtps", All), ("loopMat1", "rsqrtss", All)]),
            text("E6", "about section 4's snippets, not the listing"),
            text("E7", "comments and text only (the notes' table names each)"),
        ],
        register_map: Some("mats_to_quats"),
    },
    PageSpec {
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
                gungraun: "transform_skeleton.",
            },
            ListingSpec {
                kernel: "transform_skeleton (movss+shufps)",
                listing: "transform_skeleton_movss_shufps.listing.s",
                asm_anchor: "pub unsafe fn transform_skeleton_movss_shufps(",
                intrinsics_anchor: "unsafe fn kernel_movss_shufps(",
                intrinsics_calls: &[],
                loop_label: "loopJoint",
                gungraun: "transform_skeleton.asm_movss_shufps",
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
    },
    PageSpec {
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
            gungraun: "untransform_skeleton",
        }],
        scalar: &[
            c("", &[("pub unsafe fn untransform_skeleton(", "    for i in")]),
            c("loopJoint", &[("pub fn untransform_joint(", "}"), ("pub unsafe fn untransform_skeleton(", "}")]),
            no_c("done", "the end of the block"),
        ],
        errata: &[],
        register_map: Some("untransform_skeleton"),
    },
    PageSpec {
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
            gungraun: "transform_joints",
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
    },
    PageSpec {
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
            gungraun: "slerp_quats_avx",
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
    },
];

/// The `nlerp` routine has no listing: its page shows the notes' errata and
/// the measurements only.
pub const NLERP: &str = "nlerp";
