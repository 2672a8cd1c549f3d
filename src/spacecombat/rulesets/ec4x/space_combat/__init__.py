"""EC4X space combat (ec4x-movement-and-combat.md 7.1–7.4): engagement, detection, morale, the
rounds and their phases, targeting, CER, damage, retreat and the end of combat.
``rulesets/ec4x/__init__.py`` lists which module holds which section.
"""
