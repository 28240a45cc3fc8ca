//! Virtual connections for Hex: H-search over groups, edges and empty
//! cells (`hsearch`), the same carried from one stone to the next
//! (`incremental`), the store of carriers it fills (`connections`,
//! `cellset`), the edge templates that seed it (`templates`) and what the
//! search makes of the result (`mustplay`).

pub mod cellset;
pub mod connections;
pub mod hsearch;
pub mod incremental;
pub mod mustplay;
pub mod templates;

pub use cellset::{Carrier, CellSet, SmallCellSet};
pub use hsearch::{Budget, Connections};
pub use mustplay::Verdict;
