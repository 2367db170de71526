//! `mats_to_quats`: being written.
