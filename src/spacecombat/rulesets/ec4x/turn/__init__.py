"""The EC4X game turn: movement (ec4x-movement-and-combat.md 6.1), fleet orders (6.2), the
conflict phase, the star map and each house's report. ``rulesets/ec4x/__init__.py`` lists which
module holds which section.
"""
