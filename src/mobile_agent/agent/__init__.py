"""agent layer."""
