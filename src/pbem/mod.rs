//! The PBEM core (DESIGN §2): what every game played by mail needs and no game or edge
//! provides. It imports no edge and no game (tests/it/layers.rs reads the sources to check).

pub mod audit;
pub mod block;
pub mod campaign;
pub mod citation;
pub mod control;
pub mod control_step;
pub mod dedup;
pub mod digest;
pub mod due;
pub mod edges;
pub mod error;
pub mod fonts;
pub mod game;
pub mod hidden;
pub mod home;
pub mod keys;
pub mod ledger;
pub mod limits;
pub mod lines;
pub mod random;
pub mod registry;
pub mod replay;
pub mod seed;
pub mod store;
pub mod verify;
