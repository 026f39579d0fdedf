"""The rule steps, each a small pure function on exact distributions (docs/rules.md).

=====================================================  =======================================
rule step                                              function
=====================================================  =======================================
Attacks, Rapid Fire, Blast                             :func:`.rolls.attacks_roll`
Hit roll, Heavy, Stealth, Torrent, Overwatch, re-rolls  :func:`.rolls.hit_roll`
Wound roll, Lance, Anti-X, Twin-linked, re-rolls       :func:`.rolls.wound_roll`
Saving throw, AP, invulnerable saves, cover            :func:`.rolls.saving_throw`
Sustained Hits, Lethal Hits, Devastating Wounds        :func:`.criticals.attack_wounds`
Damage, Melta, damage modifiers                        :func:`.damage.damage_roll`
Feel No Pain                                           :func:`.damage.feel_no_pain`
Allocation (wounded first, CHARACTERs last, Precision)  :func:`.allocation.next_group`
Damage to a model, excess lost                         :func:`.allocation.lose`
Mortal wounds, Devastating Wounds as mortal wounds     :func:`.effects.mortal_wounds`
Reanimation Protocols                                  :func:`.effects.reanimate`
Deadly Demise                                          :func:`.effects.deadly_demise`
Hazardous                                              :func:`.effects.hazardous`
Crushing Impact (11e)                                  :func:`.effects.crushing_impact`
Named rules (stratagems, detachment rules...)          :func:`.named.apply_rules`
=====================================================  =======================================

The engine (:mod:`mathhammer.engine`) chains them into one attack and sequences of steps.
"""
