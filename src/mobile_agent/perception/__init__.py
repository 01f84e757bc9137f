"""perception layer."""
