"""Tests of the TI3 races' combat abilities and racial technologies (issue 27)."""
