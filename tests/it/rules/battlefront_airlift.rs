//! Issue 18 under battlefront-2013: 002 "Carrying Vehicles" (Airlifter, "Activating While
//! Carried", "Damage to Carried Vehicles") and the vehicle equipment Airmobile and Air Assault,
//! rulings R744–R749. Not built yet: a card naming any of them is refused when read, by its 002
//! name (R711, R744), so no game can hold a carried vehicle 002's way.

use dustmail::dust_tactics::cards::parse_card;

// 002 "Airlifter": "Airlifters are Aircraft that are equipped to airlift Vehicles into battle. An
// Airlifter can only carry Airmobile or Air Assault Vehicles." 002 "Airmobile": "An Airmobile
// Vehicle can be carried by an Airlifter"; "Air Assault": "An Air Assault Vehicle can be carried
// by an Airlifter." None is built (R744): each is refused by its card name and 002's title.
#[test]
fn s002_carrying_vehicles_airlifter_airmobile_and_air_assault_are_refused_by_name() {
    for (id, title) in [
        ("airlifter", "Airlifter"),
        ("airmobile", "Airmobile"),
        ("air-assault", "Air Assault"),
    ] {
        let (f, t) = super::battlefront_skills002::card_with(
            "bf-pounder",
            &format!("[[skills]]\nname = \"{id}\""),
        );
        let e = parse_card(&f, &t).unwrap_err();
        assert!(
            e.reason.contains(&format!("`{id}`")) && e.reason.contains(&format!("\"{title}\"")),
            "{e}"
        );
        assert!(e.reason.contains("not built"), "{e}");
    }
}
