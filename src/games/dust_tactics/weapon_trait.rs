//! The traits of a weapon line that change how it resolves, one enum shared by the rulesets.

use serde::{Deserialize, Serialize};

/// Weapon traits that change how a line resolves (004 "Special weapons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponTrait {
    Flamethrower,
    Laser,
    /// UGL, grenade launcher, grenade pistol: ignore cover.
    GrenadeLauncher,
    Explosives,
    /// Dice per model in the squad (knife, knife & grenade).
    PerModel,
    /// battlefront-2013: front-mounted, fires only 45° either side of the unit's facing (003
    /// "Field of Fire"; `battlefront::facing`). Other rulesets have no facing and ignore it.
    FrontArc,
    /// 004 "Reloadable Weapons": begins loaded, firing empties it, 1 SKILL action reloads it
    /// (`flow::artillery`, R415).
    Reloadable,
    /// 004 "Burst Weapons": double dice against a target that has not moved this round (R418).
    Burst,
    /// 004 "Setup Weapons": half the dice, rounded up, in a MOVE + ATTACK or ATTACK + MOVE
    /// activation (R419).
    Setup,
    /// 004 "Dual Ammo Weapons": one line per ammunition, the lines of one weapon sharing its
    /// `name`; an attack fires one of them (R420).
    DualAmmo,
    /// 004 "Tesla weapons": chained hits as a laser's, no cover, every unit between the shooter
    /// and the target is hit too, and the carrier may explode when destroyed (`flow::tesla`,
    /// R561–R563). Under battlefront-2013, 002's: a unit hit gets a Stunned token, nothing else
    /// (`battlefront::stunned::tesla_hit`, R750).
    Tesla,
    /// battlefront-2013, 002 "Phaser Weapons": no Cover Save, the Infantry Save kept (R670). Not
    /// 004's phaser, which is a cell `XxY`; refused under the other rulesets.
    Phaser,
    /// battlefront-2013, 002 "Cutting Weapons": each hit rolls another die, as a laser's (R671);
    /// refused under the other rulesets.
    Cutting,
    /// battlefront-2013, 002 "Grapple Weapons": a hit puts a Stunned token on the target, removed
    /// when the grappler takes an action other than Nothing (`battlefront::grapple`, R812–R814);
    /// with "Chainsaws and Claws" an engineer vehicle cuts wire with it (R809). Refused under the
    /// other rulesets.
    Grapple,
    /// battlefront-2013, 002 "Power Scopes": hits on army or target in a Sustained Attack (R672).
    PowerScopes,
    /// battlefront-2013, 002 "Wire-Guided Weapons": fired alone in an Attack, its misses are
    /// re-rolled as a Sustained Attack's (R673).
    WireGuided,
    /// battlefront-2013, 002 "Under-Barrel Weapons": the line below its main weapon on the card;
    /// both fire at the same target in one attack (R674).
    UnderBarrel,
    /// battlefront-2013, 002 "Sniper Weapons": the order may name the miniature its unsaved hits
    /// go to (R675); a living "spotter" model that fires nothing makes it hit on army or target in
    /// a Sustained Attack (002 "Spotters", R676).
    Sniper,
    /// battlefront-2013, 002 "Crew": a weapon of the crew of a vehicle with the equipment Crew,
    /// fired instead of the vehicle's, one for each damage point left (R668).
    Crew,
    /// battlefront-2013, 002 "Salvo Weapons": begins loaded; declared with `skill salvo`, an
    /// attack rolls twice the dice and removes the Loaded token; `skill reload` puts it back
    /// (`flow::artillery002`, R696). Refused at `new` under the other rulesets.
    Salvo,
    /// battlefront-2013, 002 "Volley Weapons": a limited-ammo line that fires any or all of its
    /// remaining boxes at once, its dice multiplied by the boxes marked (`flow::volley`, R751).
    /// Not 004's volley, which is a cell `A/X-B/X`; refused under the other rulesets.
    Volley,
}
