//! Generated from the documents' Rust blocks by `tests/integration/docs.rs`: do not edit;
//! `AGENT_TEST_UPDATE_DOCS=1 cargo test -p agent-test --test integration docs` rewrites
//! these files. Each block is one module, compiled exactly as shown.

/// README.md, the block at line 45.
mod readme_1 {
    include!("readme_1.rs");
}

/// README.md, the block at line 138.
mod readme_2 {
    include!("readme_2.rs");
}

/// README.md, the block at line 304.
mod readme_3 {
    include!("readme_3.rs");
}

/// docs/testing.md, the block at line 19.
mod testing_1 {
    include!("testing_1.rs");
}

/// docs/testing.md, the block at line 126.
mod testing_2 {
    include!("testing_2.rs");
}

/// docs/testing.md, the block at line 183.
mod testing_3 {
    include!("testing_3.rs");
}

/// docs/testing.md, the block at line 239.
mod testing_4 {
    include!("testing_4.rs");
}

/// docs/testing.md, the block at line 395.
mod testing_5 {
    include!("testing_5.rs");
}

/// docs/testing.md, the block at line 455.
mod testing_6 {
    include!("testing_6.rs");
}

/// docs/testing.md, the block at line 545.
mod testing_7 {
    include!("testing_7.rs");
}
