"""Tests of the TI3 races' flagships (Shards of the Throne; issue 27, docs/rulings.md 27R)."""
