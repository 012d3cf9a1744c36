//! 004 "Phaser Weapons X×Y": "Roll 'X' dice and total the number of [hit] results: this total is
//! equal to 'Y'. Roll 'Y' dice and inflict 1 damage for each [hit] result. Phasers ignore all
//! cover. If you perform a SUSTAINED ATTACK, reroll the 'X' value. When a unit with a phaser uses
//! a skill that modifies the chance to hit (eg Berserk), only reroll the 'X' value." (R421)
//!
//! The X roll is the line's attack roll (with its sustained and Berserk re-rolls); this module
//! rolls the Y dice, plainly: no re-roll and no reversal reaches them.

use super::combat::roll;
use super::model::WeaponLine;
use super::rules::Rules;
use crate::game::{DiceSource, Roll};

/// Rolls the Y dice for the `y` hits of the X roll; returns the hits, each 1 damage.
pub(crate) fn damage_roll(
    rules: Rules,
    weapon: &WeaponLine,
    y: u32,
    round: u32,
    dice: &mut dyn DiceSource,
    rolls: &mut Vec<Roll>,
    notes: &mut Vec<String>,
) -> u32 {
    let faces = roll(
        y,
        format!("phaser damage roll {}", weapon.id),
        round,
        dice,
        rolls,
    );
    let hits = faces.iter().filter(|f| rules.is_hit(**f)).count() as u32;
    notes.push(format!("phaser: {y} hit(s) make {y} damage dice"));
    hits
}
