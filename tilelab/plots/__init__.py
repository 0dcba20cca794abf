"""Figure-returning matplotlib pictures for the lessons (one module per game)."""
