//! `nlerp`: being written.
