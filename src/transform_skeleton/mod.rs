//! `transform_skeleton`: being written.
