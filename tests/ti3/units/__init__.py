"""Tests of TI3 unit cards with their own rules (issue 27)."""
