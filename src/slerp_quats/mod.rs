//! `slerp_quats`: being written.
