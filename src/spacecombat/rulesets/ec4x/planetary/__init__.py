"""EC4X planetary combat (ec4x-movement-and-combat.md 7.5–7.6): bombardment, invasion and blitz,
played after space combat in the same battle. ``rulesets/ec4x/__init__.py`` lists which module
holds which section.
"""
