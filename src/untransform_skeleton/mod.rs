//! `untransform_skeleton`: being written.
