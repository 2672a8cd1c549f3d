"""Odds of a battle: exactly (carrying probability through the battle's states) or by Monte
Carlo, from the same rules code as the resolver."""
