//! `transform_joints`: being written.
