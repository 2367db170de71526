//! `quats_to_mats`: being written.
