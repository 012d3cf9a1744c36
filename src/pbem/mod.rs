//! The PBEM core (DESIGN §2): what every game played by mail needs and no game or edge
//! provides. It imports no edge and no game (tests/layers.rs reads the sources to check).

pub mod block;
pub mod control;
pub mod edges;
pub mod error;
pub mod home;
pub mod keys;
pub mod lines;
pub mod replay;
pub mod store;
pub mod verify;
