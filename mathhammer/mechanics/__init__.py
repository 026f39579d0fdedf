"""The rule steps, each a small pure function on exact distributions (docs/rules.md).

=====================================================  =======================================
rule step                                              function
=====================================================  =======================================
Attacks, Rapid Fire, Blast, Cleave, doubled/halved A   :func:`.rolls.attacks_roll`
Hit roll, Heavy, Stealth, Torrent, Overwatch           :func:`.rolls.hit_roll`
Ignored modifiers, a hit on an unmodified X+           :func:`.rolls.hit_roll`
Wound roll, Lance, Anti-X, Twin-linked                 :func:`.rolls.wound_roll`
Re-rolls (ones, failed, fishing for criticals)         :func:`.rolls.d6_roll`
Lethal Hits (and the 11e choice to decline them)       :func:`.rolls.lethal_hits`
Saving throw, AP, invulnerable saves, cover            :func:`.rolls.saving_throw`
Sustained Hits, Lethal Hits, Devastating Wounds        :func:`.criticals.attack_wounds`
Damage, Melta, damage modifiers                        :func:`.damage.damage_roll`
Re-rolled Damage, decided against the model            :func:`.damage.packet_losses`
Feel No Pain                                           :func:`.damage.feel_no_pain`
Feel No Pain against mortal wounds / Psychic Attacks   :func:`.damage.wound_fnp`
Allocation (wounded first, CHARACTERs last, Precision)  :func:`.allocation.next_group`
Damage to a model, excess lost                         :func:`.allocation.lose`
One mortal wound or Devastating Wound, its damage      :func:`.allocation.mortal_move`
Mortal wounds                                          :func:`.effects.mortal_wounds`
Devastating Wounds, after all normal damage            :func:`.effects.devastating_wounds`
Reanimation Protocols                                  :func:`.effects.reanimate`
Deadly Demise                                          :func:`.effects.deadly_demise`
Hazardous                                              :func:`.effects.hazardous`
Crushing Impact (11e)                                  :func:`.effects.crushing_impact`
Named rules (stratagems, detachment rules...)          :func:`.named.apply_rules`
=====================================================  =======================================

The engine (:mod:`mathhammer.engine`) chains them into one attack and sequences of steps; it
applies each weapon's Devastating Wounds after all normal damage with the same
:func:`.allocation.mortal_move`, for every count at once, and makes the 11e "best" Lethal Hits
choice by running the attack both ways.
"""
